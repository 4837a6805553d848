// Command devserver runs the whole product locally: dynalite, every route
// group's handler (the same ones Lambda runs) and the built web app on one
// port. `make run` starts it; Ctrl-C stops it and everything it started.
// With LAMBDA_DIR (make run-lambda) the route groups are served by their
// function binaries instead, each its own process behind a local API
// Gateway (shared/local/lambdalocal).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"aiwork/shared/config"
	"aiwork/shared/gcpace"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store"
	"aiwork/shared/testbed/localdynamo"
)

func main() {
	dieWithParent()
	gcpace.Apply()
	if err := run(); err != nil {
		slog.Error("devserver", "err", err)
		os.Exit(1)
	}
}

func run() error {
	if err := config.LoadDotEnv(".env"); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	dataDir := config.Env("DATA_DIR", ".data")
	serving, err := devstack.LoadServing()
	if err != nil {
		return err
	}
	// The port is taken first, before the helper processes below start on
	// ports of their own: another copy fails at once, and no helper of a
	// devserver started beside this one (the browser suites run several)
	// can be handed this port while this one is still starting. Requests
	// that come meanwhile wait in the listen queue until it serves.
	ln, err := net.Listen("tcp", serving.Addr())
	if err != nil {
		return fmt.Errorf("listen on %s (is another copy running? set PORT, or HOST): %w", serving.Addr(), err)
	}
	defer ln.Close()
	staticDir := config.Env("STATIC_DIR", filepath.Join("webapp", "dist"))
	if err := devstack.EnsureLocalSecrets(dataDir); err != nil {
		return err
	}

	// A local DynamoDB unless one is given (AWS_ENDPOINT_URL_DYNAMODB).
	if config.Env("AWS_ENDPOINT_URL_DYNAMODB", "") == "" {
		dynamoPort, err := config.EnvInt("DYNAMODB_PORT", 0)
		if err != nil {
			return err
		}
		db, err := localdynamo.Start(ctx, localdynamo.Options{Port: dynamoPort, Path: filepath.Join(dataDir, "dynamodb")})
		if err != nil {
			return err
		}
		defer db.Stop()
		os.Setenv("AWS_ENDPOINT_URL_DYNAMODB", db.Endpoint)
		slog.Info("dynalite started", "endpoint", db.Endpoint, "data", filepath.Join(dataDir, "dynamodb"))
	}

	devstack.LocalMCPDefaults()
	cfg, err := devstack.LoadConfig(ctx)
	if err != nil {
		return err
	}
	// Mail goes to the local outbox, listed at /dev/mail.
	cfg.MailDir = filepath.Join(dataDir, "mail")
	// Links handed out (checkout pages, OAuth, mail) point here unless
	// PUBLIC_URL says otherwise: never at a host a request names.
	cfg.DefaultPublicURL(serving.URL())
	st, err := store.New(ctx, cfg.Auth.Store)
	if err != nil {
		return err
	}
	if err := devstack.Prepare(ctx, st); err != nil {
		return fmt.Errorf("prepare table: %w", err)
	}
	var handler http.Handler
	if dir := config.Env("LAMBDA_DIR", ""); dir != "" {
		// make run-lambda: every route group served by its function binary.
		stack, err := devstack.StartLambda(ctx, st, cfg, devstack.LambdaOptions{FunctionsDir: dir,
			StaticDir: staticDir, MailDir: cfg.MailDir, PublicURL: serving.URL(), FunctionLog: os.Stderr})
		if err != nil {
			return err
		}
		defer stack.Stop()
		handler = stack.Handler
		slog.Info("serving through the function binaries", "functions", dir, "timings", serving.URL()+"/dev/lambda")
	} else {
		stopMCP, err := devstack.StartMCP(ctx, st, cfg, slog.Default())
		if err != nil {
			return err
		}
		defer stopMCP()
		if handler, err = devstack.Handler(st, cfg, staticDir); err != nil {
			return err
		}
	}

	srv := devstack.NewServer(serving, handler)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	slog.Info("ready", "url", serving.URL(), "listen", srv.Addr, "mail_outbox", serving.URL()+"/dev/mail")

	select {
	case <-ctx.Done():
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	slog.Info("stopping")
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}
