package config

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Store is what every function needs to reach the table.
type Store struct {
	TableName string
	// Endpoint overrides the DynamoDB endpoint (dynalite locally); empty in AWS.
	Endpoint string
	Region   string
	// AttemptTimeout bounds one attempt of a table call (0: the store's
	// default, longer against a local engine); tests of a silent table
	// shorten it.
	AttemptTimeout time.Duration
}

// LoadStore reads TABLE_NAME, AWS_ENDPOINT_URL_DYNAMODB and AWS_REGION.
func LoadStore() Store {
	return Store{
		TableName: Env("TABLE_NAME", "aiwork"),
		Endpoint:  Env("AWS_ENDPOINT_URL_DYNAMODB", ""),
		Region:    Env("AWS_REGION", Env("AWS_DEFAULT_REGION", "us-east-1")),
	}
}

// Google holds the OAuth client; Enabled is false until both halves are set.
type Google struct {
	ClientID     string
	ClientSecret string
	IssuerURL    string
}

func (g Google) Enabled() bool { return g.ClientID != "" && g.ClientSecret != "" }

// Auth is the auth route group's configuration.
type Auth struct {
	Base
	TokenTTL    time.Duration
	PublicURL   string // where the browser reaches the app; empty: httpx.PublicURL
	Google      Google
	AdminEmails []string
	// RegisterLimitPerIP: registrations per client address per hour
	// (REGISTER_LIMIT_PER_IP, default 10). 0 here means the default;
	// negative means no limit (REGISTER_LIMIT_PER_IP=0).
	RegisterLimitPerIP int
	// MailFrom is the sender of account mail (MAIL_FROM): in AWS an SES
	// identity (the address or its domain verified); locally the outbox's
	// From. Empty in AWS: no mail is sent (logged).
	MailFrom string
}

// DefaultRegisterLimitPerIP is REGISTER_LIMIT_PER_IP's default.
const DefaultRegisterLimitPerIP = 10

// Users is the users route group's configuration. It reports the chat
// limits with the caller's usage, so it reads them as chat does.
type Users struct {
	Base
	ChatLimits ChatLimits
}

// ChatLimits meter what each user may spend on chat (DESIGN §8). Zero in
// any field means no limit.
type ChatLimits struct {
	// MaxConcurrentStreams: replies streaming at once (CHAT_MAX_CONCURRENT_STREAMS).
	MaxConcurrentStreams int
	// RequestsPerMinute: messages a minute, the summariser's included (CHAT_REQUESTS_PER_MINUTE).
	RequestsPerMinute int
	// DailyTokenBudget: input+output tokens a UTC day (CHAT_DAILY_TOKEN_BUDGET).
	DailyTokenBudget int
}

// Chat limits' defaults.
const (
	DefaultMaxConcurrentStreams = 3
	DefaultRequestsPerMinute    = 20
	DefaultDailyTokenBudget     = 200_000
)

// ChatLimitVars are the variables LoadChatLimits reads; the CDK stack passes
// each to the chat and users functions when it is set.
var ChatLimitVars = []string{"CHAT_MAX_CONCURRENT_STREAMS", "CHAT_REQUESTS_PER_MINUTE", "CHAT_DAILY_TOKEN_BUDGET"}

// LoadChatLimits reads CHAT_MAX_CONCURRENT_STREAMS (default 3),
// CHAT_REQUESTS_PER_MINUTE (default 20) and CHAT_DAILY_TOKEN_BUDGET (default
// 200000); 0 turns a limit off.
func LoadChatLimits() (ChatLimits, error) {
	var l ChatLimits
	var err error
	if l.MaxConcurrentStreams, err = EnvInt("CHAT_MAX_CONCURRENT_STREAMS", DefaultMaxConcurrentStreams); err != nil {
		return ChatLimits{}, err
	}
	if l.RequestsPerMinute, err = EnvInt("CHAT_REQUESTS_PER_MINUTE", DefaultRequestsPerMinute); err != nil {
		return ChatLimits{}, err
	}
	if l.DailyTokenBudget, err = EnvInt("CHAT_DAILY_TOKEN_BUDGET", DefaultDailyTokenBudget); err != nil {
		return ChatLimits{}, err
	}
	return l, nil
}

// Prompts is the prompts route group's configuration.
type Prompts struct {
	Base
	FreePromptsPerUser int
	// SkipEmailVerification lets unverified accounts use free prompts
	// (REQUIRE_EMAIL_VERIFICATION=false; by default they must confirm
	// their email first).
	SkipEmailVerification bool
}

