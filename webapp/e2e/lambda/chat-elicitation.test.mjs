// A server's questions in chat and a long call's progress, through the
// function binaries (make run-lambda, LAMBDA_DIR): the tests of
// ../chat-elicitation.test.mjs run again unchanged. A question asked inside
// an open tool call is held by the chat function's streaming invocation
// while its answer, posted as another invocation, reaches it through the
// table; the connect goes through the mcp function.
import { servedByFunctions } from './through-lambdas.mjs';
import '../chat-elicitation.test.mjs';

servedByFunctions(['auth', 'chat', 'mcp', 'mcp-jobs']);
