// Command mcpconformance runs the official MCP conformance suite's client
// scenarios against the product, as a user's MCP client: `run` starts a
// devserver and the suite, which starts `adapt <server-url>` for each
// scenario (adapter.go). make test-conformance; docs/mcp.md.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// apiVar names the product's base URL for the adapter.
const apiVar = "AIWORK_API"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpconformance run [flags] | adapt <server-url>")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "adapt":
		if len(os.Args) < 3 || os.Getenv(apiVar) == "" {
			fmt.Fprintf(os.Stderr, "usage: %s=<product URL> mcpconformance adapt <server-url>\n", apiVar)
			os.Exit(2)
		}
		api, server := os.Getenv(apiVar), os.Args[len(os.Args)-1]
		err = withOperatorClient(ctx, api, server, func() error { return runAdapter(ctx, api, server) })
	case "run":
		err = runSuite(ctx, os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpconformance:", err)
		os.Exit(1)
	}
}
