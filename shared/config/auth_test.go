package config_test

import (
	"context"
	"strings"
	"testing"

	"aiwork/shared/config"
)

func TestAccountSettings(t *testing.T) {
	t.Setenv("JWT_SECRET", strings.Repeat("j", 32))
	ctx := context.Background()

	a, err := config.LoadAuth(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.RegisterLimitPerIP != config.DefaultRegisterLimitPerIP || a.MailFrom != "" {
		t.Errorf("defaults: limit %d, MAIL_FROM %q; want %d and empty", a.RegisterLimitPerIP, a.MailFrom, config.DefaultRegisterLimitPerIP)
	}
	p, err := config.LoadPrompts(ctx, nil)
	if err != nil || p.SkipEmailVerification {
		t.Errorf("default REQUIRE_EMAIL_VERIFICATION: skip = %v, %v; want verification required", p.SkipEmailVerification, err)
	}

	t.Setenv("REGISTER_LIMIT_PER_IP", "3")
	t.Setenv("MAIL_FROM", "AIWork <no-reply@example.com>")
	t.Setenv("REQUIRE_EMAIL_VERIFICATION", "false")
	if a, err = config.LoadAuth(ctx, nil); err != nil || a.RegisterLimitPerIP != 3 || a.MailFrom != "AIWork <no-reply@example.com>" {
		t.Errorf("set: %+v, %v", a, err)
	}
	if p, err = config.LoadPrompts(ctx, nil); err != nil || !p.SkipEmailVerification {
		t.Errorf("REQUIRE_EMAIL_VERIFICATION=false: skip = %v, %v", p.SkipEmailVerification, err)
	}
	t.Setenv("REGISTER_LIMIT_PER_IP", "0")
	if a, err = config.LoadAuth(ctx, nil); err != nil || a.RegisterLimitPerIP >= 0 {
		t.Errorf("REGISTER_LIMIT_PER_IP=0: limit %d, %v; want negative (off)", a.RegisterLimitPerIP, err)
	}

	// Bad values fail at start.
	for name, value := range map[string]string{"REGISTER_LIMIT_PER_IP": "ten", "MAIL_FROM": "not an address", "REQUIRE_EMAIL_VERIFICATION": "maybe"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, value)
			_, errA := config.LoadAuth(ctx, nil)
			_, errP := config.LoadPrompts(ctx, nil)
			if errA == nil && errP == nil {
				t.Errorf("%s=%q was accepted", name, value)
			}
		})
	}
}
