// Browser tests of the marketplace and payments: visitors see previews only,
// a user claims a free prompt and hands it to the chat, buys another through
// the local test checkout, and can cancel a checkout.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, signInAs, startStack } from './stack.mjs';

let stack;
before(async () => {
  // One free use per user, so buying is reachable after a single claim.
  stack = await startStack({ FREE_PROMPTS_PER_USER: '1' });
});
after(async () => {
  await stack?.stop();
});

const card = (page, id) => page.locator(`[data-testid="prompt-card"][data-prompt-id="${id}"]`);

// The whole sample catalogue: one page of the list (it has 24 prompts, a
// page up to 60).
async function catalogue(page) {
  const res = await page.request.get('/api/v1/prompts/?limit=60');
  assert.equal(res.status(), 200);
  const body = await res.json();
  assert.equal(body.next_cursor, null);
  return body.items;
}

describe('marketplace', () => {
  test('a visitor sees the demo banner and previews only', async () => {
    const page = await stack.newPage();
    await page.goto('/marketplace');
    await page.getByTestId('demo-banner').waitFor();
    const prompts = await catalogue(page);
    await page.getByTestId('prompt-count').getByText(`${prompts.length} prompts found`).waitFor();
    // A long list is rendered a few cards per idle moment: wait for the last one.
    await page.getByTestId('prompt-card').nth(prompts.length - 1).waitFor();
    assert.equal(await page.getByTestId('prompt-card').count(), prompts.length);
    assert.equal(await page.getByTestId('prompt-content').count(), 0);
    // The detail modal shows the preview and no content.
    const first = card(page, prompts[0].id);
    await first.getByRole('button', { name: 'View', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: prompts[0].title });
    await dialog.getByTestId('prompt-preview').waitFor();
    assert.equal(await dialog.getByTestId('prompt-content').count(), 0);
    await dialog.getByRole('button', { name: /Purchase Now - \$/ }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.context().close();
  });

  test('search, category and sort narrow and order the list', async () => {
    const page = await stack.newPage();
    await page.goto('/marketplace');
    const prompts = await catalogue(page);
    await page.getByTestId('prompt-count').getByText(`${prompts.length} prompts found`).waitFor();
    await page.getByLabel('Category').selectOption({ label: 'Writing' });
    const writing = prompts.filter((p) => p.category.id === 'writing').length;
    await page.getByTestId('prompt-count').getByText(`${writing} prompts found`).waitFor();
    await page.getByLabel('Category').selectOption({ label: 'All Categories' });
    await page.getByLabel('Sort').selectOption({ label: 'Price: Low to High' });
    await page.getByTestId('prompt-count').getByText(`${prompts.length} prompts found`).waitFor();
    const cheapest = [...prompts].sort((a, b) => a.price - b.price || 0)[0];
    await page.waitForFunction((price) => {
      const first = document.querySelector('[data-testid="prompt-card"]');
      return first && first.textContent.includes(`$${price.toFixed(2)}`);
    }, cheapest.price);
    await page.getByRole('searchbox').fill('zzzz-no-such-prompt');
    await page.getByText('No prompts found').waitFor();
    await page.getByText('Try adjusting your search criteria or browse all categories.').waitFor();
    await page.context().close();
  });

  test('a new user claims a free prompt, reads it in full and hands it to the chat', async () => {
    const page = await stack.newPage();
    await signInAs(page, newUser('claim'));
    await page.goto('/marketplace');
    const prompts = await catalogue(page);
    // A prompt with a menu template, so the open-menu flag is exercised.
    const menuPrompt = prompts.find((p) => p.id === 'meeting-agenda-builder') ?? prompts[0];
    await page.getByTestId('free-panel').getByText(/1\s*(of|\/)\s*1/).waitFor();
    const c = card(page, menuPrompt.id);
    await c.getByRole('button', { name: 'Use Free' }).click();
    await page.getByText('Prompt accessed successfully for free!').waitFor();
    await c.getByText('Used Free').first().waitFor();
    await c.getByRole('button', { name: 'View Full' }).click();
    const dialog = page.getByRole('dialog', { name: menuPrompt.title });
    const content = dialog.getByTestId('prompt-content');
    await content.waitFor();
    const shown = await content.innerText();
    assert.ok(shown.length > 400, 'the full content is shown');
    assert.ok(/\[start menu\]/i.test(shown), 'the menu template is part of the content');
    // The chat page takes (and removes) the hand-off as soon as it loads, so
    // record what is written rather than racing the page to read it back.
    await page.evaluate(() => {
      const setItem = Storage.prototype.setItem;
      window.__handoffWrites = {};
      Storage.prototype.setItem = function (key, value) {
        if (this === window.sessionStorage) window.__handoffWrites[key] = value;
        return setItem.call(this, key, value);
      };
    });
    await dialog.getByRole('button', { name: 'Use in Chat' }).click();
    await page.waitForURL((url) => url.pathname === '/llm-chat');
    const handoff = await page.evaluate(() => ({
      prefill: window.__handoffWrites['chat-prefill'] ?? null,
      openMenu: window.__handoffWrites['chat-open-menu'] ?? null,
      forceNewTab: window.__handoffWrites['chat-force-new-tab'] ?? null,
    }));
    const full = await (await page.request.get(`/api/v1/prompts/${menuPrompt.id}`, { headers: { Authorization: `Bearer ${await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage')).token)}` } })).json();
    assert.equal(handoff.prefill, full.content);
    assert.equal(handoff.openMenu, 'true');
    assert.equal(handoff.forceNewTab, 'true');
    await page.context().close();
  });
});

describe('payments', () => {
  test('buy a prompt on the local test checkout; it shows Purchased with its content', async () => {
    const page = await stack.newPage();
    await signInAs(page, newUser('buyer'));
    await page.goto('/marketplace');
    const prompts = await catalogue(page);
    const [free, paid] = [prompts[1], prompts[2]];
    // Spend the one free use first: the server sells only after that.
    await card(page, free.id).getByRole('button', { name: 'Use Free' }).click();
    await page.getByText('Prompt accessed successfully for free!').waitFor();
    await card(page, paid.id).getByRole('button', { name: 'Purchase', exact: true }).click();

    await page.waitForURL('**/dev/checkout/cs_local_*');
    await page.getByText('Local test checkout', { exact: true }).waitFor();
    await page.getByText('no money moves').waitFor();
    assert.equal((await page.getByTestId('checkout-amount').innerText()).trim(), `$${paid.price.toFixed(2)}`);
    await page.getByRole('button', { name: /^Pay / }).click();

    // The success toast lives 5 s: watch for it alongside the page, not after it.
    const toastShown = page.getByText('Payment successful! Prompt is now available in your dashboard.').waitFor();
    await page.waitForURL('**/payment/success?session_id=cs_local_*');
    await page.getByTestId('payment-prompt-title').getByText(paid.title).waitFor();
    assert.equal((await page.getByTestId('payment-amount').innerText()).trim(), `$${paid.price.toFixed(2)}`);
    await toastShown;

    await page.goto('/marketplace');
    const bought = card(page, paid.id);
    await bought.getByRole('button', { name: 'Purchased' }).waitFor();
    assert.equal(await bought.getByRole('button', { name: 'Purchased' }).isDisabled(), true);
    await bought.getByRole('button', { name: 'View Full' }).click();
    await page.getByRole('dialog', { name: paid.title }).getByTestId('prompt-content').waitFor();
    await page.keyboard.press('Escape');

    // The dashboard counts it and lists the purchase.
    await page.goto('/dashboard');
    await page.getByText('Purchased a prompt').waitFor();
    await page.context().close();
  });

  test('cancelling the checkout charges nothing', async () => {
    const page = await stack.newPage();
    await signInAs(page, newUser('canceller'));
    await page.goto('/marketplace');
    const prompts = await catalogue(page);
    await card(page, prompts[3].id).getByRole('button', { name: 'Use Free' }).click();
    await page.getByText('Prompt accessed successfully for free!').waitFor();
    await card(page, prompts[4].id).getByRole('button', { name: 'Purchase', exact: true }).click();
    await page.waitForURL('**/dev/checkout/cs_local_*');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL('**/payment/cancel');
    await page.getByText('Nothing was charged').waitFor();
    await page.goto('/marketplace');
    await card(page, prompts[4].id).getByRole('button', { name: 'Purchase', exact: true }).waitFor();
    await page.context().close();
  });

  test('the success page without a session id says so', async () => {
    const page = await stack.newPage();
    await signInAs(page, newUser('nosession'));
    await page.goto('/payment/success');
    await page.getByText('Payment Verification Failed').waitFor();
    await page.getByText('No session ID provided').waitFor();
    await page.context().close();
  });
});
