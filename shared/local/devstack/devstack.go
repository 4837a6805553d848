// Package devstack assembles the whole product in one process for local runs,
// browser tests and benchmarks: every route group's handler (the ones Lambda
// runs), the web app, and the local-only secrets and engine.
package devstack

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"aiwork/shared/api/adminapi"
	"aiwork/shared/api/agentsapi"
	"aiwork/shared/api/authapi"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/conversationsapi"
	"aiwork/shared/api/creatorsapi"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/api/paymentsapi"
	"aiwork/shared/api/promptsapi"
	"aiwork/shared/api/registryapi"
	"aiwork/shared/api/usersapi"
	"aiwork/shared/api/webhookapi"
	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/llm/providers"
	"aiwork/shared/local/localcheckout"
	"aiwork/shared/local/outbox"
	"aiwork/shared/mail"
	"aiwork/shared/mcpjobs"
	"aiwork/shared/payments"
	"aiwork/shared/routes"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
)

// Handler mounts every route group and, when staticDir is set, the built app.
// Each group is built by its FromConfig, as its Lambda builds it.
func Handler(st *store.Store, cfg Config, staticDir string) (http.Handler, error) {
	cfg = cfg.completed()
	box, mailer, err := localMail(cfg)
	if err != nil {
		return nil, err
	}
	provider := paymentsapi.NewProvider(st, cfg.Payments)
	registry, err := providers.RegistryFromConfig(context.Background(), cfg.Chat)
	if err != nil {
		return nil, err
	}
	webhook := webhookapi.New(st, cfg.Webhook.WebhookSecret, provider)
	mcpGroup, err := mcpapi.FromConfig(st, cfg.MCP)
	if err != nil {
		return nil, err
	}
	chat, err := chatapi.FromConfig(st, registry, cfg.Chat)
	if err != nil {
		return nil, err
	}
	// The chat function mounts two route groups, as its Lambda does.
	chatFunction, err := routes.Function("chat", map[string]http.Handler{
		"chat": chat.Handler(), "conversations": conversationsapi.FromConfig(st, cfg.Chat).Handler()})
	if err != nil {
		return nil, err
	}
	// So does the mcp function: the registry and connections, and the
	// registry API.
	mcpFunction, err := routes.Function("mcp", map[string]http.Handler{
		"mcp": mcpGroup.Handler(), "registry": registryapi.FromConfig(st, cfg.MCP).Handler()})
	if err != nil {
		return nil, err
	}
	// The admin's Probe now and Sync run the jobs in this process (the
	// admin Lambda asks the mcp-jobs function).
	jobs, err := mcpjobs.FromConfig(st, cfg.Admin.MCPJobs, slog.Default())
	if err != nil {
		return nil, err
	}
	handlers := map[string]http.Handler{
		"auth":           authapi.FromConfig(st, cfg.Auth, mailer).Handler(),
		"users":          usersapi.FromConfig(st, config.Users{Base: cfg.Auth.Base, ChatLimits: cfg.Chat.Limits}).Handler(),
		"prompts":        promptsapi.FromConfig(st, cfg.Prompts).Handler(),
		"payments":       paymentsapi.New(st, auth.FromConfig(cfg.Payments.Base, 0, st), provider, cfg.Payments).Handler(),
		"stripe-webhook": webhook,
		"mcp":            mcpFunction,
		"chat":           chatFunction,
		"admin":          adminapi.FromConfig(st, cfg.Admin, mailer, jobs).Handler(),
		"creators":       creatorsapi.FromConfig(st, cfg.Creators).Handler(),
		"agents":         agentsapi.FromConfig(st, cfg.Payments).Handler(),
	}
	if cfg.WrapGroup != nil {
		for name, h := range handlers {
			handlers[name] = cfg.WrapGroup(name, h)
		}
		// The local checkout delivers its events to the same handler.
		webhook = handlers["stripe-webhook"]
	}
	var app http.Handler
	if staticDir != "" {
		app = httpx.Site(staticDir, cfg.Auth.PublicURL)
	}
	api, err := routes.Mount(handlers, app)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	if provider.Name() == "local" {
		// The local test checkout stands in for Stripe's hosted page.
		mux.Handle(payments.LocalCheckoutPath, localcheckout.New(st, webhook, cfg.Webhook.WebhookSecret))
	}
	if box != nil {
		// The local outbox stands in for Amazon SES.
		mux.Handle(outbox.Path, box.Handler())
		mux.Handle(outbox.Path+"/", box.Handler())
	}
	mux.Handle("/", api)
	return mux, nil
}

