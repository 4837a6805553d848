// Command bench measures the budgets of docs/benchmarks.md and prints one table:
// each figure next to a reference measured in the same run, their ratio, the
// budget and OK or OVER. It is a benchmark tool run by `make bench` from the
// repository root, not a Lambda function, and it exits 0 when it could
// measure: it reports, it does not test (with -strict, BENCH_STRICT=1 in make,
// a row over budget exits 1, for those who want a gate).
//
// Parts, each kept well under a minute: bootstrap and initial JS sizes, the
// devserver's GET /api/v1/prompts/ against the raw DynamoDB Query, the chat
// relay against its upstream reached directly (wall time and CPU), a tool
// round in chat against the same MCP call made directly, an MCP connect
// against the same handshake made directly, each Lambda's init against a
// hello-world aws-lambda-go binary, the home page's LCP in headless
// Chromium against a static one-heading page, a chat of 1,000 messages
// opened and streamed into against one of 10, Lighthouse's four scores
// (mobile) of the home, marketplace and registry pages against fixed minimums,
// the DynamoDB capacity each user action consumes, the listings at 100 items
// against thousands, and the monthly AWS bill priced from those units
// (docs/cost.md).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"aiwork/shared/gcpace"
	"aiwork/shared/testbed/localdynamo"
)

func main() {
	root := flag.String("root", ".", "repository root (dist/, webapp/dist, .bin/devserver)")
	devserver := flag.String("devserver", ".bin/devserver", "devserver binary, relative to root unless absolute")
	skip := flag.String("skip", "", "comma-separated parts to skip: sizes,api,relay,tools,elicitation,connect,init,lcp,mcpapp,chatlength,lighthouse,capacity,scale,cost")
	scaleMax := flag.Bool("scale-max", false, "the scale part's largest catalogue at 100,000 prompts (minutes of seeding on a small machine)")
	strict := flag.Bool("strict", false, "exit 1 when a row is OVER (make bench BENCH_STRICT=1)")
	peers := flag.Bool("peers", false, "only the relay measurement through peer gateways (make bench-peers)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the parts that run in this process (go tool pprof)")
	flag.Parse()
	// The relay, tools and connect parts run our handlers in this process,
	// standing for the devserver: the same collector pace as it.
	gcpace.Apply()
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))

	abs, err := filepath.Abs(*root)
	if err != nil {
		fail(err)
	}
	b := &bench{root: abs, devserver: *devserver, skip: parseSkip(*skip), scaleMax: *scaleMax}
	if !filepath.IsAbs(b.devserver) {
		b.devserver = filepath.Join(abs, b.devserver)
	}
	// Each part reads this root's files; dynalite is found from here too.
	if err := os.Chdir(abs); err != nil {
		fail(err)
	}
	ctx := context.Background()
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fail(err)
		}
		defer stop()
	}
	if *peers {
		db, err := localdynamo.Start(ctx, localdynamo.Options{})
		if err != nil {
			fail(err)
		}
		b.dynamo = db.Endpoint
		b.run(ctx, "peers", 5*time.Minute, b.peers)
		db.Stop()
		b.print(os.Stdout)
		return
	}
	b.run(ctx, "sizes", partTimeout, b.sizes)
	if b.wantsDynalite() {
		db, err := localdynamo.Start(ctx, localdynamo.Options{})
		if err != nil {
			b.note("dynalite: %v (api, relay, tools, connect, init, lcp and lighthouse skipped)", err)
		} else {
			defer db.Stop()
			b.dynamo, b.engine = db.Endpoint, db
			b.run(ctx, "api", partTimeout, b.devAPI)
			// 300 streams alone, 800 at 8 at once, 300 kept: about 2.5 minutes.
			b.run(ctx, "relay", 6*time.Minute, b.relay)
			b.run(ctx, "tools", partTimeout, b.toolRound)
			b.run(ctx, "elicitation", partTimeout, b.elicitationRound)
			b.run(ctx, "connect", partTimeout, b.mcpConnect)
			// Most of init is a first go build of amd64 copies; later runs hit the cache.
			b.run(ctx, "init", 5*time.Minute, b.lambdaInit)
			b.run(ctx, "lcp", partTimeout, b.lcp)
			b.run(ctx, "mcpapp", partTimeout, b.mcpApp)
			// Seeding 1,000 messages, 14 opens and 10 streams of 3 s.
			b.run(ctx, "chatlength", 2*time.Minute, b.chatLength)
			// Three runs of each of three pages, about 20 s a run.
			b.run(ctx, "lighthouse", 6*time.Minute, b.lighthouse)
			// Two replies of 20 s and the quick actions.
			b.run(ctx, "capacity", 3*time.Minute, b.capacity)
			b.run(ctx, "scale", b.scaleTimeout(), b.scale)
		}
	}
	// Prices what the capacity part measured (docs/cost.md).
	b.run(ctx, "cost", partTimeout, b.cost)
	b.print(os.Stdout)
	if *strict && b.over() > 0 {
		fmt.Fprintf(os.Stderr, "bench: %d rows OVER budget (strict)\n", b.over())
		os.Exit(1)
	}
}

// over counts the rows over budget.
func (b *bench) over() int {
	n := 0
	for _, r := range b.rows {
		if !r.ok && !r.byEngine {
			n++
		}
	}
	return n
}

// bench collects the rows of every part.
type bench struct {
	root      string
	devserver string
	dynamo    string // dynalite endpoint shared by the parts
	engine    *localdynamo.Server
	skip      map[string]bool
	rows      []row
	notes     []string
	// scaleMax: the scale part's 100,000-prompt catalogue (-scale-max).
	scaleMax bool
	// capacityFigures are the capacity part's, for the cost part.
	capacityFigures *capacityFigures
}

// partTimeout bounds a part so one stuck measurement cannot hang the run.
const partTimeout = 90 * time.Second

func (b *bench) run(ctx context.Context, name string, timeout time.Duration, part func(context.Context) error) {
	if b.skip[name] {
		b.note("%s: skipped", name)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	if err := part(ctx); err != nil {
		b.note("%s: %v", name, err)
	}
	fmt.Fprintf(os.Stderr, "bench: %s done in %s\n", name, time.Since(start).Round(time.Millisecond))
}

func (b *bench) wantsDynalite() bool {
	return !b.skip["api"] || !b.skip["relay"] || !b.skip["tools"] || !b.skip["elicitation"] || !b.skip["connect"] || !b.skip["init"] || !b.skip["lcp"] || !b.skip["mcpapp"] || !b.skip["chatlength"] || !b.skip["lighthouse"] || !b.skip["capacity"] || !b.skip["scale"]
}

func (b *bench) note(format string, args ...any) {
	b.notes = append(b.notes, fmt.Sprintf(format, args...))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}
