// Package lambdas is the one table of the product's Lambda functions:
// each function's name, the API routes it serves, its jobs, what it may do
// on the table, its size, the secrets and settings it reads. The CDK stack
// builds every function, its routes, grants and schedules from it; the
// devserver and `make run-lambda` mount and run the same; tests hold the
// Makefile's list and each function's main.go to it. Adding a function is
// one entry here and functions/<name>/main.go.
package lambdas

import (
	"slices"
	"time"

	"aiwork/shared/config"
)

// Function is one Lambda function.
type Function struct {
	// Name is the folder under functions/ and the Lambda's name.
	Name string
	// Routes are the API paths it serves: prefixes ending in "/" (a
	// subtree) or exact paths. None: a function run by its Jobs or by
	// another AWS service (Trigger).
	Routes []string
	// Methods gives an exact-path route its one HTTP method (others take
	// any); API Gateway routes no other.
	Methods map[string]string
	// Streaming marks a response-streaming integration (and Bedrock access
	// when Meta Llama is on).
	Streaming bool
	// Jobs are the schedules that invoke it with {"job": Name}.
	Jobs []Job
	// Trigger names the AWS service that invokes a function with neither
	// routes nor jobs.
	Trigger string
	// Access is what it may do on the product table.
	Access Access
	// MemoryMB and Timeout size it.
	MemoryMB int
	Timeout  time.Duration
	// Secrets are read by ARN (NAME_ARN) in AWS, by value locally
	// (config.SecretNames); an API function also reads the origin secret.
	Secrets []string
	// Env holds fixed settings in AWS: literal values, never a secret.
	Env map[string]string
	// Invokes are the functions it invokes synchronously, each by the
	// variable that carries its name (the stack sets it and grants
	// lambda:InvokeFunction on that function alone).
	Invokes map[string]string
	// Settings are the deployment settings it reads, set by the stack from
	// its configuration when the operator gives them (Settings* names).
	Settings []string
	// Groups splits Routes between the route groups (shared/api packages)
	// of a function that mounts more than one, by group name
	// (routes.Function); a function without Groups is one group, named as
	// it is.
	Groups map[string][]string
}

// API reports whether the function serves API routes (reached through
// CloudFront only: it checks the origin secret).
func (f Function) API() bool { return len(f.Routes) > 0 }

// Job is work that runs on a schedule rather than on a request: in AWS an
// EventBridge rule invokes its function with the input {"job": Name}; the
// devserver runs it at start and then every LocalEvery.
type Job struct {
	Name       string
	Schedule   string // EventBridge schedule expression
	LocalEvery time.Duration
	// Function is the function that runs it (filled from the table).
	Function string
}

// Secret names (each also the variable a function reads: locally the value,
// in Lambda NAME_ARN). config.SecretNames lists them all.
const (
	SecretJWT                 = "JWT_SECRET"
	SecretStripeKey           = "STRIPE_SECRET_KEY"
	SecretStripeWebhookSecret = "STRIPE_WEBHOOK_SECRET"
	SecretGoogleClientID      = "GOOGLE_CLIENT_ID"
	SecretGoogleClientSecret  = "GOOGLE_CLIENT_SECRET"
	SecretOpenAIKey           = "OPENAI_API_KEY"
	SecretAnthropicKey        = "ANTHROPIC_API_KEY"
	SecretGeminiKey           = "GEMINI_API_KEY"
	SecretMCPKeyEncryptionKey = "MCP_KEY_ENCRYPTION_KEY"
)

// Deployment settings a function may read (set only when configured).
const (
	SettingAdminEmails        = "ADMIN_EMAILS"
	SettingPublicURL          = "PUBLIC_URL"
	SettingMailFrom           = "MAIL_FROM"
	SettingRegisterLimit      = "REGISTER_LIMIT_PER_IP"
	SettingRequireVerified    = "REQUIRE_EMAIL_VERIFICATION"
	SettingFreePrompts        = "FREE_PROMPTS_PER_USER"
	SettingMetaBedrock        = "META_BEDROCK"
	SettingMCPRegistryURL     = "MCP_REGISTRY_URL"
	SettingChatMaxStreams     = "CHAT_MAX_CONCURRENT_STREAMS"
	SettingChatRequestsPerMin = "CHAT_REQUESTS_PER_MINUTE"
	SettingChatDailyTokens    = "CHAT_DAILY_TOKEN_BUDGET"
)

// ChatLimitSettings are the chat limits (config.ChatLimitVars): chat
// enforces them, users reports them.
var ChatLimitSettings = []string{SettingChatMaxStreams, SettingChatRequestsPerMin, SettingChatDailyTokens}

