// Browser journey of a creator's agent through the studio and the admin
// area, against the devserver: a creator makes an agent (instructions, a
// model, the reference server with one allowed tool, starters), saves and
// submits it; an admin finds it under Reviews → Agents with its
// instructions, server and tools, and approves it; the admin suspends it in
// the Agents section and the audit log shows it; the creator imports a
// LobeChat agent file (the fields not taken are named) and exports the
// agent file; the form fits a phone and passes axe. The agent marketplace
// and the chat are agents.test.mjs's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { LOCAL_ID, localServer } from './local-everything.mjs';
import { newUser, signInAdmin, signInAs, startStack } from './stack.mjs';

const ADMIN = newUser('agentadmin');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let stack;
before(async () => {
  stack = await startStack({ ADMIN_EMAILS: ADMIN.email });
});
after(async () => {
  await stack?.stop();
});

describe('creator agents', () => {
  test('make an agent with an allowed tool, review it, suspend it (audited), import a LobeChat file, export the agent file', async () => {
    const creator = await stack.newPage();
    const session = await signInAs(creator, newUser('agentmaker'));
    const auth = { Authorization: `Bearer ${session.access_token}` };
    const res = await creator.request.put('/api/v1/creators/me', { headers: auth, data: { display_name: 'Agent Maker', bio: '', country: 'US' } });
    assert.equal(res.status(), 200, await res.text());
    const local = await localServer(stack, creator);
    const tool = local.tools[0].name;

    const name = `Helper ${Date.now().toString(36)}`;
    await creator.goto('/creator');
    await creator.getByRole('heading', { level: 2, name: 'Your agents' }).waitFor();
    await creator.getByRole('button', { name: 'New agent' }).click();
    const form = creator.getByTestId('creator-agent-form');
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Description').fill('Helps with the reference server.');
    await form.getByLabel('Instructions').fill('You help with [topic]. Use the tools when asked.');
    await form.getByTestId('prompt-preview').getByText(/You help with/).waitFor();
    await form.getByLabel('Provider').selectOption({ label: 'Anthropic Claude' });
    await form.getByLabel('Model').selectOption('claude-3-opus');
    await form.getByLabel('Search MCP servers').fill('reference');
    await form.getByRole('button', { name: `Add ${local.name}` }).click();
    const group = form.getByRole('group', { name: local.name });
    // The box is drawn by its label, which takes the click (as a user's).
    await group.locator('label').filter({ hasText: new RegExp(`^${tool}\\b`) }).click();
    assert.ok(await group.getByRole('checkbox', { name: new RegExp(`^${tool}\\b`) }).isChecked());
    await form.getByLabel('Starter prompts').fill('What can you do?\nAdd 2 and 3');
    await form.getByLabel('Category').selectOption({ index: 1 });
    await form.getByRole('button', { name: 'Save draft' }).click();
    const row = creator.getByTestId('creator-agent').filter({ hasText: name });
    await row.getByTestId('agent-state').getByText('Draft').waitFor();
    await row.getByRole('button', { name: 'Submit for review' }).click();
    await row.getByTestId('agent-state').getByText('In review').waitFor();
    const id = await row.getAttribute('data-agent-id');
    assert.match(id, /^a-[0-9a-f]{12}$/);

    // The admin reviews it among the agents and approves it.
    const admin = await stack.newPage();
    await signInAdmin(admin, ADMIN);
    await admin.goto('/admin/reviews');
    await admin.getByRole('radiogroup', { name: 'Review kind' }).getByText('Agents').click();
    const item = admin.getByTestId('review-item').filter({ hasText: name });
    await item.waitFor();
    await item.getByRole('region', { name: `Instructions of ${name}` }).getByText(/You help with \[topic\]/).waitFor();
    assert.match(await item.getByTestId('review-facts').innerText(), /Anthropic Claude claude-3-opus/);
    assert.match(await item.getByTestId('review-servers').innerText(), new RegExp(`${tool}`));
    assert.match(await item.getByTestId('review-starters').innerText(), /Add 2 and 3/);
    await item.getByRole('button', { name: 'Approve' }).click();
    await item.waitFor({ state: 'detached' });
    await creator.reload();
    await creator.getByTestId('creator-agent').filter({ hasText: name }).getByTestId('agent-state').getByText('Published').waitFor();

    // Suspended from the Agents section, after asking; the audit log has it.
    await admin.goto('/admin/agents');
    const adminRow = admin.locator(`[data-testid="agent-row"][data-agent-id="${id}"]`);
    await adminRow.getByRole('button', { name: `Suspend: ${name}` }).click();
    const dialog = admin.getByRole('dialog', { name: `Suspend “${name}”?` });
    await dialog.getByRole('button', { name: 'Suspend' }).click();
    await dialog.waitFor({ state: 'detached' });
    await adminRow.getByRole('button', { name: `Unsuspend: ${name}` }).waitFor();
    await admin.goto('/admin/audit');
    await admin.getByTestId('audit-row').filter({ hasText: 'agent.suspend' }).filter({ hasText: id }).waitFor();
    await creator.reload();
    await creator.getByTestId('creator-agent').filter({ hasText: name }).getByTestId('agent-state').getByText(/Suspended by an admin/).waitFor();

    // Import a LobeChat agent file.
    await creator.getByRole('button', { name: 'Import agent' }).click();
    const lobe = {
      identifier: 'e2e-lobe',
      author: 'someone',
      meta: { title: `Lobe ${name}`, description: 'From LobeChat.', avatar: '🤖', tags: ['x'] },
      config: { systemRole: 'You are imported.', openingQuestions: ['Hello?'], plugins: ['web'] },
    };
    await creator.getByLabel('Agent file').setInputFiles({ name: 'lobe.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(lobe)) });
    const result = creator.getByTestId('agent-import-result');
    await result.waitFor();
    const ignored = await result.getByTestId('agent-import-ignored').innerText();
    for (const field of ['meta.avatar', 'config.plugins', 'identifier']) assert.ok(ignored.includes(field), `${field} in ${ignored}`);
    await creator.getByTestId('creator-agent').filter({ hasText: `Lobe ${name}` }).getByTestId('agent-state').getByText('Draft').waitFor();
    // Not JSON: refused before sending.
    await creator.getByLabel('Agent file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{ nope') });
    await creator.getByTestId('agent-import-error').getByText('The file is not JSON.').waitFor();

    // Export the agent file.
    const [download] = await Promise.all([
      creator.waitForEvent('download'),
      creator.getByTestId('creator-agent').filter({ hasText: name }).filter({ hasNotText: 'Lobe' }).getByRole('button', { name: `Export ${name}` }).click(),
    ]);
    const file = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.equal(file.format, 'aiwork.agent');
    assert.equal(file.name, name);
    assert.deepEqual(file.servers, [{ server_id: LOCAL_ID, tools: [tool] }]);

    for (const p of [creator, admin]) await p.context().close();
  });
});