// localMail is the local stack's mailer: the outbox in cfg.MailDir, listed
// at /dev/mail; without a MailDir (tests that do not read mail) mail is
// dropped.
func localMail(cfg Config) (*outbox.Outbox, mail.Mailer, error) {
	if cfg.MailDir == "" {
		return nil, mail.Discard{}, nil
	}
	box, err := outbox.New(cfg.MailDir, cfg.Auth.MailFrom)
	if err != nil {
		return nil, nil, err
	}
	return box, box, nil
}

// Config is every route group's configuration, read once for the whole stack.
type Config struct {
	Auth     config.Auth
	Prompts  config.Prompts
	Payments config.Payments
	Webhook  config.Webhook
	Chat     config.Chat
	MCP      config.MCP
	MCPJobs  config.MCPJobs
	Admin    config.Admin
	Creators config.Creators
	// MailDir is the local outbox (DATA_DIR/mail): every mail the stack
	// sends is written there and listed at /dev/mail. Empty: dropped.
	MailDir string
	// WrapGroup, when set, wraps each route group's handler, named by its
	// function: tests see which function serves each request (and which
	// table calls each one makes, TestTableAccess).
	WrapGroup func(function string, h http.Handler) http.Handler
}

// DefaultPublicURL makes url the public address of the groups that hand out
// links (auth: OAuth redirect and mail; payments: checkout success and
// cancel pages; mcp: the MCP sign-in's redirect; admin: the confirmation
// mail it resends) unless PUBLIC_URL set one: the devserver's own address, so
// that no request header (Host, X-Forwarded-Host) chooses where a link
// mailed to someone else points.
func (c *Config) DefaultPublicURL(url string) {
	if c.Auth.PublicURL == "" {
		c.Auth.PublicURL = url
	}
	if c.Payments.PublicURL == "" {
		c.Payments.PublicURL = url
	}
	if c.MCP.PublicURL == "" {
		c.MCP.PublicURL = url
	}
	if c.Admin.PublicURL == "" {
		c.Admin.PublicURL = url
	}
	if c.Creators.PublicURL == "" {
		c.Creators.PublicURL = url
	}
}