// Payments is the payments route group's configuration.
type Payments struct {
	Base
	// StripeSecretKey empty means the local test checkout.
	StripeSecretKey string
	// StripeAPIURL overrides Stripe's API address (stripe-mock).
	StripeAPIURL       string
	FreePromptsPerUser int
	PublicURL          string
	// PlatformFeePercent is the platform's share of a creator's sale
	// (PLATFORM_FEE_PERCENT, 0–100, default 20).
	PlatformFeePercent int
}

// Webhook is the stripe-webhook function's configuration.
type Webhook struct {
	// Base holds the table only: Stripe signs the webhook's requests, no
	// user's token.
	Base
	WebhookSecret string
	// StripeSecretKey refunds a duplicate payment (empty: the local test
	// checkout, which records its refunds itself).
	StripeSecretKey string
	StripeAPIURL    string
}

// LoadWebhook reads the webhook's settings.
func LoadWebhook(ctx context.Context, sm SecretFetcher) (Webhook, error) {
	secret, err := Secret(ctx, sm, "STRIPE_WEBHOOK_SECRET")
	if err != nil {
		return Webhook{}, err
	}
	if secret == "" {
		return Webhook{}, errors.New("STRIPE_WEBHOOK_SECRET (or STRIPE_WEBHOOK_SECRET_ARN) is required")
	}
	key, err := Secret(ctx, sm, "STRIPE_SECRET_KEY")
	if err != nil {
		return Webhook{}, err
	}
	return Webhook{Base: Base{Store: LoadStore()}, WebhookSecret: secret, StripeSecretKey: key, StripeAPIURL: Env("STRIPE_API_URL", "")}, nil
}

// LoadPrompts reads the prompts group's settings.
func LoadPrompts(ctx context.Context, sm SecretFetcher) (Prompts, error) {
	base, err := LoadBase(ctx, sm)
	if err != nil {
		return Prompts{}, err
	}
	free, err := freePromptsPerUser()
	if err != nil {
		return Prompts{}, err
	}
	require, err := EnvBool("REQUIRE_EMAIL_VERIFICATION", true)
	if err != nil {
		return Prompts{}, err
	}
	return Prompts{Base: base, FreePromptsPerUser: free, SkipEmailVerification: !require}, nil
}

// LoadPayments reads the payments group's settings.
func LoadPayments(ctx context.Context, sm SecretFetcher) (Payments, error) {
	base, err := LoadBase(ctx, sm)
	if err != nil {
		return Payments{}, err
	}
	key, err := Secret(ctx, sm, "STRIPE_SECRET_KEY")
	if err != nil {
		return Payments{}, err
	}
	free, err := freePromptsPerUser()
	if err != nil {
		return Payments{}, err
	}
	fee, err := PlatformFeePercent()
	if err != nil {
		return Payments{}, err
	}
	return Payments{
		Base: base, StripeSecretKey: key, StripeAPIURL: Env("STRIPE_API_URL", ""),
		FreePromptsPerUser: free, PublicURL: strings.TrimRight(Env("PUBLIC_URL", ""), "/"),
		PlatformFeePercent: fee,
	}, nil
}

// Chat is the configuration of the chat and mcp groups: provider keys (a
// provider without one is served by the local demo model) and stream limits.
type Chat struct {
	Base
	Providers
	StallTimeout time.Duration
	DemoDelay    time.Duration
	// Limits meter each user's chat.
	Limits ChatLimits
	// Tools: the tools of users' MCP servers, called in chat.
	Tools ChatTools
}

// ChatTools is how the chat calls the tools of a user's MCP servers.
type ChatTools struct {
	// MCPClient opens users' sealed server keys (only inside the chat
	// function, only for the caller's own connections) and reaches their
	// servers under the outbound rules.
	MCPClient
	// MaxRounds: model calls that may ask for tools in one reply
	// (CHAT_MAX_TOOL_ROUNDS, default 8).
	MaxRounds int
	// CallTimeout bounds one tool call (MCP_TOOL_CALL_TIMEOUT, default 60s).
	CallTimeout time.Duration
}

// Tools' defaults.
const (
	DefaultMaxToolRounds   = 8
	DefaultToolCallTimeout = 60 * time.Second
	DefaultConnectTimeout  = 15 * time.Second
)

// LoadChatTools reads the chat's tool settings and the MCP key.
func LoadChatTools(ctx context.Context, sm SecretFetcher) (ChatTools, error) {
	client, err := LoadMCPClient(ctx, sm)
	if err != nil {
		return ChatTools{}, err
	}
	t := ChatTools{MCPClient: client}
	if t.MaxRounds, err = EnvInt("CHAT_MAX_TOOL_ROUNDS", DefaultMaxToolRounds); err != nil {
		return ChatTools{}, err
	}
	if t.CallTimeout, err = EnvDuration("MCP_TOOL_CALL_TIMEOUT", DefaultToolCallTimeout); err != nil {
		return ChatTools{}, err
	}
	return t, nil
}

