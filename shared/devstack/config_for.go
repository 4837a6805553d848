package devstack

import (
	"time"

	"aiwork/shared/config"
)

// ConfigFor is the whole stack on one table with one signing key and the
// given free prompts per user and webhook secret: what the API tests and
// the bench start from, each changing the fields it is about.
func ConfigFor(st config.Store, jwtSecret []byte, freePrompts int, webhookSecret string) Config {
	return Config{
		Auth:     config.Auth{Store: st, JWTSecret: jwtSecret, TokenTTL: time.Hour},
		Prompts:  config.Prompts{Store: st, JWTSecret: jwtSecret, FreePromptsPerUser: freePrompts},
		Payments: config.Payments{Store: st, JWTSecret: jwtSecret, FreePromptsPerUser: freePrompts},
		Webhook:  config.Webhook{Store: st, WebhookSecret: webhookSecret},
		Chat:     config.Chat{Store: st, JWTSecret: jwtSecret, StallTimeout: 30 * time.Second},
	}
}
