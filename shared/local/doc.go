// Package local groups what runs only on a developer's machine and in the
// tests, never in AWS: the devserver's assembly of the product (devstack),
// the Lambda Runtime API and API Gateway emulator (lambdalocal), the
// DynamoDB engine (localdynamo), the MCP reference server (localmcp), the
// helper processes they start (localproc), and the stand-ins of Stripe's
// hosted checkout (localcheckout), Stripe's API (stripestandin) and Amazon
// SES (outbox). No Lambda function links them (an infra test checks).
package local
