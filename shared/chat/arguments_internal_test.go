package chat

import (
	"encoding/json"
	"strings"
	"testing"

	"aiwork/shared/domain"
)

// A null the schema does not take is left out when its argument is
// optional; a required one, or any other mismatch, is still refused.
func TestArgumentsLeaveOutOptionalNulls(t *testing.T) {
	tool := boundTool{tool: domain.MCPTool{Name: "t", InputSchema: json.RawMessage(
		`{"type":"object","properties":{"region":{"type":"string"},"verbose":{"type":"boolean"},"note":{"type":["string","null"]}},"required":["region"]}`)}}
	for _, tt := range []struct {
		raw, want, err string
	}{
		{`{"region":"eu","verbose":null}`, `{"region":"eu"}`, ""},
		{`{"region":"eu","note":null}`, `{"note":null,"region":"eu"}`, ""}, // null is allowed there: kept
		{`{"region":null,"verbose":true}`, "", "do not match"},
		{`{"region":"eu","verbose":null,"note":7}`, "", "do not match"},
	} {
		got, err := tool.arguments(tt.raw)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err %v, want %q", tt.raw, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.raw, err)
		default:
			b, _ := json.Marshal(got)
			if string(b) != tt.want {
				t.Errorf("%s: got %s, want %s", tt.raw, b, tt.want)
			}
		}
	}
}