describe('creator agents on a phone', () => {
  test('the studio with the agent form open fits a 390 px phone and has no serious axe violation', async () => {
    const page = await stack.newPage({ viewport: { width: 390, height: 800 }, reducedMotion: 'reduce', bypassCSP: true });
    const session = await signInAs(page, newUser('agentphone'));
    const auth = { Authorization: `Bearer ${session.access_token}` };
    const res = await page.request.put('/api/v1/creators/me', { headers: auth, data: { display_name: 'Phone Maker', bio: '', country: 'GB' } });
    assert.equal(res.status(), 200, await res.text());
    const local = await localServer(stack, page);
    await page.goto('/creator');
    await page.getByRole('button', { name: 'New agent' }).click();
    const form = page.getByTestId('creator-agent-form');
    await form.getByLabel('Instructions').fill('A [placeholder] long enough to wrap on a small screen. '.repeat(8));
    await form.getByRole('button', { name: `Add ${local.name}` }).click();
    await form.getByRole('group', { name: local.name }).getByRole('checkbox').first().waitFor();
    // Save with nothing named: the errors are on screen for axe too.
    await form.getByRole('button', { name: 'Save draft' }).click();
    await form.getByText('Name is required.').waitFor();
    const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    assert.ok(scroll <= width, `/creator with the agent form is ${scroll} px wide on a ${width} px screen`);
    await page.addScriptTag({ content: AXE_SOURCE });
    const serious = await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(serious, []);
    await page.context().close();
  });
});
