// A sign-in a tool asks for in the middle of a reply, through the function
// binaries (make run-lambda, LAMBDA_DIR): the test of ../chat-signin.test.mjs
// runs again unchanged. The paused reply is in the table; the sign-in's
// start and callback go through the mcp function, and the resumed reply
// through another invocation of the chat function.
import { servedByFunctions } from './through-lambdas.mjs';
import '../chat-signin.test.mjs';

servedByFunctions(['auth', 'chat', 'mcp', 'mcp-jobs']);
