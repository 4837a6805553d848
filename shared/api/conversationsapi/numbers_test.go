package conversationsapi_test

import (
	"net/http"
	"strings"
	"testing"

	"aiwork/shared/api/apitest"
	"aiwork/shared/chat/chattest"
)

// An uploaded reply's usage is held to what a reply can spend: a number
// out of that range (the table could not even hold 1e126, 1e300 or
// 1e-200) is a 400 naming the field, and nothing is stored.
func TestUploadedUsageOutOfRange(t *testing.T) {
	t.Parallel()
	s := newStack(t, nil, nil)
	_, token := s.user()
	for _, tc := range []struct{ usage, field string }{
		{`{"cost_usd":1e126}`, "messages[1].usage.cost_usd"},
		{`{"cost_usd":1e300}`, "messages[1].usage.cost_usd"},
		{`{"cost_usd":1e-200}`, "messages[1].usage.cost_usd"},
		{`{"cost_usd":1000001}`, "messages[1].usage.cost_usd"},
		{`{"cost_usd":-0.5}`, "messages[1].usage.cost_usd"},
		{`{"input_tokens":1000000001}`, "messages[1].usage.input_tokens"},
		{`{"output_tokens":9000000000000000000}`, "messages[1].usage.output_tokens"},
		{`{"output_tokens":-1}`, "messages[1].usage.output_tokens"},
	} {
		body := `{"provider":"openai","model":"gpt-4o-mini","upload_key":"k","messages":[{"role":"user","content":"hi"},` +
			`{"role":"assistant","content":"hello","usage":` + tc.usage + `}]}`
		got := chattest.WantError(t, s.do("POST", convPath, token, body), http.StatusBadRequest)
		if !strings.HasPrefix(got.Detail, tc.field+" ") {
			t.Errorf("usage %s: detail %q, want it to name %s", tc.usage, got.Detail, tc.field)
		}
	}
	if l := apitest.Decode[chattest.ConversationList](t, s.do("GET", convPath, token, ""), http.StatusOK); l.Total != 0 {
		t.Errorf("out-of-range usages stored %d conversations", l.Total)
	}
	// The bounds themselves are fine, and a cost's usual tiny fractions.
	body := `{"provider":"openai","model":"gpt-4o-mini","messages":[{"role":"assistant","content":"a",` +
		`"usage":{"input_tokens":1000000000,"output_tokens":0,"cost_usd":1000000}},{"role":"assistant","content":"b","usage":{"cost_usd":0.000012345678901234}}]}`
	apitest.Decode[chattest.Conversation](t, s.do("POST", convPath, token, body), http.StatusCreated)
}
