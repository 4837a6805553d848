// The admin area through the function binaries (make
// run-lambda, LAMBDA_DIR): the journeys of ../admin.test.mjs run again
// unchanged — the guard, a prompt made, bought and refunded, an MCP server
// added and probed — served by the admin function's own process.
import { servedByFunctions } from './through-lambdas.mjs';
import '../admin.test.mjs';

servedByFunctions(['auth', 'admin', 'prompts', 'payments', 'mcp']);
