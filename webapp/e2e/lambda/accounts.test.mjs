// Journey (a), registering through the UI, through the function binaries
// (make run-lambda, LAMBDA_DIR): the tests of ../accounts.test.mjs run again
// unchanged (sign-up form → the confirmation mail, sent by the auth
// function through the SES stand-in into /dev/mail → its link confirms → a
// free prompt opens; password reset; logout ends the session). See
// through-lambdas.mjs for the checks that it really went through them.
import { servedByFunctions } from './through-lambdas.mjs';
import '../accounts.test.mjs';

servedByFunctions(['auth', 'users', 'prompts']);
