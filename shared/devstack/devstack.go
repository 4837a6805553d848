// Package devstack assembles the whole product in one process for local runs,
// browser tests and benchmarks: every route group's handler (the ones Lambda
// runs), the web app, and the local-only secrets and engine.
package devstack

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"aiwork/shared/api/authapi"
	"aiwork/shared/api/paymentsapi"
	"aiwork/shared/api/promptsapi"
	"aiwork/shared/api/usersapi"
	"aiwork/shared/auth"
	"aiwork/shared/catalog"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// Handler mounts every route group and, when staticDir is set, the built app.
func Handler(st *store.Store, cfg Config, staticDir string) (http.Handler, error) {
	tokens := auth.NewTokens(cfg.Auth.JWTSecret, cfg.Auth.TokenTTL)
	handlers := map[string]http.Handler{
		"auth":     authapi.New(st, cfg.Auth).Handler(),
		"users":    usersapi.New(st, tokens),
		"prompts":  promptsapi.New(st, tokens, cfg.Prompts.FreePromptsPerUser).Handler(),
		"payments": paymentsapi.New(st, tokens).Handler(),
	}
	var app http.Handler
	if staticDir != "" {
		app = httpx.SPA(staticDir)
	}
	return routes.Mount(handlers, app)
}

// Config is every route group's configuration, read once for the whole stack.
type Config struct {
	Auth    config.Auth
	Prompts config.Prompts
}

// LoadConfig reads every group's settings from the environment.
func LoadConfig(ctx context.Context) (Config, error) {
	a, err := config.LoadAuth(ctx, nil)
	if err != nil {
		return Config{}, err
	}
	p, err := config.LoadPrompts(ctx, nil)
	if err != nil {
		return Config{}, err
	}
	return Config{Auth: a, Prompts: p}, nil
}

// Prepare creates the table when missing and seeds the catalogue.
func Prepare(ctx context.Context, st *store.Store) error {
	if err := st.EnsureTable(ctx); err != nil {
		return err
	}
	return catalog.Seed(ctx, st)
}

// EnsureSecret sets the variable name from dataDir/secrets/<name>, creating a
// random value there on first use, unless the environment already sets it.
// Local runs only: in Lambda every secret comes from Secrets Manager.
func EnsureSecret(dataDir, name string, bytes int) error {
	if strings.TrimSpace(os.Getenv(name)) != "" || os.Getenv(name+"_ARN") != "" {
		return nil
	}
	dir := filepath.Join(dataDir, "secrets")
	file := filepath.Join(dir, strings.ToLower(name))
	if b, err := os.ReadFile(file); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return os.Setenv(name, strings.TrimSpace(string(b)))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("secret %s: %w", name, err)
	}
	raw := make([]byte, bytes)
	if _, err := rand.Read(raw); err != nil {
		return err
	}
	value := hex.EncodeToString(raw)
	if err := os.WriteFile(file, []byte(value+"\n"), 0o600); err != nil {
		return fmt.Errorf("secret %s: %w", name, err)
	}
	return os.Setenv(name, value)
}
