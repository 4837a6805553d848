// The creators' journey of ../creators.test.mjs through the function
// binaries (make run-lambda, LAMBDA_DIR): become a creator and set up
// payouts (the creators function through the Stripe API stand-in), list,
// review, buy and edit, each route group served by its own process.
import { servedByFunctions } from './through-lambdas.mjs';
import '../creators.test.mjs';

servedByFunctions(['auth', 'creators', 'admin', 'prompts', 'payments', 'stripe-webhook']);
