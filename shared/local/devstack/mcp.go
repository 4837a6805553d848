package devstack

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"time"

	"aiwork/shared/catalog"
	"aiwork/shared/lambdas"
	"aiwork/shared/local/localmcp"
	"aiwork/shared/mcpjobs"
	"aiwork/shared/store"
)

// LocalMCPDefaults lets a local run reach the reference server on loopback
// (DESIGN §7: Lambda never does) unless the environment says otherwise.
func LocalMCPDefaults() {
	if os.Getenv("MCP_ALLOW_LOOPBACK") == "" {
		os.Setenv("MCP_ALLOW_LOOPBACK", "true")
	}
}

// StartMCP starts what the registry needs locally: the reference server
// (unless MCP_REFERENCE_SERVER=off), listed in the catalogue, and the
// scheduled jobs of lambdas.All on timers (each at start, then every
// LocalEvery), as EventBridge runs them in AWS. stop ends all of it.
func StartMCP(ctx context.Context, st *store.Store, cfg Config, log *slog.Logger) (stop func(), err error) {
	runner, err := mcpjobs.FromConfig(st, cfg.MCPJobs, log)
	if err != nil {
		return nil, err
	}
	return StartMCPWith(ctx, st, log, runner.Run)
}

// StartMCPWith is StartMCP with the jobs run by run (make run-lambda: an
// invocation of the mcp-jobs function, as EventBridge's).
func StartMCPWith(ctx context.Context, st *store.Store, log *slog.Logger, run func(ctx context.Context, job string) error) (stop func(), err error) {
	var ref *localmcp.Server
	endpoint := ""
	if os.Getenv("MCP_REFERENCE_SERVER") != "off" {
		if ref, err = localmcp.Start(ctx, localmcp.ModeStreamable); err != nil {
			// The product works without it; the registry just lacks the local entry.
			log.Warn("MCP reference server not started", "err", err)
		} else {
			endpoint = ref.Endpoint
			log.Info("MCP reference server started", "endpoint", endpoint)
		}
	}
	if err := catalog.SetLocalReference(ctx, st, endpoint); err != nil {
		ref.Stop()
		return nil, err
	}

	jobsCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		runJobs(jobsCtx, run, log)
	}()
	return func() {
		cancel()
		wg.Wait()
		ref.Stop()
	}, nil
}

// StartupJobsDone is logged once every job has run at start (make bench
// waits for it: in AWS the jobs run in their own function, never beside a
// route group's requests).
const StartupJobsDone = "start-up jobs done"

// runJobs runs every mcp job once in table order (the import before the
// probe), then each on its own ticker until ctx ends.
func runJobs(ctx context.Context, runJob func(context.Context, string) error, log *slog.Logger) {
	jobs := lambdas.Jobs()
	run := func(j lambdas.Job) {
		if err := runJob(ctx, j.Name); err != nil && ctx.Err() == nil {
			log.Warn("job failed", "job", j.Name, "err", err)
		}
	}
	for _, j := range jobs {
		run(j)
	}
	log.Info(StartupJobsDone)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(j.LocalEvery)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
					run(j)
				}
			}
		}()
	}
	wg.Wait()
}
