// The agent marketplace's journey of ../agents.test.mjs through the
// function binaries (make run-lambda, LAMBDA_DIR): the agents function
// serves the marketplace and the agent's page, the chat function runs the
// agent's turn with its instructions and allowed tool.
import { servedByFunctions } from './through-lambdas.mjs';
import '../agents.test.mjs';

servedByFunctions(['auth', 'creators', 'admin', 'agents', 'mcp', 'chat']);
