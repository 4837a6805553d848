package providers

import (
	"aiwork/shared/llm"
	"context"
	"log/slog"

	"aiwork/shared/config"
)

// retries is how often a request refused before any output is tried again.
const retries = 2

// RegistryFromConfig serves each provider with its real adapter when its
// key is configured (Meta: when Bedrock is switched on), else with the demo
// model. Keys are never logged.
func RegistryFromConfig(ctx context.Context, cfg config.Chat) (*llm.Registry, error) {
	if err := llm.ApplyOverrides(cfg.ModelMap); err != nil {
		return nil, err
	}
	r := llm.NewRegistry(cfg.DemoDelay)
	real := llm.RealProviders(cfg.Providers)
	if real["openai"] {
		r.Use("openai", NewOpenAI(Options{APIKey: cfg.OpenAIKey, BaseURL: cfg.OpenAIBaseURL, MaxRetries: retries}))
	}
	if real["anthropic"] {
		r.Use("anthropic", NewAnthropic(Options{APIKey: cfg.AnthropicKey, BaseURL: cfg.AnthropicBaseURL, MaxRetries: retries}))
	}
	if real["google"] {
		r.Use("google", NewGoogle(Options{APIKey: cfg.GeminiKey, BaseURL: cfg.GeminiBaseURL, MaxRetries: retries}))
	}
	if real["meta"] {
		r.Use("meta", NewBedrock(config.AWS(cfg.Store.Region), Options{MaxRetries: retries}))
	}
	var served []string
	for _, p := range llm.Providers {
		if _, demo, _ := r.Adapter(p.ID); !demo {
			served = append(served, p.ID)
		}
	}
	if len(served) > 0 {
		slog.InfoContext(ctx, "chat providers served by their APIs", "providers", served)
	}
	return r, nil
}
