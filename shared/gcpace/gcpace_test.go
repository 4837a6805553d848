package gcpace

import (
	"os"
	"runtime/debug"
	"testing"
)

func TestMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1024", 768 << 20, true},
		{"512", 384 << 20, true},
		{"", 0, false},
		{"0", 0, false},
		{"-5", 0, false},
		{"lots", 0, false},
		{"99999999999999999", 0, false},
	} {
		got, ok := memoryLimit(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("memoryLimit(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestApplyKeepsWhatTheEnvironmentSets(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))

	t.Setenv("GOGC", "150")
	t.Setenv("GOMEMLIMIT", "1GiB")
	t.Setenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512")
	debug.SetGCPercent(150)
	before := debug.SetMemoryLimit(-1)
	Apply()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("GOMEMLIMIT set in the environment: limit %d, want %d kept", got, before)
	}
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("GOGC set in the environment: percent %d, want 150 kept", got)
	}
}

func TestApplyInALambdaFunction(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))

	t.Setenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512")
	unsetenv(t, "GOGC")
	unsetenv(t, "GOMEMLIMIT")
	Apply()
	if got := debug.SetGCPercent(100); got != Percent {
		t.Errorf("percent %d, want %d", got, Percent)
	}
	if got := debug.SetMemoryLimit(-1); got != 384<<20 {
		t.Errorf("memory limit %d, want %d", got, 384<<20)
	}
}

// unsetenv removes key for the test; t.Setenv puts it back afterwards.
func unsetenv(t *testing.T, key string) {
	t.Setenv(key, "")
	if err := os.Unsetenv(key); err != nil {
		t.Fatal(err)
	}
}
