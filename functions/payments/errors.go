package main

import "errors"

// In AWS only real Stripe checkouts make sense: the local test checkout
// pages exist on the devserver alone.
var errStripeKeyRequired = errors.New("STRIPE_SECRET_KEY (or STRIPE_SECRET_KEY_ARN) is required in Lambda")
