package llm

import (
	"context"
	"fmt"
	"log/slog"

	"aiwork/shared/config"
)

// retries is how often a request refused before any output is tried again.
const retries = 2

// RegistryFromConfig serves each provider with its real adapter when its
// key is configured (Meta: when Bedrock is switched on), else with the demo
// model. Keys are never logged.
func RegistryFromConfig(ctx context.Context, cfg config.Chat) (*Registry, error) {
	if err := ApplyOverrides(cfg.ModelMap); err != nil {
		return nil, err
	}
	r := NewRegistry(cfg.DemoDelay)
	if cfg.OpenAIKey != "" {
		r.Use("openai", NewOpenAI(Options{APIKey: cfg.OpenAIKey, BaseURL: cfg.OpenAIBaseURL, MaxRetries: retries}))
	}
	if cfg.AnthropicKey != "" {
		r.Use("anthropic", NewAnthropic(Options{APIKey: cfg.AnthropicKey, BaseURL: cfg.AnthropicBaseURL, MaxRetries: retries}))
	}
	if cfg.GeminiKey != "" {
		g, err := NewGoogle(ctx, Options{APIKey: cfg.GeminiKey, BaseURL: cfg.GeminiBaseURL, MaxRetries: retries})
		if err != nil {
			return nil, err
		}
		r.Use("google", g)
	}
	if cfg.MetaBedrock {
		awsCfg, err := config.AWS(ctx, cfg.Store.Region)
		if err != nil {
			return nil, fmt.Errorf("bedrock aws config: %w", err)
		}
		r.Use("meta", NewBedrock(awsCfg, Options{MaxRetries: retries}))
	}
	var real []string
	for _, p := range Providers {
		if _, demo, _ := r.Adapter(p.ID); !demo {
			real = append(real, p.ID)
		}
	}
	if len(real) > 0 {
		slog.InfoContext(ctx, "chat providers served by their APIs", "providers", real)
	}
	return r, nil
}