// LoadChat reads the chat settings.
func LoadChat(ctx context.Context, sm SecretFetcher) (Chat, error) {
	base, err := LoadBase(ctx, sm)
	if err != nil {
		return Chat{}, err
	}
	c := Chat{Base: base}
	if c.Providers, err = LoadProviders(ctx, sm); err != nil {
		return Chat{}, err
	}
	if c.StallTimeout, err = EnvDuration("CHAT_STALL_TIMEOUT", 30*time.Second); err != nil {
		return Chat{}, err
	}
	if c.DemoDelay, err = EnvDuration("DEMO_CHUNK_DELAY", 60*time.Millisecond); err != nil {
		return Chat{}, err
	}
	if c.Limits, err = LoadChatLimits(); err != nil {
		return Chat{}, err
	}
	if c.Tools, err = LoadChatTools(ctx, sm); err != nil {
		return Chat{}, err
	}
	return c, nil
}

// MinJWTSecretBytes keeps HS256 keys at the hash size or more.
const MinJWTSecretBytes = 32

// LoadAuth reads the auth group's settings; secrets come through sm when
// their *_ARN variables are set.
func LoadAuth(ctx context.Context, sm SecretFetcher) (Auth, error) {
	base, err := LoadBase(ctx, sm)
	if err != nil {
		return Auth{}, err
	}
	ttl, err := EnvDuration("JWT_TTL", 24*time.Hour)
	if err != nil {
		return Auth{}, err
	}
	clientID, err := Secret(ctx, sm, "GOOGLE_CLIENT_ID")
	if err != nil {
		return Auth{}, err
	}
	clientSecret, err := Secret(ctx, sm, "GOOGLE_CLIENT_SECRET")
	if err != nil {
		return Auth{}, err
	}
	admins := EnvList("ADMIN_EMAILS")
	for i := range admins {
		admins[i] = strings.ToLower(admins[i])
	}
	registerLimit, err := EnvInt("REGISTER_LIMIT_PER_IP", DefaultRegisterLimitPerIP)
	if err != nil {
		return Auth{}, err
	}
	if registerLimit == 0 {
		registerLimit = -1 // 0 turns the limit off
	}
	mailFrom := Env("MAIL_FROM", "")
	if mailFrom != "" {
		if _, err := mail.ParseAddress(mailFrom); err != nil {
			return Auth{}, fmt.Errorf("MAIL_FROM %q is not an email address: %w", mailFrom, err)
		}
	}
	return Auth{
		Base:      base,
		TokenTTL:  ttl,
		PublicURL: strings.TrimRight(Env("PUBLIC_URL", ""), "/"),
		Google: Google{
			ClientID:     clientID,
			ClientSecret: clientSecret,
			IssuerURL:    Env("GOOGLE_ISSUER_URL", "https://accounts.google.com"),
		},
		AdminEmails:        admins,
		RegisterLimitPerIP: registerLimit,
		MailFrom:           mailFrom,
	}, nil
}

// LoadUsers reads the users group's settings.
func LoadUsers(ctx context.Context, sm SecretFetcher) (Users, error) {
	base, err := LoadBase(ctx, sm)
	if err != nil {
		return Users{}, err
	}
	limits, err := LoadChatLimits()
	if err != nil {
		return Users{}, err
	}
	return Users{Base: base, ChatLimits: limits}, nil
}

func jwtSecret(ctx context.Context, sm SecretFetcher) ([]byte, error) {
	s, err := Secret(ctx, sm, "JWT_SECRET")
	if err != nil {
		return nil, err
	}
	if s == "" {
		return nil, errors.New("JWT_SECRET (or JWT_SECRET_ARN) is required")
	}
	if len(s) < MinJWTSecretBytes {
		return nil, fmt.Errorf("JWT_SECRET must be at least %d bytes", MinJWTSecretBytes)
	}
	return []byte(s), nil
}

// SecretsClient is a Secrets Manager client, or nil when no secret is read
// by ARN (local runs), so local start-up never touches AWS.
func SecretsClient(cfg aws.Config) SecretFetcher {
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(name, "_ARN") && strings.HasPrefix(value, "arn:") {
			return NewSecretsManager(cfg)
		}
	}
	return nil
}

// ServiceEndpoint is AWS_ENDPOINT_URL_<service> (the SDK's variable for a
// service's endpoint, which the shared-config loader would read; AWS builds
// the configuration without it), or nil for the service's own endpoint.
// make run-lambda points Secrets Manager and SES at local stand-ins so.
func ServiceEndpoint(service string) *string {
	if u := strings.TrimSpace(os.Getenv("AWS_ENDPOINT_URL_" + service)); u != "" {
		return &u
	}
	return nil
}
