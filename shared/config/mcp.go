package config

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// Outbound is where the backend may send MCP requests (DESIGN §7). The
// networks stay a string here so this package links no MCP code; shared/mcp
// parses them.
type Outbound struct {
	// AllowLoopback lets the local devserver reach the reference server;
	// never in Lambda, where the Runtime API listens on loopback.
	AllowLoopback bool
	// AllowedNetworks: comma-separated CIDRs an operator opens explicitly.
	AllowedNetworks string
	HTTPSOnly       bool
}

// MCPClient is how a function reaches users' MCP servers: the key that
// seals (mcp) and opens (chat) their server keys, the outbound rules, and
// the bound of a handshake.
type MCPClient struct {
	// KeyEncryptionKey seals users' server API keys (AES-256: 32 bytes).
	KeyEncryptionKey []byte
	Outbound         Outbound
	// ConnectTimeout bounds one connect handshake (MCP_CONNECT_TIMEOUT).
	ConnectTimeout time.Duration
	// SessionIdle is how long a warm session to a user's server (and the
	// server's standalone stream it listens on) stays open unused
	// (MCP_SESSION_IDLE, default DefaultSessionIdle).
	SessionIdle time.Duration
}

// DefaultSessionIdle keeps a session warm across a conversation's messages.
const DefaultSessionIdle = 5 * time.Minute

// LoadMCPClient reads the MCP key, the outbound rules and the handshake's
// bound.
func LoadMCPClient(ctx context.Context, sm SecretFetcher) (MCPClient, error) {
	key, err := mcpKey(ctx, sm)
	if err != nil {
		return MCPClient{}, err
	}
	c := MCPClient{KeyEncryptionKey: key, Outbound: LoadOutbound()}
	if c.ConnectTimeout, err = EnvDuration("MCP_CONNECT_TIMEOUT", DefaultConnectTimeout); err != nil {
		return MCPClient{}, err
	}
	if c.SessionIdle, err = EnvDuration("MCP_SESSION_IDLE", DefaultSessionIdle); err != nil {
		return MCPClient{}, err
	}
	return c, nil
}

// MCP is the mcp route group's configuration: the registry's connects, and
// the chat provider connections it also serves.
type MCP struct {
	Base
	Providers
	MCPClient
	// ConnectsPerMinute and HostConnectsPerMinute keep the service from being
	// a scanner: per user, and per target host across all users.
	ConnectsPerMinute     int
	HostConnectsPerMinute int
	// PublicURL is where browsers reach the site: the OAuth redirect URI
	// and the client metadata document are under it (PUBLIC_URL).
	PublicURL string
	// ClientMetadataURL is where the site's Client ID Metadata Document is
	// published, used as its client_id at authorization servers that take
	// one (MCP_OAUTH_CLIENT_METADATA_URL, https): for a site whose own
	// address is not https (a local run), or that publishes the document
	// elsewhere. Empty: <PublicURL>/api/v1/mcp-oauth/client-metadata.json
	// when that is https.
	ClientMetadataURL string
}

// ClientMetadataURLVar names MCP_OAUTH_CLIENT_METADATA_URL.
const ClientMetadataURLVar = "MCP_OAUTH_CLIENT_METADATA_URL"

// MCPJobs is the scheduled registry work: import and health probes.
type MCPJobs struct {
	// Base holds the table only: the jobs handle public data, no user.
	Base
	// RegistryURL is a registry speaking the official API; empty: no import.
	RegistryURL string
	Outbound    Outbound
}

// LocalLambdaVar marks a function process run by make run-lambda
// (shared/local/lambdalocal): the stack never sets it.
const LocalLambdaVar = "LAMBDA_LOCAL_EMULATOR"

// inLambda is true inside AWS Lambda, not in make run-lambda's processes,
// which reach the local MCP reference server on loopback.
func inLambda() bool {
	return os.Getenv("AWS_LAMBDA_FUNCTION_NAME") != "" && os.Getenv(LocalLambdaVar) != "true"
}

// LoadOutbound reads MCP_ALLOW_LOOPBACK, MCP_ALLOWED_NETWORKS and
// MCP_HTTPS_ONLY. Inside Lambda loopback is refused and https required,
// whatever the environment says.
func LoadOutbound() Outbound {
	o := Outbound{
		AllowLoopback:   Env("MCP_ALLOW_LOOPBACK", "") == "true",
		AllowedNetworks: Env("MCP_ALLOWED_NETWORKS", ""),
		HTTPSOnly:       Env("MCP_HTTPS_ONLY", "") == "true",
	}
	if inLambda() {
		o.AllowLoopback, o.HTTPSOnly = false, true
	}
	return o
}

// LoadMCP reads the mcp group's settings.
func LoadMCP(ctx context.Context, sm SecretFetcher) (MCP, error) {
	base, err := LoadBase(ctx, sm)
	if err != nil {
		return MCP{}, err
	}
	m := MCP{Base: base, PublicURL: strings.TrimRight(Env("PUBLIC_URL", ""), "/")}
	if m.Providers, err = LoadProviders(ctx, sm); err != nil {
		return MCP{}, err
	}
	if m.MCPClient, err = LoadMCPClient(ctx, sm); err != nil {
		return MCP{}, err
	}
	if m.ConnectsPerMinute, err = EnvInt("MCP_CONNECTS_PER_MINUTE", 10); err != nil {
		return MCP{}, err
	}
	if m.HostConnectsPerMinute, err = EnvInt("MCP_HOST_CONNECTS_PER_MINUTE", 60); err != nil {
		return MCP{}, err
	}
	m.ClientMetadataURL = Env(ClientMetadataURLVar, "")
	if u, perr := url.Parse(m.ClientMetadataURL); m.ClientMetadataURL != "" && (perr != nil || u.Scheme != "https" || u.Host == "") {
		return MCP{}, fmt.Errorf("%s must be an https URL", ClientMetadataURLVar)
	}
	return m, nil
}

// mcpKey reads MCP_KEY_ENCRYPTION_KEY, the AES-256 key sealing users'
// server keys (the mcp function seals, the chat function opens) and
// operators' OAuth client secrets (the admin function seals, mcp opens).
func mcpKey(ctx context.Context, sm SecretFetcher) ([]byte, error) {
	raw, err := Secret(ctx, sm, "MCP_KEY_ENCRYPTION_KEY")
	if err != nil {
		return nil, err
	}
	if raw == "" {
		return nil, errors.New("MCP_KEY_ENCRYPTION_KEY (or MCP_KEY_ENCRYPTION_KEY_ARN) is required: 64 hex digits")
	}
	key, err := hex.DecodeString(raw)
	if err != nil || len(key) != 32 {
		return nil, fmt.Errorf("MCP_KEY_ENCRYPTION_KEY must be 64 hex digits (32 bytes)")
	}
	return key, nil
}

// LoadMCPJobs reads the scheduled jobs' settings; they need no secret.
func LoadMCPJobs() MCPJobs {
	return MCPJobs{Base: Base{Store: LoadStore()}, RegistryURL: Env("MCP_REGISTRY_URL", ""), Outbound: LoadOutbound()}
}
