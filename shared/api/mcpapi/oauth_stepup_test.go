package mcpapi_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/mcpapi"
)

// TestSignInForAToolCall: a sign-in a chat reply paused for asks for the
// scope the tool call's server named beside its own, and brings the
// browser back to the chat page with the same codes as the registry's;
// return_to is a page's name (an address is refused) and scope only OAuth
// scope tokens.
func TestSignInForAToolCall(t *testing.T) {
	t.Parallel()
	as := (&fakeAS{}).start(t)
	s, _, token := newFlowStack(t, newProtected(t, as, false).endpoint)
	for _, body := range []string{
		`{"server_id":"fake-oauth","return_to":"https://evil.example.com/"}`,
		`{"server_id":"fake-oauth","return_to":"/llm-chat"}`,
		`{"server_id":"fake-oauth","scope":"mcp:write\"x"}`,
		`{"server_id":"fake-oauth","scope":"` + strings.Repeat("s", 1001) + `"}`,
	} {
		if w := apitest.Do(s.h, http.MethodPost, mcpapi.OAuthStartPath, token, body, nil); w.Code != http.StatusBadRequest {
			t.Errorf("start %s: %d, want 400", body, w.Code)
		}
	}

	w := apitest.Do(s.h, http.MethodPost, mcpapi.OAuthStartPath, token, `{"server_id":"fake-oauth","scope":"mcp:write","return_to":"chat"}`, nil)
	got := apitest.Decode[struct {
		AuthorizationURL string   `json:"authorization_url"`
		Scopes           []string `json:"scopes"`
	}](t, w, http.StatusOK)
	u, _ := url.Parse(got.AuthorizationURL)
	if !strings.Contains(" "+u.Query().Get("scope")+" ", " mcp:write ") {
		t.Fatalf("authorization URL scope %q, want mcp:write in it", u.Query().Get("scope"))
	}
	req := httptest.NewRequest(http.MethodGet, mcpapi.OAuthCallbackPath+"?"+approve(t, got.AuthorizationURL).RawQuery, nil)
	for _, c := range w.Result().Cookies() {
		req.AddCookie(c)
	}
	cw := httptest.NewRecorder()
	s.h.ServeHTTP(cw, req)
	loc, err := url.Parse(cw.Header().Get("Location"))
	if cw.Code != http.StatusFound || err != nil || loc.Path != "/llm-chat" || loc.Query().Get("connected") != "fake-oauth" {
		t.Fatalf("callback = %d, Location %q, want /llm-chat?connected=fake-oauth", cw.Code, cw.Header().Get("Location"))
	}
}
