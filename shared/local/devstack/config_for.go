package devstack

import (
	"time"

	"aiwork/shared/config"
)

// ConfigFor is the whole stack on one table with one signing key and the
// given free prompts per user and webhook secret: what the API tests and
// the bench start from, each changing the fields it is about.
func ConfigFor(st config.Store, jwtSecret []byte, freePrompts int, webhookSecret string) Config {
	base := config.Base{Store: st, JWTSecret: jwtSecret}
	return Config{
		Auth:     config.Auth{Base: base, TokenTTL: time.Hour},
		Prompts:  config.Prompts{Base: base, FreePromptsPerUser: freePrompts},
		Payments: config.Payments{Base: base, FreePromptsPerUser: freePrompts, PlatformFeePercent: config.DefaultPlatformFeePercent},
		Webhook:  config.Webhook{Base: config.Base{Store: st}, WebhookSecret: webhookSecret},
		Chat:     config.Chat{Base: base, StallTimeout: 30 * time.Second},
		MCP:      config.MCP{Base: base},
		Admin:    config.Admin{Base: base},
		Creators: config.Creators{Base: base},
	}
}
