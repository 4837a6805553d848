// Journeys (b) the marketplace and (c) a purchase, through the function
// binaries (make run-lambda, LAMBDA_DIR): the tests of
// ../marketplace.test.mjs run again unchanged. The purchase goes
// Purchase → the payments function opens the session (Stripe's API played
// by devstack's stand-in) → the local test checkout's Pay delivers the
// signed event through the gateway to the stripe-webhook function (Pay
// fails unless it answers 200) → the success page → the prompt shows
// Purchased, with its content. See through-lambdas.mjs for the checks that
// it really went through them.
import { servedByFunctions } from './through-lambdas.mjs';
import '../marketplace.test.mjs';

servedByFunctions(['auth', 'prompts', 'payments', 'stripe-webhook', 'users']);
