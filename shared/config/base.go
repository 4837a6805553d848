package config

import (
	"context"
	"strings"
)

// Base is what each function's configuration starts with: the table and,
// for a function that signs users in or checks their tokens, the JWT key
// with its rotating versions (the webhook's has the table only).
type Base struct {
	Store     Store
	JWTSecret []byte
	JWTKeys   KeySource // reads the rotating keys (auth.Tokens.WithKeySource)
}

// LoadBase reads the table's settings and the JWT key.
func LoadBase(ctx context.Context, sm SecretFetcher) (Base, error) {
	secret, err := jwtSecret(ctx, sm)
	if err != nil {
		return Base{}, err
	}
	return Base{Store: LoadStore(), JWTSecret: secret, JWTKeys: JWTKeySource(sm)}, nil
}

// Providers are the chat's model providers: a key makes one real (the demo
// model serves the others). The mcp function reads them too, to say which
// connections are real.
type Providers struct {
	OpenAIKey    string
	AnthropicKey string
	GeminiKey    string
	// MetaBedrock serves Meta Llama through Amazon Bedrock (META_BEDROCK=1).
	MetaBedrock bool
	// Base URLs override the providers' (a gateway, a test server).
	OpenAIBaseURL    string
	AnthropicBaseURL string
	GeminiBaseURL    string
	// ModelMap remaps the catalogue's model ids (LLM_MODEL_MAP, JSON).
	ModelMap string
}

// LoadProviders reads the provider keys (secrets) and settings.
func LoadProviders(ctx context.Context, sm SecretFetcher) (Providers, error) {
	bedrock := strings.ToLower(Env("META_BEDROCK", ""))
	p := Providers{ModelMap: Env("LLM_MODEL_MAP", ""), MetaBedrock: bedrock == "1" || bedrock == "true",
		OpenAIBaseURL: Env("OPENAI_BASE_URL", ""), AnthropicBaseURL: Env("ANTHROPIC_BASE_URL", ""), GeminiBaseURL: Env("GEMINI_BASE_URL", "")}
	for name, dst := range map[string]*string{"OPENAI_API_KEY": &p.OpenAIKey, "ANTHROPIC_API_KEY": &p.AnthropicKey, "GEMINI_API_KEY": &p.GeminiKey} {
		var err error
		if *dst, err = Secret(ctx, sm, name); err != nil {
			return Providers{}, err
		}
	}
	return p, nil
}

// freePromptsPerUser reads FREE_PROMPTS_PER_USER (default 5): prompts
// grants the free uses, payments sends a user who has one left there.
func freePromptsPerUser() (int, error) { return EnvInt("FREE_PROMPTS_PER_USER", 5) }
