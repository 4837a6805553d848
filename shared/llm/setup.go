package llm

import "aiwork/shared/config"

// RealProviders reports which providers the configuration serves through
// their real APIs; the others get the local demo model.
func RealProviders(cfg config.Providers) map[string]bool {
	return map[string]bool{
		"openai":    cfg.OpenAIKey != "",
		"anthropic": cfg.AnthropicKey != "",
		"google":    cfg.GeminiKey != "",
		"meta":      cfg.MetaBedrock,
	}
}