// Sizes.
const (
	// BufferedTimeout covers API Gateway's 29 s limit for buffered
	// integrations.
	BufferedTimeout = 30 * time.Second
	// LongTimeout bounds a streamed chat reply (REST API streams may last
	// 15 min) and one scheduled run.
	LongTimeout = 5 * time.Minute
)

var providerKeys = []string{SecretOpenAIKey, SecretAnthropicKey, SecretGeminiKey}

// mcpOutbound is the outbound rule of every function that reaches MCP
// servers (DESIGN §7): https only. Loopback, where Lambda's Runtime API
// listens, is refused in Lambda whatever the setting.
var mcpOutbound = map[string]string{"MCP_HTTPS_ONLY": "true"}

// All lists every function. More specific route prefixes win, wherever they
// stand in the list (routes.Match picks the longest).
var All = []Function{
	{Name: "auth", Routes: []string{"/api/v1/auth/"}, Access: accessAuth, MemoryMB: 1024, Timeout: BufferedTimeout, // bcrypt wants CPU
		Secrets:  []string{SecretJWT, SecretGoogleClientID, SecretGoogleClientSecret},
		Settings: []string{SettingAdminEmails, SettingPublicURL, SettingMailFrom, SettingRegisterLimit}},
	{Name: "users", Routes: []string{"/api/v1/users/"}, Access: accessUsers, MemoryMB: 512, Timeout: BufferedTimeout,
		Secrets: []string{SecretJWT}, Settings: ChatLimitSettings},
	{Name: "prompts", Routes: []string{"/api/v1/prompts/"}, Access: accessPrompts, MemoryMB: 512, Timeout: BufferedTimeout,
		Secrets: []string{SecretJWT}, Settings: []string{SettingRequireVerified, SettingFreePrompts}},
	{Name: "payments", Routes: []string{"/api/v1/payments/"}, Access: accessPayments, MemoryMB: 512, Timeout: BufferedTimeout,
		Secrets: []string{SecretJWT, SecretStripeKey}, Settings: []string{SettingFreePrompts, SettingPublicURL}},
	// The key refunds duplicate payments.
	{Name: "stripe-webhook", Routes: []string{WebhookPath}, Methods: map[string]string{WebhookPath: "POST"},
		Access: accessWebhook, MemoryMB: 512, Timeout: BufferedTimeout,
		Secrets: []string{SecretStripeWebhookSecret, SecretStripeKey}},
	// The provider keys tell mcp which providers are real (demo or not);
	// the key-encryption key is readable by mcp, which seals users' server
	// keys, and chat, which opens a user's own to call its tools.
	// It also serves the registry as the official MCP Registry API
	// (registryapi, public and read-only) from the same registry entries.
	{Name: "mcp", Routes: []string{"/api/v1/mcp-servers/", "/api/v1/mcp-connections/", MCPOAuthPrefix, RegistryPrefix},
		Groups: map[string][]string{"mcp": {"/api/v1/mcp-servers/", "/api/v1/mcp-connections/", MCPOAuthPrefix}, "registry": {RegistryPrefix}},
		Access: accessMCP, MemoryMB: 512, Timeout: BufferedTimeout,
		Secrets: append([]string{SecretJWT, SecretMCPKeyEncryptionKey}, providerKeys...), Env: mcpOutbound,
		Settings: []string{SettingMetaBedrock, SettingPublicURL}},
	// The chat streams replies (chatapi) and keeps conversations
	// (conversationsapi, whose re-attach streams too: one streaming
	// integration for both). The chat group also serves the MCP App views
	// of its tool calls (their resources, their own tool calls), on the
	// same warm sessions to users' servers.
	{Name: "chat", Routes: []string{ChatPath, ChatPrefix, ChatAppsPrefix}, Methods: map[string]string{ChatPath: "POST"}, Streaming: true,
		Groups: map[string][]string{"chat": {ChatPath, ChatAppsPrefix}, "conversations": {ChatPrefix}},
		Access: accessChat, MemoryMB: 1024, Timeout: LongTimeout,
		Secrets: append([]string{SecretJWT, SecretMCPKeyEncryptionKey}, providerKeys...), Env: mcpOutbound,
		Settings: append([]string{SettingMetaBedrock}, ChatLimitSettings...)},
	// Registry sync and health probe: public data only, never a user's key.
	{Name: "mcp-jobs", Access: accessMCPJobs, MemoryMB: 512, Timeout: LongTimeout, Env: mcpOutbound,
		Settings: []string{SettingMCPRegistryURL},
		Jobs: []Job{
			// Imports the MCP registry (MCP_REGISTRY_URL) into the catalogue.
			{Name: "mcp-sync", Schedule: "rate(1 day)", LocalEvery: 6 * time.Hour},
			// Handshakes with every active MCP server and records its health and tools.
			{Name: "mcp-probe", Schedule: "rate(15 minutes)", LocalEvery: 15 * time.Minute},
		}},
	// The admin area: catalogue, registry (Probe now and Sync run in
	// mcp-jobs, invoked; an endpoint saved is judged by the same outbound
	// rule; an operator's OAuth client secret sealed with the
	// key-encryption key, which mcp opens at sign-in), orders (refunds
	// through the Stripe key) and users (confirmation mail resent).
	{Name: "admin", Routes: []string{AdminPrefix}, Access: accessAdmin, MemoryMB: 512, Timeout: BufferedTimeout,
		Secrets: []string{SecretJWT, SecretStripeKey, SecretMCPKeyEncryptionKey}, Env: mcpOutbound,
		Settings: []string{SettingPublicURL, SettingMailFrom, SettingMCPRegistryURL},
		Invokes:  map[string]string{config.MCPJobsFunctionVar: "mcp-jobs"}},
	// Creators: their profile and their prompts, drafted and submitted for
	// review (the decisions are the admin function's), and their payouts
	// through Stripe Connect (the key; Stripe sends them back to PUBLIC_URL).
	{Name: "creators", Routes: []string{CreatorsPrefix}, Access: accessCreators, MemoryMB: 512, Timeout: BufferedTimeout,
		Secrets: []string{SecretJWT, SecretStripeKey}, Settings: []string{SettingPublicURL}},
	// The agent marketplace: its list, agents' pages and files, ratings,
	// and the checkout of a paid agent (the Stripe key; Stripe sends the
	// buyer back to PUBLIC_URL).
	{Name: "agents", Routes: []string{AgentsPrefix}, Access: accessAgents, MemoryMB: 512, Timeout: BufferedTimeout,
		Secrets: []string{SecretJWT, SecretStripeKey}, Settings: []string{SettingPublicURL}},
	// Rotates the JWT signing key every 30 days (infra/stack/rotation.go):
	// no table, no environment; its grants are on that secret alone.
	{Name: "jwt-rotation", Trigger: "secretsmanager", MemoryMB: 256, Timeout: BufferedTimeout},
}

