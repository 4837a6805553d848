// Shared by every file of e2e/lambda/ (make test-e2e-lambda): the journeys
// there run against `make run-lambda`, the product served by the real
// function binaries (LAMBDA_DIR, each function its own process behind the
// local API Gateway of shared/lambdalocal), not by make run's in-process
// handlers. Import this module FIRST in a file, then the journey(s), then
// call servedByFunctions([...]) last:
//   - loading it fails the file at once unless LAMBDA_DIR names the
//     binaries (stack.mjs passes the environment to the devserver, which
//     then serves through them), before the journey starts anything;
//   - servedByFunctions registers a final test, run after the journey's
//     tests and before its `after` hook stops the stack, that asserts
//     LAMBDA_DIR again and asks the stack's GET /dev/lambda (which only
//     make run-lambda serves) for a cold start of every function the
//     journey used.
import assert from 'node:assert/strict';
import dc from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

// The stack a journey file starts is private to it; stack.mjs waits for it
// with fetch(`${baseURL}/api/v1/auth/health`), which Node's fetch reports on
// this channel: the last origin seen there is the journey's stack.
let origin = null;
dc.subscribe('undici:request:create', ({ request }) => {
  if (request.method === 'GET' && request.path === '/api/v1/auth/health') origin = request.origin;
});

function assertLambdaDir() {
  const dir = process.env.LAMBDA_DIR;
  assert.ok(
    dir,
    'LAMBDA_DIR is not set: e2e/lambda/ runs the journeys through the function binaries ' +
      '(make test-e2e-lambda sets it; make test-e2e must not run this folder)',
  );
  assert.ok(existsSync(join(dir, 'auth')), `no function binaries in LAMBDA_DIR=${dir} (make lambdas-local builds them)`);
}

// At load, not in a before hook: a failing hook would not stop the
// journey's own before hook from starting a stack (on make run's handlers).
assertLambdaDir();

/** The stack's /dev/lambda: each function's cold starts and warm invocations. */
export async function lambdaStats(base = origin) {
  assert.ok(base, 'the journey started no stack');
  const res = await fetch(`${base}/dev/lambda`);
  assert.equal(res.status, 200, `GET /dev/lambda answers ${res.status}: is the devserver serving through the binaries?`);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  return res.json();
}

/**
 * Registers the journey's last test: /dev/lambda reports at least one cold
 * start of each of functions (the ones the journey's requests reached).
 */
export function servedByFunctions(functions) {
  test(`served by the function binaries: /dev/lambda reports cold starts of ${functions.join(', ')}`, async (t) => {
    assertLambdaDir();
    const stats = await lambdaStats();
    const byName = Object.fromEntries(stats.map((s) => [s.function, s]));
    for (const s of stats) {
      const cold = s.last_cold ? ` last cold: init ${s.last_cold.init_ms} ms, took ${s.last_cold.took_ms} ms` : '';
      t.diagnostic(`${s.function}: ${s.cold_starts} cold, ${s.warm_invocations} warm${cold}`);
    }
    for (const fn of functions) {
      assert.ok(byName[fn], `/dev/lambda lists no function ${fn}: ${JSON.stringify(stats)}`);
      assert.ok(byName[fn].cold_starts >= 1, `${fn} never started a process: ${JSON.stringify(byName[fn])}`);
    }
  });
}
