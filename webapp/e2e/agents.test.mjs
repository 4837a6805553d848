// Browser journey of the agent marketplace against the devserver: a
// creator's free agent (the reference server with one allowed tool, a
// starter) is made and approved through the API; another user finds it on
// /agents (its card: creator, model, the server and its auth kind, Free),
// opens its page (tools, starter, instructions, Export), starts a chat: the
// new tab is named by the agent, on its model, lists the server with
// Connect; connecting it there turns it Connected, and the starter sends a
// message the demo model answers by calling the allowed tool; axe finds
// nothing serious on the three. The creator
// studio and the admin review are creator-agents.test.mjs's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { completed, noHorizontalScroll, noSeriousViolations, send } from './chat-page.mjs';
import { LOCAL_ID, localServer } from './local-everything.mjs';
import { newUser, signInAdmin, signInAs, startStack } from './stack.mjs';

const ADMIN = newUser('agentsadmin');

let stack;
before(async () => {
  stack = await startStack({ ADMIN_EMAILS: ADMIN.email });
});
after(async () => {
  await stack?.stop();
});

/** The bearer header of the session a page stored. */
async function bearerOf(page) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}').token);
  assert.ok(token, 'a stored session');
  return { Authorization: `Bearer ${token}` };
}

describe('agent marketplace', () => {
  test('browse, open an agent, start a chat bound to it, connect its server from the tab, run its starter', async () => {
    // A creator's free agent, made and submitted through the API; an admin approves it.
    const creator = await stack.newPage();
    const session = await signInAs(creator, newUser('agentseller'));
    const auth = { Authorization: `Bearer ${session.access_token}` };
    let res = await creator.request.put('/api/v1/creators/me', { headers: auth, data: { display_name: 'Agent Seller', bio: '', country: 'US' } });
    assert.equal(res.status(), 200, await res.text());
    const local = await localServer(stack, creator);
    assert.ok(local.tools.some((t) => t.name === 'get-sum'), 'the reference server has get-sum');
    const categories = await (await creator.request.get('/api/v1/prompts/categories')).json();
    const name = `Adder ${Date.now().toString(36)}`;
    res = await creator.request.post('/api/v1/creators/me/agents', {
      headers: auth,
      data: {
        name,
        description: 'Adds numbers with the reference server.',
        instructions: 'You add numbers with the tools you have.',
        provider: 'openai',
        model: 'gpt-4o-mini',
        servers: [{ server_id: LOCAL_ID, tools: ['get-sum'] }],
        starters: ['use get-sum with 2 and 3'],
        category_id: String(categories[0].id),
        price: 0,
      },
    });
    assert.equal(res.status(), 201, await res.text());
    const id = (await res.json()).id;
    res = await creator.request.post(`/api/v1/creators/me/agents/${id}/submit`, { headers: auth, data: {} });
    assert.equal(res.status(), 200, await res.text());
    const admin = await stack.newPage();
    await signInAdmin(admin, ADMIN);
    res = await admin.request.post(`/api/v1/admin/reviews/${id}`, { headers: await bearerOf(admin), data: { decision: 'approve' } });
    assert.equal(res.status(), 200, await res.text());

    // Another user browses the marketplace.
    // bypassCSP: axe is injected as an inline script, which the app's CSP (rightly) refuses.
    const page = await stack.newPage({ bypassCSP: true });
    await signInAs(page, newUser('agentuser'));
    await page.goto('/agents');
    await page.getByRole('heading', { level: 1, name: 'Agent Marketplace' }).waitFor();
    // The search's answer, waited for: axe must not measure the list while it is read again (dimmed).
    const searched = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/agents/' && new URL(r.url()).searchParams.get('search') === name);
    await page.getByLabel('Search agents').fill(name);
    await searched;
    const card = page.locator(`[data-testid="agent-card"][data-agent-id="${id}"]`);
    await card.waitFor();
    const text = await card.innerText();
    for (const part of ['by Agent Seller', 'gpt-4o-mini', 'No key', 'Free']) assert.ok(text.includes(part), `${part} in ${text}`);
    await page.waitForFunction(() => [...document.querySelectorAll('.listing-grid')].every((g) => g.getAttribute('aria-busy') !== 'true' && getComputedStyle(g).opacity === '1'));
    await noSeriousViolations(page, 'on /agents');

    // Its page: servers and tools, starter, instructions, Export.
    await card.getByRole('link', { name }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    assert.match(await page.getByTestId('agent-page-servers').innerText(), /Tools: get-sum/);
    assert.match(await page.getByTestId('agent-starters').innerText(), /use get-sum with 2 and 3/);
    assert.match(await page.getByTestId('agent-instructions').innerText(), /You add numbers/);
    await noSeriousViolations(page, "on an agent's page");
    const exported = await page.request.get(await page.getByRole('link', { name: 'Export' }).getAttribute('href'));
    assert.equal(exported.status(), 200);
    assert.equal((await exported.json()).format, 'aiwork.agent');

    // Start chat: a new tab named by the agent, on its model; its server to connect.
    await page.getByRole('button', { name: 'Start chat' }).click();
    await page.getByRole('tab', { name, selected: true }).waitFor();
    assert.equal(await page.getByLabel('Model').inputValue(), 'gpt-4o-mini');
    assert.ok(await page.getByLabel('Model').isDisabled());
    const row = page.getByTestId('agent-servers').locator(`[data-server-id="${LOCAL_ID}"]`);
    await noSeriousViolations(page, "in an agent's chat tab");
    await row.getByRole('button', { name: 'Connect' }).click();
    await row.getByText('Connected').waitFor();

    // The starter sends itself; the demo model calls the allowed tool.
    await page.getByTestId('agent-starters').getByRole('button', { name: 'use get-sum with 2 and 3' }).click();
    const reply = await completed(page);
    await reply.locator('[data-testid="tool-call"][data-tool="get-sum"]').waitFor();

    // A tool outside the allow-list, asked for by its full name: the server refuses it and tells the model why.
    await send(stack, page, `use ${LOCAL_ID}__echo`);
    const refused = await completed(page);
    await refused.getByText('This agent may not use the tool echo.').first().waitFor();

    // At phone width: the marketplace, the agent's page and the agent's tab fit.
    await page.setViewportSize({ width: 360, height: 740 });
    await noHorizontalScroll(page, 'in the agent tab at phone width');
    await page.goto(`/agents/${id}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await noHorizontalScroll(page, "on the agent's page at phone width");
    await page.goto('/agents');
    await card.waitFor();
    await noHorizontalScroll(page, 'on /agents at phone width');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/llm-chat');
    // After a reload the tab is still the agent's: its servers, Connected.
    await page.getByRole('tab', { name }).click();
    await row.getByText('Connected').waitFor();

    // History keeps it marked with the agent once its tab is closed.
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('button', { name: `Close ${name}` }).click();
    await page.getByRole('button', { name: 'History' }).click();
    const item = page.getByRole('dialog', { name: 'History' }).getByTestId('history-item').filter({ hasText: name });
    await item.getByTestId('history-agent').getByText(`Agent: ${name}`).waitFor();

    for (const p of [creator, admin, page]) await p.context().close();
  });

  test('buy a paid agent on the local checkout, then start a chat with it', async () => {
    // A creator with payouts (the local stand-in enables them) sells an agent for $4.00.
    const creator = await stack.newPage();
    const session = await signInAs(creator, newUser('paidseller'));
    const auth = { Authorization: `Bearer ${session.access_token}` };
    let res = await creator.request.put('/api/v1/creators/me', { headers: auth, data: { display_name: 'Paid Seller', bio: '', country: 'US' } });
    assert.equal(res.status(), 200, await res.text());
    res = await creator.request.post('/api/v1/creators/me/onboarding', { headers: auth, data: {} });
    assert.equal(res.status(), 200, await res.text());
    const categories = await (await creator.request.get('/api/v1/prompts/categories')).json();
    const name = `Paid planner ${Date.now().toString(36)}`;
    res = await creator.request.post('/api/v1/creators/me/agents', {
      headers: auth,
      data: {
        name, description: 'Plans with care.', instructions: 'PAID-SECRET: plan carefully.', provider: 'openai', model: 'gpt-4o-mini',
        servers: [], starters: ['Plan my week'], category_id: String(categories[0].id), price: 4,
      },
    });
    assert.equal(res.status(), 201, await res.text());
    const id = (await res.json()).id;
    res = await creator.request.post(`/api/v1/creators/me/agents/${id}/submit`, { headers: auth, data: {} });
    assert.equal(res.status(), 200, await res.text());
    const admin = await stack.newPage();
    await signInAdmin(admin, ADMIN);
    res = await admin.request.post(`/api/v1/admin/reviews/${id}`, { headers: await bearerOf(admin), data: { decision: 'approve' } });
    assert.equal(res.status(), 200, await res.text());

    // A buyer: the page offers Buy (no Start chat) and never shows the instructions.
    const buyer = await stack.newPage();
    await signInAs(buyer, newUser('agentbuyer'));
    await buyer.goto(`/agents/${id}`);
    await buyer.getByRole('heading', { level: 1, name }).waitFor();
    assert.ok(!(await buyer.content()).includes('PAID-SECRET'), "a paid agent's instructions reached the page");
    await buyer.getByRole('button', { name: 'Buy', exact: true }).click();
    await buyer.waitForURL('**/dev/checkout/cs_local_*');
    assert.equal((await buyer.getByTestId('checkout-amount').innerText()).trim(), '$4.00');
    await buyer.getByRole('button', { name: /^Pay / }).click();
    await buyer.waitForURL('**/payment/success?session_id=cs_local_*');
    await buyer.getByTestId('payment-prompt-title').getByText(name).waitFor();

    // Bought: Start chat opens a tab bound to it.
    await buyer.getByRole('link', { name: 'Start chat' }).click();
    await buyer.getByRole('tab', { name, selected: true }).waitFor();
    await buyer.getByTestId('agent-starters').getByRole('button', { name: 'Plan my week' }).click();
    const reply = await completed(buyer);
    assert.ok(!(await reply.innerText()).includes('PAID-SECRET'), "the instructions reached the reply's frames");

    for (const p of [creator, admin, buyer]) await p.context().close();
  });
});
