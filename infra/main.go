// Command infra is the CDK app that deploys the product (filled in by the
// infrastructure work; see README "Deploying").
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "infra: the CDK stack is not written yet")
	os.Exit(1)
}
