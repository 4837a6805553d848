// Browser journey of a creator selling a prompt, against the devserver: a
// user becomes a creator from the dashboard and sets up payouts (the local
// stand-in completes onboarding), lists a prompt and submits it; an admin
// approves it in the review queue; another user buys it on the local
// checkout; the creator's sales show the sale and the net; an edit makes
// version 2, which an admin approves and the buyer reads, with what changed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, signInAdmin, signInAs, startStack } from './stack.mjs';

const ADMIN = newUser('reviewer');

let stack;
before(async () => {
  // No free uses: the buyer pays.
  stack = await startStack({ ADMIN_EMAILS: ADMIN.email, FREE_PROMPTS_PER_USER: '0' });
});
after(async () => {
  await stack?.stop();
});

/** The admin approves the review of title in the admin area's queue. */
async function approve(admin, title) {
  await admin.goto('/admin/reviews');
  const item = admin.getByTestId('review-item').filter({ hasText: title });
  await item.waitFor();
  await item.getByRole('button', { name: 'Approve' }).click();
  await item.waitFor({ state: 'detached' });
}

describe('creators', () => {
  test('a user becomes a creator, lists a prompt, an admin approves it, another user buys it, an edit makes version 2', async () => {
    const creator = await stack.newPage();
    const maker = newUser('maker');
    await signInAs(creator, maker);
    const display = `Maker Studio ${Date.now().toString(36)}`;

    // From the dashboard to the creator studio.
    await creator.goto('/dashboard');
    await creator.getByRole('link', { name: 'Sell your prompts' }).click();
    await creator.waitForURL((url) => url.pathname === '/creator');
    await creator.getByRole('heading', { level: 1, name: 'Creator studio' }).waitFor();
    await creator.getByLabel('Display name').fill(display);
    await creator.getByLabel('Bio').fill('I write planning prompts.');
    await creator.getByLabel('Country').selectOption('US');
    await creator.getByRole('button', { name: 'Sell your prompts' }).click();
    await creator.getByRole('button', { name: 'Save profile' }).waitFor();

    // Payouts: the local stand-in completes onboarding and sends the creator back.
    assert.equal((await creator.getByTestId('payout-status').innerText()).trim(), 'Not set up');
    await creator.getByRole('button', { name: 'Set up payouts' }).click();
    await creator.waitForURL((url) => url.pathname === '/creator' && url.searchParams.get('payouts') === 'done');
    await creator.getByTestId('payout-status').getByText('Enabled').waitFor();

    // A prompt, saved as a draft, then submitted.
    const title = `Quarterly plan ${Date.now().toString(36)}`;
    await creator.getByRole('button', { name: 'New prompt' }).click();
    const form = creator.getByTestId('creator-prompt-form');
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Description').fill('Plans a quarter from your goals.');
    await form.getByLabel('Content').fill('Plan the next quarter for [team] around [goal]. Version one.');
    await form.getByLabel('Category').selectOption({ label: 'Business' });
    await form.getByLabel('Price').fill('5.00');
    await form.getByRole('button', { name: 'Save draft' }).click();
    const row = creator.getByTestId('creator-prompt').filter({ hasText: title });
    await row.getByTestId('prompt-state').getByText('Draft').waitFor();
    await row.getByRole('button', { name: 'Submit for review' }).click();
    await row.getByTestId('prompt-state').getByText('In review').waitFor();

    // The admin approves it.
    const admin = await stack.newPage();
    await signInAdmin(admin, ADMIN);
    await approve(admin, title);
    await creator.reload();
    await creator.getByTestId('creator-prompt').filter({ hasText: title }).getByTestId('prompt-state').getByText('Published').waitFor();

    // Another user finds it "by" the creator and buys it.
    const buyer = await stack.newPage();
    await signInAs(buyer, newUser('shopper'));
    await buyer.goto('/marketplace');
    const card = buyer.getByTestId('prompt-card').filter({ hasText: title });
    await card.getByTestId('creator-link').getByText(`by ${display}`).waitFor();
    await card.getByRole('button', { name: 'Purchase', exact: true }).click();
    await buyer.waitForURL('**/dev/checkout/cs_local_*');
    assert.equal((await buyer.getByTestId('checkout-amount').innerText()).trim(), '$5.00');
    await buyer.getByRole('button', { name: /^Pay / }).click();
    await buyer.waitForURL('**/payment/success?session_id=cs_local_*');
    await buyer.getByTestId('payment-prompt-title').getByText(title).waitFor();

    // The creator's sales: one sale of $5.00, $1.00 to the platform, $4.00 net.
    await stack.until('the sale reaches the creator', async () => {
      await creator.reload();
      return creator.getByTestId('sales-totals').isVisible();
    });
    const totals = creator.getByTestId('sales-totals');
    assert.match(await totals.innerText(), /Sales\s*1\b/);
    assert.match(await totals.innerText(), /Gross\s*\$5\.00/);
    assert.match(await totals.innerText(), /Fees\s*\$1\.00/);
    assert.match(await totals.innerText(), /Net\s*\$4\.00/);

    // An edit makes version 2, reviewed while version 1 stays on sale.
    await creator.getByTestId('creator-prompt').filter({ hasText: title }).getByRole('button', { name: 'Edit' }).click();
    const edit = creator.getByTestId('creator-prompt-form');
    await edit.getByLabel('Content').fill('Plan the next quarter for [team] around [goal]. Version two, with risks.');
    await edit.getByLabel('What changed').fill('Adds a risks section.');
    await edit.getByRole('button', { name: 'Submit for review' }).click();
    // Saved, then sent: wait for the next version to be in review, not just saved, before the admin looks.
    await creator.getByTestId('creator-prompt').filter({ hasText: title }).getByTestId('prompt-next-version').getByText('Next version: In review').waitFor();
    await approve(admin, title);

    // The buyer reads version 2 and what changed; version 1 stays readable.
    await buyer.goto('/marketplace?filter=purchased');
    const owned = buyer.getByTestId('prompt-card').filter({ hasText: title });
    await owned.getByRole('button', { name: /^View/ }).click();
    const dialog = buyer.getByRole('dialog');
    await dialog.getByTestId('prompt-content').getByText(/Version two, with risks\./).waitFor();
    const versions = dialog.getByTestId('prompt-versions');
    await versions.getByText('Adds a risks section.').waitFor();
    await versions.locator('[data-version="1"]').getByRole('button', { name: 'Read version 1' }).click();
    await versions.getByTestId('version-content').getByText(/Version one\./).waitFor();

    for (const p of [creator, admin, buyer]) await p.context().close();
  });

  test('the creator studio, with its prompt form open, and a creator page fit a 390 px phone', async () => {
    const page = await stack.newPage({ viewport: { width: 390, height: 800 } });
    const u = newUser('phone');
    const session = await signInAs(page, u);
    const auth = { Authorization: `Bearer ${session.access_token}` };
    const res = await page.request.put('/api/v1/creators/me', { headers: auth, data: { display_name: 'Phone Maker', bio: 'Small screens.', country: 'GB' } });
    assert.equal(res.status(), 200, await res.text());
    const fits = async (where) => {
      const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
      assert.ok(scroll <= width, `${where} is ${scroll} px wide on a ${width} px screen`);
    };
    await page.goto('/creator');
    await page.getByRole('button', { name: 'Save profile' }).waitFor();
    await page.getByRole('button', { name: 'New prompt' }).click();
    await page.getByTestId('creator-prompt-form').getByLabel('Content').fill('A [placeholder] long enough to wrap on a small screen. '.repeat(8));
    await fits('/creator with the prompt form');
    await page.goto(`/creators/${u.username}`);
    await page.getByRole('heading', { level: 1, name: 'Phone Maker' }).waitFor();
    await fits('the creator page');
    await page.context().close();
  });
});
