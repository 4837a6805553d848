package llm

import (
	"context"

	"aiwork/shared/config"
)

// RegistryFromConfig serves each provider with its real adapter when its
// key is configured, else with the demo model.
func RegistryFromConfig(ctx context.Context, cfg config.Chat) (*Registry, error) {
	if err := ApplyOverrides(cfg.ModelMap); err != nil {
		return nil, err
	}
	r := NewRegistry(cfg.DemoDelay)
	return r, nil
}
