package config_test

import (
	"testing"

	"aiwork/shared/config"
)

func TestLoadChatLimits(t *testing.T) {
	for _, name := range config.ChatLimitVars {
		t.Setenv(name, "")
	}
	got, err := config.LoadChatLimits()
	if want := (config.ChatLimits{MaxConcurrentStreams: 3, RequestsPerMinute: 20, DailyTokenBudget: 200_000}); err != nil || got != want {
		t.Errorf("defaults = %+v, %v; want %+v", got, err, want)
	}
	t.Setenv("CHAT_MAX_CONCURRENT_STREAMS", "5")
	t.Setenv("CHAT_REQUESTS_PER_MINUTE", "60")
	t.Setenv("CHAT_DAILY_TOKEN_BUDGET", "0")
	got, err = config.LoadChatLimits()
	if want := (config.ChatLimits{MaxConcurrentStreams: 5, RequestsPerMinute: 60}); err != nil || got != want {
		t.Errorf("set = %+v, %v; want %+v (0: no budget)", got, err, want)
	}
	for _, bad := range []string{"-1", "lots", "2.5"} {
		t.Setenv("CHAT_DAILY_TOKEN_BUDGET", bad)
		if _, err := config.LoadChatLimits(); err == nil {
			t.Errorf("CHAT_DAILY_TOKEN_BUDGET=%s accepted", bad)
		}
	}
}
