// Journey (f), MCP tools in chat, through the function binaries (make
// run-lambda, LAMBDA_DIR): the tests of ../chat-tools.test.mjs run again
// unchanged (connect the local reference server on /registry through the
// mcp function; "use get-sum with 2 and 3" through the chat function's tool
// loop, its tool block and the demo answer after it; a tool that asks:
// Deny, Approve, Always allow and Revoke; a reload while the card waits; a
// 390 px phone). See through-lambdas.mjs for the checks that it really went
// through them.
import { servedByFunctions } from './through-lambdas.mjs';
import '../chat-tools.test.mjs';

servedByFunctions(['auth', 'chat', 'mcp', 'mcp-jobs']);
