// Journey (e), connecting an MCP server from the registry, through the
// function binaries (make run-lambda, LAMBDA_DIR): the tests of
// ../registry.test.mjs run again unchanged (the mcp-jobs function, invoked
// on the prober's timer as EventBridge would, lists the local reference
// server's tools; the mcp function connects to it, the dashboard counts
// it, Disconnect). See through-lambdas.mjs for the checks that it really
// went through them.
import { servedByFunctions } from './through-lambdas.mjs';
import '../registry.test.mjs';

servedByFunctions(['auth', 'mcp', 'mcp-jobs', 'users']);
