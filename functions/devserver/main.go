// Command devserver runs the whole product locally: dynalite, every route
// group's handler (the same ones Lambda runs) and the built web app on one
// port. `make run` starts it; Ctrl-C stops it and everything it started.
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
	"aiwork/shared/devstack"
	"aiwork/shared/httpx"
	"aiwork/shared/localdynamo"
	"aiwork/shared/store"
)

func main() {
	dieWithParent()
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
	port := config.Env("PORT", "8080")
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
	st, err := store.New(ctx, cfg.Auth.Store)
	if err != nil {
		return err
	}
	if err := devstack.Prepare(ctx, st); err != nil {
		return fmt.Errorf("prepare table: %w", err)
	}
	stopMCP, err := devstack.StartMCP(ctx, st, cfg, slog.Default())
	if err != nil {
		return err
	}
	defer stopMCP()
	handler, err := devstack.Handler(st, cfg, staticDir)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", ":"+port)
	if err != nil {
		return fmt.Errorf("listen on port %s (is another copy running? set PORT): %w", port, err)
	}
	srv := &http.Server{Handler: httpx.AccessLog(handler), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	slog.Info("ready", "url", "http://localhost:"+port, "mail_outbox", "http://localhost:"+port+"/dev/mail")

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
