package mcpapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

const failuresPath = "/api/v1/mcp-oauth/errors/"

// failureDetail reads, as the user behind token, the detail a return
// address names by detail_id ("" when there is none or it is not theirs).
func (s *stack) failureDetail(ret url.Values, token string) string {
	s.t.Helper()
	id := ret.Get("detail_id")
	if id == "" {
		return ""
	}
	w := s.get(failuresPath+url.PathEscape(id), token)
	if w.Code != http.StatusOK {
		return ""
	}
	var got struct {
		Detail string `json:"detail"`
	}
	storetest.Must(s.t, json.Unmarshal(w.Body.Bytes(), &got), "failure detail")
	return got.Detail
}

// signInCodes are the codes a return may carry: the registry page has a
// message of its own for each.
var signInCodes = []string{"invalid_state", "state_used", "other_browser", "expired", "signed_out", "access_denied",
	"authorization_refused", "token_refused", "handshake_failed", "server_error"}

// carriesNoText fails unless the return address holds only a known code,
// a registry server id, and an opaque detail id: nothing a page could show
// as it came.
func carriesNoText(t *testing.T, what string, got url.Values, serverIDs ...string) {
	t.Helper()
	for k, vs := range got {
		switch {
		case len(vs) != 1:
			t.Errorf("%s: %s given %d times", what, k, len(vs))
		case k == "oauth_error" && !slices.Contains(signInCodes, vs[0]):
			t.Errorf("%s: oauth_error=%q is no known code", what, vs[0])
		case (k == "server" || k == "connected") && !slices.Contains(serverIDs, vs[0]):
			t.Errorf("%s: %s=%q is no registry id", what, k, vs[0])
		case k == "detail_id" && (len(vs[0]) != 43 || strings.ContainsAny(vs[0], " .:")):
			t.Errorf("%s: detail_id=%q is not an opaque id", what, vs[0])
		case !slices.Contains([]string{"oauth_error", "server", "connected", "detail_id"}, k):
			t.Errorf("%s: the return carries %s=%q", what, k, vs[0])
		}
	}
}

// TestSignInReturnCarriesNoText: whatever the authorization server sends
// back (an error of its own words, a description meant to be read on our
// page), the registry address carries a code, the server's registry id and
// a detail id; the detail, read by its user, is the product's sentence.
func TestSignInReturnCarriesNoText(t *testing.T) {
	t.Parallel()
	s := newSignInStack(t)
	_, token := s.user("no-text")
	spoof := "Your account is locked. Call 555-0100 at once."
	for _, tc := range []struct {
		name, err, wantCode, wantDetail string
	}{
		{"a standard refusal", "invalid_scope", "authorization_refused", "The authorization server refused the sign-in: invalid_scope."},
		{"a code of the server's own", spoof, "authorization_refused", "The authorization server refused the sign-in."},
		{"cancelled", "access_denied", "access_denied", ""},
	} {
		authURL, cookie := s.start(token)
		state := mustQuery(t, authURL).Get("state")
		back, _ := url.Parse("/x?" + url.Values{"state": {state}, "error": {tc.err}, "error_description": {spoof}}.Encode())
		got := s.callback(back, cookie)
		carriesNoText(t, tc.name, got, signInServer)
		if got.Get("oauth_error") != tc.wantCode || got.Get("server") != signInServer {
			t.Errorf("%s: %v, want oauth_error=%s", tc.name, got, tc.wantCode)
		}
		if d := s.failureDetail(got, token); d != tc.wantDetail {
			t.Errorf("%s: detail %q, want %q", tc.name, d, tc.wantDetail)
		}
	}
	// A made-up state and a missing cookie carry their code alone.
	forged, _ := url.Parse("/x?" + url.Values{"state": {"Zm9v.bar"}, "error": {spoof}, "error_description": {spoof}}.Encode())
	carriesNoText(t, "made-up state", s.callback(forged, nil))
	authURL, _ := s.start(token)
	carriesNoText(t, "no cookie", s.callback(approve(t, authURL), nil), signInServer)
}

// TestSignInFailureDetailIsTheUsers: a failure's detail is read only by the
// user whose sign-in it was, only for a few minutes; another user's id, an
// expired one, a made-up one are 404, and a visitor is asked to log in.
func TestSignInFailureDetailIsTheUsers(t *testing.T) {
	t.Parallel()
	s := newSignInStack(t)
	uid, token := s.user("detail-owner")
	_, other := s.user("detail-other")
	authURL, cookie := s.start(token)
	state := mustQuery(t, authURL).Get("state")
	back, _ := url.Parse("/x?" + url.Values{"state": {state}, "error": {"invalid_scope"}}.Encode())
	id := s.callback(back, cookie).Get("detail_id")
	if id == "" {
		t.Fatal("the refusal carries no detail_id")
	}
	w := s.get(failuresPath+id, token)
	got := apitest.Decode[struct {
		Code, ServerID, Detail string
	}](t, w, http.StatusOK)
	if !strings.Contains(w.Body.String(), `"server_id":"`+signInServer+`"`) || !strings.Contains(w.Body.String(), `"code":"authorization_refused"`) ||
		got.Detail != "The authorization server refused the sign-in: invalid_scope." {
		t.Errorf("owner reads %s", w.Body)
	}
	if w := s.get(failuresPath+id, other); w.Code != http.StatusNotFound {
		t.Errorf("another user reads the detail: %d %s", w.Code, w.Body)
	}
	if w := s.get(failuresPath+id, ""); w.Code != http.StatusUnauthorized {
		t.Errorf("a visitor reads the detail: %d %s", w.Code, w.Body)
	}
	if w := s.get(failuresPath+"made-up", token); w.Code != http.StatusNotFound {
		t.Errorf("a made-up id: %d %s", w.Code, w.Body)
	}
	// An expired one (the table's TTL deletes late): 404 all the same.
	expiredID := strings.Repeat("e", 43)
	storetest.Must(t, s.st.PutSignInFailure(context.Background(), uid, sha256Hex(expiredID), store.SignInFailure{
		ServerID: signInServer, Code: "token_refused", Detail: "old", Expires: time.Now().Add(-time.Second)}), "put expired")
	if w := s.get(failuresPath+expiredID, token); w.Code != http.StatusNotFound {
		t.Errorf("an expired id: %d %s", w.Code, w.Body)
	}
}

// TestSignInStartSaysItInWords: the start's error answers what failed in
// the product's words (what, the HTTP status, where), never the Go calls
// under it.
func TestSignInStartSaysItInWords(t *testing.T) {
	t.Parallel()
	s := newSignInStack(t)
	_, token := s.user("start-words")
	// A server that asks for sign-in and publishes no metadata: the
	// 2025-03-26 default endpoints at its origin are tried, and the
	// registration's is not there.
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(bare.Close)
	s.addServer(domain.MCPServer{ID: "no-metadata", Title: "No metadata", EndpointURL: bare.URL + "/mcp", OAuthRequired: true})
	w := s.do("/api/v1/mcp-oauth/start", token, `{"server_id":"no-metadata"}`)
	var got struct {
		Detail string `json:"detail"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &got)
	want := "No metadata refused to register this app (HTTP 404 at " + bare.URL + "/register)."
	if w.Code != http.StatusBadGateway || got.Detail != want {
		t.Errorf("start = %d %s\nwant 502 %q", w.Code, w.Body, want)
	}
	for _, goWord := range []string{"GetProtectedResourceMetadata", "metadataURL", "bad status", `Get "`, "registration failed"} {
		if strings.Contains(w.Body.String(), goWord) {
			t.Errorf("start's error holds %q: %s", goWord, w.Body)
		}
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
