package devstack

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"time"

	"aiwork/shared/lambdas"
	"aiwork/shared/local/localmcp"
	"aiwork/shared/mcpjobs"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
)

// LocalMCPDefaults lets a local run reach the reference server on loopback
// (DESIGN §7: Lambda never does) unless the environment says otherwise.
func LocalMCPDefaults() {
	if os.Getenv("MCP_ALLOW_LOOPBACK") == "" {
		os.Setenv("MCP_ALLOW_LOOPBACK", "true")
	}
}

// StartMCP starts what the registry needs locally: the reference server, the
// OAuth example server, the sign-in-on-call example and the MCP App example
// (MCP_REFERENCE_SERVER=off skips all four, MCP_OAUTH_EXAMPLE=off the OAuth
// one, MCP_SIGNIN_ON_CALL_EXAMPLE=off the sign-in-on-call one,
// MCP_APP_EXAMPLE=off the MCP App one), listed in the catalogue, and the
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
	ref, oauth, signIn, app := startLocalServers(ctx, log)
	stopServers := func() {
		ref.Stop()
		oauth.Stop()
		signIn.Stop()
		app.Stop()
	}
	refEndpoint, oauthEndpoint, signInEndpoint, appEndpoint := "", "", "", ""
	if ref != nil {
		refEndpoint = ref.Endpoint
	}
	if oauth != nil {
		oauthEndpoint = oauth.Endpoint
	}
	if signIn != nil {
		signInEndpoint = signIn.Endpoint
	}
	if app != nil {
		appEndpoint = app.Endpoint
	}
	if err := seeddata.SetLocalReference(ctx, st, refEndpoint); err != nil {
		stopServers()
		return nil, err
	}
	if err := seeddata.SetLocalOAuthExample(ctx, st, oauthEndpoint); err != nil {
		stopServers()
		return nil, err
	}
	if err := seeddata.SetLocalSignInOnCall(ctx, st, signInEndpoint); err != nil {
		stopServers()
		return nil, err
	}
	if err := seeddata.SetLocalMCPApp(ctx, st, appEndpoint); err != nil {
		stopServers()
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
		stopServers()
	}, nil
}

// startLocalServers starts the reference server, the OAuth example server,
// the sign-in-on-call example and the MCP App example side by side, each
// unless switched off; one that does not start is nil (the product works
// without it; the registry just lacks its local entry).
func startLocalServers(ctx context.Context, log *slog.Logger) (ref *localmcp.Server, oauth *localmcp.OAuthServer, signIn *localmcp.SignInOnCallServer, app *localmcp.Server) {
	if os.Getenv("MCP_REFERENCE_SERVER") == "off" {
		return nil, nil, nil, nil
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		s, err := localmcp.Start(ctx, localmcp.ModeStreamable)
		if err != nil {
			log.Warn("MCP reference server not started", "err", err)
			return
		}
		ref = s
		log.Info("MCP reference server started", "endpoint", s.Endpoint)
	})
	if os.Getenv("MCP_OAUTH_EXAMPLE") != "off" {
		wg.Go(func() {
			s, err := localmcp.StartOAuthExample(ctx)
			if err != nil {
				log.Warn("MCP OAuth example server not started", "err", err)
				return
			}
			oauth = s
			log.Info("MCP OAuth example server started", "endpoint", s.Endpoint, "issuer", s.Issuer)
		})
	}
	if os.Getenv("MCP_SIGNIN_ON_CALL_EXAMPLE") != "off" {
		wg.Go(func() {
			s, err := localmcp.StartSignInOnCall(ctx)
			if err != nil {
				log.Warn("MCP sign-in-on-call example not started", "err", err)
				return
			}
			signIn = s
			log.Info("MCP sign-in-on-call example started", "endpoint", s.Endpoint, "issuer", s.Issuer)
		})
	}
	if os.Getenv("MCP_APP_EXAMPLE") != "off" {
		wg.Go(func() {
			s, err := localmcp.StartAppExample(ctx)
			if err != nil {
				log.Warn("MCP App example server not started", "err", err)
				return
			}
			app = s
			log.Info("MCP App example server started", "endpoint", s.Endpoint)
		})
	}
	wg.Wait()
	return ref, oauth, signIn, app
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
