// Package local groups what runs only on a developer's machine and in the
// tests, never in AWS: the devserver's assembly of the product (devstack),
// the Lambda Runtime API and API Gateway emulator (lambdalocal), the MCP
// reference server (localmcp), and the stand-ins of Stripe's hosted
// checkout (localcheckout), Stripe's API (stripestandin) and Amazon SES
// (outbox). The engines they start that import nothing of the product (the
// DynamoDB engine, the helper processes, the fault proxy) are in
// shared/testbed, where the store's tests reach them too. No Lambda
// function links either (an infra test checks).
package local
