// Conversations kept with the account, through the function
// binaries (make run-lambda, LAMBDA_DIR): the tests of ../chat-history.test.mjs
// run again unchanged (a reload mid-reply re-attached through the chat
// function's streaming integration, another browser of the same user,
// Stop, History's search, Reopen and Delete, logout). See
// through-lambdas.mjs for the checks that it really went through them.
import { servedByFunctions } from './through-lambdas.mjs';
import '../chat-history.test.mjs';

servedByFunctions(['auth', 'chat', 'mcp']);
