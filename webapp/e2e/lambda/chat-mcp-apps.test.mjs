// MCP Apps in chat through the function binaries (make run-lambda,
// LAMBDA_DIR): the tests of ../chat-mcp-apps.test.mjs run again unchanged.
// The view's HTML is read, and its tool calls run, by invocations of the
// chat function (POST /api/v1/chat/apps/view and /apps/call); the connects
// go through the mcp function.
import { servedByFunctions } from './through-lambdas.mjs';
import '../chat-mcp-apps.test.mjs';

servedByFunctions(['auth', 'chat', 'mcp', 'mcp-jobs']);
