package mcp_test

import (
	"testing"

	"aiwork/shared/mcp"
)

func TestLast4(t *testing.T) {
	t.Parallel()
	tests := []struct{ key, want string }{
		{"", ""},
		{"abc", ""},
		{"1234567", ""},
		{"12345678", "5678"},
		{"sk-live-abcdefgh", "efgh"},
		{"ключ-секрет", "крет"},
	}
	for _, tc := range tests {
		if got := mcp.Last4(tc.key); got != tc.want {
			t.Errorf("Last4(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}