// completed fills what a partial Config (tests build only the groups they
// exercise) leaves out: each group signs and checks with the auth group's
// key, the mcp group serves the chat's providers, and a throw-away key
// seals users' MCP keys, shared with the chat, which opens them, and with
// the admin group, which seals operators' client secrets.
func (c Config) completed() Config {
	for _, b := range []*config.Base{&c.Prompts.Base, &c.Payments.Base, &c.Chat.Base, &c.MCP.Base, &c.Admin.Base, &c.Creators.Base} {
		if b.JWTSecret == nil {
			b.JWTSecret, b.JWTKeys = c.Auth.JWTSecret, c.Auth.JWTKeys
		}
	}
	if c.MCP.Providers == (config.Providers{}) {
		c.MCP.Providers = c.Chat.Providers
	}
	if len(c.MCP.KeyEncryptionKey) == 0 {
		c.MCP.KeyEncryptionKey = make([]byte, 32)
		_, _ = rand.Read(c.MCP.KeyEncryptionKey)
	}
	if len(c.Chat.Tools.KeyEncryptionKey) == 0 {
		c.Chat.Tools.MCPClient = c.MCP.MCPClient
	}
	if len(c.Admin.KeyEncryptionKey) == 0 {
		c.Admin.KeyEncryptionKey = c.MCP.KeyEncryptionKey // the admin seals what mcp opens
	}
	return c
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
	pay, err := config.LoadPayments(ctx, nil)
	if err != nil {
		return Config{}, err
	}
	hook, err := config.LoadWebhook(ctx, nil)
	if err != nil {
		return Config{}, err
	}
	chat, err := config.LoadChat(ctx, nil)
	if err != nil {
		return Config{}, err
	}
	m, err := config.LoadMCP(ctx, nil)
	if err != nil {
		return Config{}, err
	}
	admin, err := config.LoadAdmin(ctx, nil)
	if err != nil {
		return Config{}, err
	}
	creators, err := config.LoadCreators(ctx, nil)
	if err != nil {
		return Config{}, err
	}
	return Config{Auth: a, Prompts: p, Payments: pay, Webhook: hook, Chat: chat, MCP: m, MCPJobs: config.LoadMCPJobs(), Admin: admin,
		Creators: creators}, nil
}

// Prepare creates the table when missing (or adds what an older table
// lacks), gives the orders and accounts stored before the admin listings
// their listing keys, folds free-use counts from before mailboxes into
// them, lists the prompts stored before the marketplace listing (or left
// behind by a failed write), the registry's servers and History's
// conversations likewise, and seeds the catalogues.
func Prepare(ctx context.Context, st *store.Store) error {
	if err := st.EnsureTable(ctx); err != nil {
		return err
	}
	res, err := st.BackfillAdminIndex(ctx)
	if err != nil {
		return err
	}
	if res != (store.BackfillResult{}) {
		slog.InfoContext(ctx, "admin listings: earlier orders and accounts indexed", "orders", res.Orders, "accounts", res.Users)
	}
	if n, err := st.BackfillMailboxQuotas(ctx); err != nil {
		return err
	} else if n > 0 {
		slog.InfoContext(ctx, "free uses: earlier per-account counts folded into their mailboxes", "accounts", n)
	}
	if n, err := st.BackfillPromptListings(ctx); err != nil {
		return err
	} else if n > 0 {
		slog.InfoContext(ctx, "marketplace listing: earlier prompts listed", "prompts", n)
	}
	if n, err := st.BackfillMCPListings(ctx); err != nil {
		return err
	} else if n > 0 {
		slog.InfoContext(ctx, "registry listing: earlier servers listed", "servers", n)
	}
	if n, err := st.BackfillConversationLists(ctx); err != nil {
		return err
	} else if n > 0 {
		slog.InfoContext(ctx, "History: earlier conversations listed", "conversations", n)
	}
	if err := seeddata.Seed(ctx, st); err != nil {
		return err
	}
	return seeddata.SeedMCPServers(ctx, st)
}

// EnsureLocalSecrets creates the secrets a local run needs when unset.
func EnsureLocalSecrets(dataDir string) error {
	if err := EnsureSecret(dataDir, "JWT_SECRET", "", 32); err != nil {
		return err
	}
	if err := EnsureSecret(dataDir, "MCP_KEY_ENCRYPTION_KEY", "", 32); err != nil {
		return err
	}
	return EnsureSecret(dataDir, "STRIPE_WEBHOOK_SECRET", "whsec_", 24)
}

// EnsureSecret sets the variable name from dataDir/secrets/<name>, creating a
// random value there on first use, unless the environment already sets it.
// Local runs only: in Lambda every secret comes from Secrets Manager.
func EnsureSecret(dataDir, name, prefix string, bytes int) error {
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
	value := prefix + hex.EncodeToString(raw)
	if err := os.WriteFile(file, []byte(value+"\n"), 0o600); err != nil {
		return fmt.Errorf("secret %s: %w", name, err)
	}
	return os.Setenv(name, value)
}
