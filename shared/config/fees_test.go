package config_test

import (
	"strings"
	"testing"

	"aiwork/shared/config"
)

func TestPlatformFeePercent(t *testing.T) {
	t.Setenv("PLATFORM_FEE_PERCENT", "")
	if got, err := config.PlatformFeePercent(); err != nil || got != 20 {
		t.Errorf("default = %d, %v; want 20", got, err)
	}
	for raw, want := range map[string]int{"0": 0, "15": 15, "100": 100, " 25 ": 25} {
		t.Setenv("PLATFORM_FEE_PERCENT", raw)
		if got, err := config.PlatformFeePercent(); err != nil || got != want {
			t.Errorf("PLATFORM_FEE_PERCENT=%q = %d, %v; want %d", raw, got, err, want)
		}
	}
	for _, bad := range []string{"-1", "101", "20%", "12.5", "lots"} {
		t.Setenv("PLATFORM_FEE_PERCENT", bad)
		_, err := config.PlatformFeePercent()
		if err == nil || !strings.Contains(err.Error(), "PLATFORM_FEE_PERCENT") {
			t.Errorf("PLATFORM_FEE_PERCENT=%q: err = %v; want a refusal naming the variable", bad, err)
		}
	}
}

func TestLoadPaymentsReadsFeePercent(t *testing.T) {
	t.Setenv("JWT_SECRET", strings.Repeat("j", 32))
	t.Setenv("PLATFORM_FEE_PERCENT", "101")
	if _, err := config.LoadPayments(t.Context(), nil); err == nil || !strings.Contains(err.Error(), "PLATFORM_FEE_PERCENT") {
		t.Errorf("LoadPayments with PLATFORM_FEE_PERCENT=101: err = %v; want the fee's refusal", err)
	}
	t.Setenv("PLATFORM_FEE_PERCENT", "15")
	if p, err := config.LoadPayments(t.Context(), nil); err != nil || p.PlatformFeePercent != 15 {
		t.Errorf("LoadPayments with PLATFORM_FEE_PERCENT=15: %d, %v", p.PlatformFeePercent, err)
	}
}