// Paths written in more than one place.
const (
	ChatPath           = "/api/v1/mcp-connections/message"
	WebhookPath        = "/api/v1/payments/webhook"
	GoogleCallbackPath = "/api/v1/auth/google/callback"
	// The sign-in to OAuth-protected MCP servers: the callback is the
	// redirect URI operators register at authorization servers.
	// Conversations kept with the account (the chat function).
	ChatPrefix            = "/api/v1/chat/"
	ChatConversationsPath = ChatPrefix + "conversations"
	MCPOAuthPrefix        = "/api/v1/mcp-oauth/"
	MCPOAuthStartPath     = MCPOAuthPrefix + "start"
	MCPOAuthCallbackPath  = MCPOAuthPrefix + "callback"
	MCPOAuthMetadataPath  = MCPOAuthPrefix + "client-metadata.json"
	// The admin area (the admin function).
	AdminPrefix = "/api/v1/admin/"
	// Creators' profiles and prompts (the creators function).
	CreatorsPrefix = "/api/v1/creators/"
	// The agent marketplace (the agents function).
	AgentsPrefix = "/api/v1/agents/"
	// RegistryPrefix is the registry served as the official MCP Registry
	// API (the mcp function's registry group): clients append
	// /v0.1/servers to <site>/api/registry. Outside /api/v1/, as that API
	// has its own versions.
	RegistryPrefix = "/api/registry/"

	// MCP App views of the chat's tool calls (the chat function's chat
	// group).
	ChatAppsPrefix = ChatPrefix + "apps/"
)

// Get answers the function named name.
func Get(name string) (Function, bool) {
	i := slices.IndexFunc(All, func(f Function) bool { return f.Name == name })
	if i < 0 {
		return Function{}, false
	}
	return All[i], true
}

// Names lists every function's name, in the table's order.
func Names() []string {
	out := make([]string, len(All))
	for i, f := range All {
		out[i] = f.Name
	}
	return out
}

// Jobs lists every job, each with its function.
func Jobs() []Job {
	var out []Job
	for _, f := range All {
		for _, j := range f.Jobs {
			j.Function = f.Name
			out = append(out, j)
		}
	}
	return out
}

// Served lists the functions the API or a schedule invokes: those the
// devserver's `make run-lambda` runs (a Trigger's is another AWS service's).
func Served() []Function {
	var out []Function
	for _, f := range All {
		if f.API() || len(f.Jobs) > 0 {
			out = append(out, f)
		}
	}
	return out
}
