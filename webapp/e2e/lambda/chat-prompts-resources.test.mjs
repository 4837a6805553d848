// A server's prompts in the composer and its resources attached to a
// message, through the function binaries (make run-lambda, LAMBDA_DIR): the
// tests of ../chat-prompts-resources.test.mjs run again unchanged, the
// prompts, completions and resource lists answered by the mcp function, the
// message with its attachments by the chat function.
import { servedByFunctions } from './through-lambdas.mjs';
import '../chat-prompts-resources.test.mjs';

servedByFunctions(['auth', 'chat', 'mcp', 'mcp-jobs']);
