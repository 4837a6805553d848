// Journey (a), registering through the UI, through the function binaries
// (make run-lambda, LAMBDA_DIR): the tests of ../auth.test.mjs run again
// unchanged (sign-up form → dashboard → logout → wrong password → sign-in,
// duplicate email, route guard, admin entry), every /api/ request answered
// by the auth and users functions behind the local API Gateway. See
// through-lambdas.mjs for the checks that it really went through them.
import { servedByFunctions } from './through-lambdas.mjs';
import '../auth.test.mjs';

servedByFunctions(['auth', 'users']);
