// Browser tests of the admin area against the devserver: an
// admin creates a prompt, a user sees and buys it, the admin refunds the
// order and the user loses the prompt; the admin adds an MCP server and
// probes it; a user who is not an admin is refused /admin, and a visitor is
// sent to log in.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, signInAdmin, signInAs, startStack } from './stack.mjs';

const ADMIN = newUser('boss');

let stack;
before(async () => {
  // No free uses: a prompt is bought straight away.
  stack = await startStack({ ADMIN_EMAILS: ADMIN.email, FREE_PROMPTS_PER_USER: '0' });
});
after(async () => {
  await stack?.stop();
});

const card = (page, id) => page.locator(`[data-testid="prompt-card"][data-prompt-id="${id}"]`);

describe('admin area', () => {
  test('a visitor is sent to log in; a user who is not an admin sees 403', async () => {
    const page = await stack.newPage();
    await page.goto('/admin');
    await page.waitForURL((url) => url.pathname === '/login');
    await signInAs(page, newUser('plain'));
    await page.goto('/admin/prompts');
    await page.getByTestId('admin-forbidden').waitFor();
    await page.getByRole('heading', { level: 1, name: '403' }).waitFor();
    const res = await page.request.get('/api/v1/admin/prompts', {
      headers: { Authorization: `Bearer ${await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage')).token)}` },
    });
    assert.equal(res.status(), 403);
    await page.context().close();
  });

  test('an admin creates a prompt; a user buys it; the admin refunds it and the user loses it', async () => {
    const admin = await stack.newPage();
    await signInAdmin(admin, ADMIN);
    await admin.getByTestId('side-menu-button').click();
    await admin.getByRole('dialog', { name: 'Side menu' }).getByRole('link', { name: 'Admin' }).click();
    await admin.waitForURL((url) => url.pathname === '/admin/prompts');
    await admin.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();

    const title = `Board memo ${Date.now()}`;
    await admin.getByRole('button', { name: 'New prompt' }).click();
    const editor = admin.getByRole('dialog', { name: 'New prompt' });
    await editor.getByLabel('Title').fill(title);
    await editor.getByLabel('Description').fill('Turns notes into a board memo.');
    await editor.getByLabel('Content').fill('Write a board memo about {{topic}}.');
    await editor.getByLabel('Price (USD)').fill('3.25');
    await editor.getByLabel('Category').selectOption({ label: 'Business' });
    await editor.getByText('Published', { exact: true }).click(); // a new prompt starts as a draft
    assert.equal(await editor.getByLabel('Published').isChecked(), true);
    await editor.getByRole('button', { name: 'Create prompt' }).click();
    const row = admin.getByTestId('prompt-row').filter({ hasText: title });
    await row.waitFor();
    const promptId = await row.getAttribute('data-prompt-id');

    // A user finds it in the marketplace and buys it on the local checkout.
    const buyer = await stack.newPage();
    const session = await signInAs(buyer, newUser('buyer'));
    await buyer.goto('/marketplace');
    await card(buyer, promptId).getByRole('button', { name: 'Purchase', exact: true }).click();
    await buyer.waitForURL('**/dev/checkout/cs_local_*');
    assert.equal((await buyer.getByTestId('checkout-amount').innerText()).trim(), '$3.25');
    await buyer.getByRole('button', { name: /^Pay / }).click();
    await buyer.waitForURL('**/payment/success?session_id=cs_local_*');
    await buyer.getByTestId('payment-prompt-title').getByText(title).waitFor();
    const auth = { Authorization: `Bearer ${session.access_token}` };
    const bought = await (await buyer.request.get(`/api/v1/prompts/${promptId}`, { headers: auth })).json();
    assert.equal(bought.content, 'Write a board memo about {{topic}}.');

    // The admin finds the order and refunds it.
    await admin.goto('/admin/orders');
    const order = admin.getByTestId('order-row').filter({ hasText: title });
    await order.waitFor();
    await order.getByRole('button', { name: /^Open order / }).click();
    const dialog = admin.getByTestId('order-dialog');
    await dialog.getByRole('button', { name: 'Refund…' }).click();
    await admin.getByTestId('refund-dialog').getByLabel('Reason (optional)').fill('Asked by the buyer');
    await admin.getByTestId('refund-dialog').getByRole('button', { name: 'Refund', exact: true }).click();
    await admin.getByText(/^Refunded \$3\.25/).waitFor();

    // The buyer no longer has it: the marketplace sells it again, the content is gone.
    await stack.until('the refund takes the prompt away', async () => {
      const res = await buyer.request.get('/api/v1/payments/owned-prompts', { headers: auth });
      return !(await res.json()).owned_prompt_ids.includes(promptId);
    });
    await buyer.goto('/marketplace');
    await card(buyer, promptId).getByRole('button', { name: 'Purchase', exact: true }).waitFor();
    const after = await (await buyer.request.get(`/api/v1/prompts/${promptId}`, { headers: auth })).json();
    assert.equal(after.content ?? null, null, 'the content is no longer served to the refunded buyer');

    // The audit log has the admin's actions.
    await admin.goto('/admin/audit');
    await admin.getByTestId('audit-row').filter({ hasText: 'order.refund' }).waitFor();
    await admin.getByTestId('audit-row').filter({ hasText: 'prompt.create' }).waitFor();
    await buyer.context().close();
    await admin.context().close();
  });

  test('every admin section fits a 390 px phone: the page never scrolls sideways (tables scroll in their frame)', async () => {
    const admin = await stack.newPage({ viewport: { width: 390, height: 800 } });
    await signInAdmin(admin, ADMIN);
    for (const [section, ...readyIds] of [
      ['prompts', 'prompts-table-count'],
      ['categories', 'category-row'],
      ['mcp-servers', 'servers-table-count'],
      ['orders', 'orders-table-count'],
      ['users', 'users-table-count'],
      ['audit', 'audit-table-count'],
      ['creators', 'creators-table-count'],
      ['reviews', 'empty-state', 'reviews-list'],
    ]) {
      await admin.goto(`/admin/${section}`);
      await readyIds.map((id) => admin.getByTestId(id)).reduce((a, b) => a.or(b)).first().waitFor();
      const { scroll, width } = await admin.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
      assert.ok(scroll <= width, `/admin/${section} is ${scroll} px wide on a ${width} px screen`);
    }
    await admin.getByRole('link', { name: 'Prompts' }).first().click();
    await admin.getByRole('button', { name: 'New prompt' }).click();
    const editor = admin.getByTestId('prompt-editor');
    await editor.waitFor();
    const box = await editor.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the prompt form spans ${JSON.stringify(box)} on a 390 px screen`);
    await admin.context().close();
  });

  test('an admin adds an MCP server and probes it', async () => {
    const admin = await stack.newPage();
    await signInAdmin(admin, ADMIN);
    // The local reference server the devserver runs: a real MCP server to add again under another name.
    const { items: servers } = await (await admin.request.get(`/api/v1/mcp-servers/?${new URLSearchParams({ search: 'local reference server' })}`)).json();
    const reference = servers.find((s) => /local reference server/i.test(s.name));
    assert.ok(reference, `no local reference server in ${JSON.stringify(servers.map((s) => s.name))}`);
    const detail = await (await admin.request.get(`/api/v1/mcp-servers/${reference.id}`)).json();

    await admin.goto('/admin/mcp-servers');
    await admin.getByRole('button', { name: 'Add server' }).first().click();
    const editor = admin.getByRole('dialog', { name: /Add (an MCP )?server/ });
    const name = `Team everything ${Date.now()}`;
    await editor.getByLabel('Name').fill(name);
    await editor.getByLabel('Endpoint URL').fill(detail.endpoint_url);
    await editor.getByLabel('Model type').fill('code');
    await editor.getByRole('button', { name: 'Add server' }).click();
    await editor.waitFor({ state: 'hidden' });
    // The registry runs to more than a page of 25: the admin finds it by name.
    await admin.getByLabel('Search servers').fill(name);
    const row = admin.getByTestId('server-row').filter({ hasText: name });
    await row.waitFor();
    await row.getByRole('button', { name: `Probe ${name} now` }).click();
    await row.getByText(/^up$/i).waitFor();
    await row.getByRole('button', { name: `Probe history of ${name}` }).click();
    await admin.getByRole('dialog').getByText(/^up$/i).first().waitFor();

    // Users see it in the registry.
    const { items: listed } = await (await admin.request.get(`/api/v1/mcp-servers/?${new URLSearchParams({ search: name })}`)).json();
    assert.ok(listed.some((s) => s.name === name), 'the new server is listed to users');
    await admin.context().close();
  });
});
