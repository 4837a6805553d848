// The local reference server (@modelcontextprotocol/server-everything,
// `local-everything`) as the chat's browser tests connect it: a confirmed
// user, the server connected through the API once the prober has seen it up,
// and the tools its connection offers.
import assert from 'node:assert/strict';
import { newUser, signInAs } from './stack.mjs';

export const LOCAL_ID = 'local-everything';
export const LOCAL_NAME = 'Everything (local reference server)';

/** A local server's catalogue entry (the reference server's by default) once the prober has seen it up. */
export async function localServer(stack, page, id = LOCAL_ID) {
  return stack.until(`the prober to see ${id} up`, async () => {
    const res = await page.request.get(`/api/v1/mcp-servers/${id}`);
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

/** Connects a local server (the reference server by default) through the API, as chat-tools.test.mjs's registry journey does on the page; answers the connection. */
export async function connectByApi(stack, page, auth, id = LOCAL_ID) {
  const local = await localServer(stack, page, id);
  const res = await page.request.post('/api/v1/mcp-connections/', {
    headers: auth,
    data: { server_id: id, server_name: local.title, endpoint_url: local.endpoint_url, model_type: local.model_type },
  });
  assert.equal(res.status(), 200, await res.text());
  return res.json();
}

/** GET /api/v1/mcp-connections/tools. */
export async function toolsOf(page, auth) {
  const res = await page.request.get('/api/v1/mcp-connections/tools', { headers: auth });
  assert.equal(res.status(), 200, await res.text());
  return res.json();
}
