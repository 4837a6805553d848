// The local reference server (@modelcontextprotocol/server-everything,
// `local-everything`) as the chat's browser tests connect it: a confirmed
// user, the server connected through the API once the prober has seen it up,
// and the tools its connection offers.
import assert from 'node:assert/strict';
import { newUser, signInAs } from './stack.mjs';

export const LOCAL_ID = 'local-everything';
export const LOCAL_NAME = 'Everything (local reference server)';

/** The reference server's catalogue entry once the prober has seen it up. */
export async function localServer(stack, page) {
  return stack.until(`the prober to see ${LOCAL_ID} up`, async () => {
    const res = await page.request.get(`/api/v1/mcp-servers/${LOCAL_ID}`);
    if (res.status() !== 200) return null;
    const s = await res.json();
    return s.health?.status === 'up' && Array.isArray(s.tools) && s.tools.length > 0 ? s : null;
  });
}

/** Registers a confirmed user; returns the bearer header for API reads. */
export async function signIn(page, tag) {
  const session = await signInAs(page, newUser(tag));
  return { Authorization: `Bearer ${session.access_token}` };
}

/** Connects the reference server through the API, as chat-tools.test.mjs's registry journey does on the page. */
export async function connectByApi(stack, page, auth) {
  const local = await localServer(stack, page);
  const res = await page.request.post('/api/v1/mcp-connections/', {
    headers: auth,
    data: { server_id: LOCAL_ID, server_name: LOCAL_NAME, endpoint_url: local.endpoint_url, model_type: local.model_type },
  });
  assert.equal(res.status(), 200, await res.text());
}

/** GET /api/v1/mcp-connections/tools. */
export async function toolsOf(page, auth) {
  const res = await page.request.get('/api/v1/mcp-connections/tools', { headers: auth });
  assert.equal(res.status(), 200, await res.text());
  return res.json();
}
