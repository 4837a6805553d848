// Package testbed groups what local runs and tests start beside the
// product, each importing nothing of it: the DynamoDB engine (localdynamo),
// the helper processes (localproc) and a TCP proxy that breaks connections
// on cue (faultproxy). Any package's tests may use them (store/storetest
// gives each test a fresh table on localdynamo), and so may shared/local,
// which assembles the product on a developer's machine. Like shared/local,
// no Lambda function links them (an infra test checks).
package testbed
