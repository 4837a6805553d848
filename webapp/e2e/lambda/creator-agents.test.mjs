// The creator's agent journey of ../creator-agents.test.mjs through the
// function binaries (make run-lambda, LAMBDA_DIR): the creators function
// saves, submits, imports and the agents function exports, the admin
// function reviews and suspends, each in its own process.
import { servedByFunctions } from './through-lambdas.mjs';
import '../creator-agents.test.mjs';

servedByFunctions(['auth', 'creators', 'admin', 'agents', 'mcp']);
