// Journey (d), chat, through the function binaries (make run-lambda,
// LAMBDA_DIR): the tests of ../chat.test.mjs run again unchanged (connect,
// a reply streamed by the chat function through the gateway's streaming
// integration with partial text seen before it completes, tabs kept across
// a reload, a menu template from the marketplace). chat-partial.test.mjs
// checks the partial text against the stream's end on the wire. See
// through-lambdas.mjs for the checks that it really went through them.
import { servedByFunctions } from './through-lambdas.mjs';
import '../chat.test.mjs';

servedByFunctions(['auth', 'chat', 'mcp', 'prompts']);
