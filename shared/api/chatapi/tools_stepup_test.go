package chatapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/api/mcpapi"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/mcp"
	"aiwork/shared/routes"
	"aiwork/shared/store/storetest"
)

// signinJSON is a tool_signin frame.
type signinJSON struct {
	ID           string `json:"id"`
	ServerID     string `json:"server_id"`
	ServerName   string `json:"server_name"`
	ConnectionID string `json:"connection_id"`
	EndpointURL  string `json:"endpoint_url"`
	Scope        string `json:"scope"`
	Reason       string `json:"reason"`
	Token        string `json:"token"`
	SigninID     string `json:"signin_id"`
	ExpiresAt    string `json:"expires_at"`
}

// stepUpServer is an MCP server and its authorization server in one: it
// lets initialize and notifications through without a token, wants
// mcp:basic for the rest, and mcp:write for tools/call (403
// insufficient_scope naming only mcp:write, as the conformance suite's
// step-up scenario does); with never, no token is ever enough for a call.
// Its tokens carry the scopes they were granted.
type stepUpServer struct {
	*toolServer
	endpoint string
	never    bool
	// callOnly lets everything but tools/call through without a token: a
	// server connected with no key that asks for sign-in only when a tool
	// is called.
	callOnly bool

	mu         sync.Mutex
	authorized []string // the scope of each authorization request
}

func newStepUpServer(t *testing.T, never bool) *stepUpServer {
	return startStepUpServer(t, &stepUpServer{never: never})
}

func startStepUpServer(t *testing.T, su *stepUpServer) *stepUpServer {
	t.Helper()
	su.toolServer = newToolServer(t, su.guard, testTool{name: "write", readOnly: true,
		handle: func(context.Context, map[string]any) (*sdk.CallToolResult, error) { return textResult("written"), nil }})
	su.endpoint = su.url + "/mcp"
	return su
}

func (su *stepUpServer) authorizations() []string {
	su.mu.Lock()
	defer su.mu.Unlock()
	return slices.Clone(su.authorized)
}

func (su *stepUpServer) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		prm := base + "/.well-known/oauth-protected-resource/mcp"
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			writeJSON(w, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
			return
		case "/.well-known/oauth-authorization-server":
			writeJSON(w, map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
				"registration_endpoint": base + "/register", "response_types_supported": []string{"code"},
				"code_challenge_methods_supported": []string{"S256"}})
			return
		case "/register":
			var body map[string]any
			_ = json.NewDecoder(r.Body).Decode(&body)
			w.WriteHeader(http.StatusCreated)
			writeJSON(w, map[string]any{"client_id": "stepup-client", "redirect_uris": body["redirect_uris"], "token_endpoint_auth_method": "none"})
			return
		case "/authorize":
			q := r.URL.Query()
			su.mu.Lock()
			su.authorized = append(su.authorized, q.Get("scope"))
			su.mu.Unlock()
			back, _ := url.Parse(q.Get("redirect_uri"))
			back.RawQuery = url.Values{"code": {q.Get("scope")}, "state": {q.Get("state")}, "iss": {base}}.Encode()
			http.Redirect(w, r, back.String(), http.StatusFound)
			return
		case "/token":
			_ = r.ParseForm()
			writeJSON(w, map[string]any{"access_token": "tok_" + strings.ReplaceAll(r.PostForm.Get("code"), " ", "_"), "token_type": "Bearer", "expires_in": 3600})
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		if r.Method == http.MethodPost && (m.Method == "initialize" || strings.HasPrefix(m.Method, "notifications/")) ||
			su.callOnly && m.Method != "tools/call" {
			next.ServeHTTP(w, r)
			return
		}
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer tok_")
		if !ok {
			scope := "mcp:basic"
			if su.callOnly {
				scope = "mcp:write"
			}
			w.Header().Set("WWW-Authenticate", `Bearer scope="`+scope+`", resource_metadata="`+prm+`"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		scopes := strings.Split(tok, "_")
		need := "mcp:basic"
		if m.Method == "tools/call" {
			need = "mcp:write"
		}
		if !slices.Contains(scopes, need) || (su.never && m.Method == "tools/call") {
			w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+need+`", resource_metadata="`+prm+`"`)
			w.WriteHeader(http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// signInThrough signs in as the browser does: start (with body), the
// authorization server's page, the callback with the flow's cookie; it
// answers where the browser is sent back to.
func (s *stack) signInThrough(token string, body map[string]string) *url.URL {
	s.t.Helper()
	w := s.do(http.MethodPost, mcpapi.OAuthStartPath, token, chattest.MustJSON(body))
	start := apitest.Decode[struct {
		AuthorizationURL string `json:"authorization_url"`
	}](s.t, w, http.StatusOK)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.Get(start.AuthorizationURL)
	storetest.Must(s.t, err, "authorization page")
	res.Body.Close()
	back, err := url.Parse(res.Header.Get("Location"))
	storetest.Must(s.t, err, "authorization answer")
	req := httptest.NewRequest(http.MethodGet, mcpapi.OAuthCallbackPath+"?"+back.RawQuery, nil)
	for _, c := range w.Result().Cookies() {
		req.AddCookie(c)
	}
	cw := httptest.NewRecorder()
	s.h.ServeHTTP(cw, req)
	loc, err := url.Parse(cw.Header().Get("Location"))
	if cw.Code != http.StatusFound || err != nil {
		s.t.Fatalf("callback: %d %q", cw.Code, cw.Header().Get("Location"))
	}
	return loc
}

// stepUpStack is a user signed in (mcp:basic) to a step-up server through
// the OAuth routes, with a chat connection to a model that calls its tool
// write.
func stepUpStack(t *testing.T, never bool) (s *stack, su *stepUpServer, uid, token, conn, mcpID string) {
	t.Helper()
	su = newStepUpServer(t, never)
	s = newToolStack(t, map[string]llm.Provider{"openai": callsTool("write", `{}`)}, nil)
	s.addMCPServer(domain.MCPServer{ID: "stepup", Title: "Step Up", EndpointURL: su.endpoint, OAuthRequired: true})
	uid, token = s.user()
	if back := s.signInThrough(token, map[string]string{"server_id": "stepup"}); back.Path != "/registry" || back.Query().Get("connected") != "stepup" {
		t.Fatalf("first sign-in returned to %s", back)
	}
	conns, err := s.st.ListMCPConnections(context.Background(), uid)
	storetest.Must(t, err, "connections")
	if len(conns) != 1 || !conns[0].OAuth {
		t.Fatalf("connections after the first sign-in: %+v", conns)
	}
	return s, su, uid, token, s.connect(token, "openai", "gpt-4o-mini"), conns[0].ID
}

// signInMsg resumes a paused reply after the sign-in.
type signInMsg struct {
	ConnectionID string       `json:"connection_id"`
	Message      string       `json:"message"`
	SignIn       signInAnswer `json:"signin"`
}

type signInAnswer struct {
	Token string `json:"token,omitempty"`
	ID    string `json:"id,omitempty"`
}

func resumeOn(h http.Handler, token, conn string, a signInAnswer) *httptest.ResponseRecorder {
	return apitest.Do(h, http.MethodPost, chatapi.Path, token, chattest.MustJSON(signInMsg{ConnectionID: conn, SignIn: a}), nil)
}

// TestToolSignInStepUp: a tool call the server refuses for a scope (403
// insufficient_scope, after it let the connection and its tools list
// through) pauses the reply with a tool_signin frame in the tool block and
// no [DONE]; the sign-in it leads to asks for the scope the server named
// plus what the connection had, and comes back to the chat; the reply
// resumes with the frame's token and runs the call once, in the same
// reply. The token is single use (409 again) and the user's own (404 for
// anyone else).
func TestToolSignInStepUp(t *testing.T) {
	t.Parallel()
	s, su, _, token, conn, mcpID := stepUpStack(t, false)
	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "write it", MCPConnectionIDs: []string{mcpID}})
	if r.done || len(r.signins) != 1 || len(r.results) != 0 || len(r.calls) != 1 || r.order[len(r.order)-1] != "tool_signin" {
		t.Fatalf("reply %s: want the call, then a tool_signin frame ending the stream without [DONE]", r.raw)
	}
	f := r.signins[0]
	if f.ID != r.calls[0].ID || f.ServerID != "stepup" || f.ConnectionID != mcpID || f.Scope != "mcp:write" || f.EndpointURL != su.endpoint ||
		!strings.HasPrefix(f.Token, "ts_") || f.SigninID == "" || f.ExpiresAt == "" || !strings.Contains(f.Reason, "Step Up needs you to sign in") {
		t.Fatalf("tool_signin %+v", f)
	}
	if got := su.called(); len(got) != 0 {
		t.Fatalf("the tool ran before the sign-in: %v", got)
	}

	back := s.signInThrough(token, map[string]string{"server_id": f.ServerID, "endpoint_url": f.EndpointURL, "scope": f.Scope, "return_to": "chat"})
	if back.Path != "/llm-chat" || back.Query().Get("connected") != "stepup" {
		t.Fatalf("the step-up sign-in returned to %s, want /llm-chat?connected=stepup", back)
	}
	if got := su.authorizations(); len(got) != 2 || got[1] != "mcp:basic mcp:write" {
		t.Fatalf("authorization requests asked for %q, want the challenge's scope with what the connection had", got)
	}

	_, other := s.user()
	if w := resumeOn(s.h, other, conn, signInAnswer{Token: f.Token}); w.Code != http.StatusNotFound {
		t.Errorf("another user's resume: %d %s, want 404", w.Code, w.Body)
	}
	w := resumeOn(s.h, token, conn, signInAnswer{Token: f.Token})
	if w.Code != http.StatusOK {
		t.Fatalf("resume: %d %s", w.Code, w.Body)
	}
	res := parseReply(t, w.Body.String())
	if !res.done || len(res.results) != 1 || res.results[0].IsError || res.results[0].ID != f.ID || !strings.Contains(res.text, "write error=false") {
		t.Fatalf("resumed reply %s: want the call's result, the model's answer, [DONE]", res.raw)
	}
	if got := su.called(); len(got) != 1 {
		t.Errorf("the tool ran %d times, want once", len(got))
	}
	if w := resumeOn(s.h, token, conn, signInAnswer{Token: f.Token}); w.Code != http.StatusConflict {
		t.Errorf("replayed resume: %d %s, want 409", w.Code, w.Body)
	}
}

// TestToolSignInRetryLimit: a server that still refuses after signing in
// with the scope it asked for is asked for sign-in twice in one call (with
// the first sign-in, three authorization requests: the conformance suite's
// limit); the third refusal fails the call saying so, the model is told,
// and the reply ends.
func TestToolSignInRetryLimit(t *testing.T) {
	t.Parallel()
	s, su, _, token, conn, mcpID := stepUpStack(t, true)
	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "write it", MCPConnectionIDs: []string{mcpID}})
	for i := range 3 {
		if i == 2 {
			if !r.done || len(r.signins) != 0 || len(r.results) != 1 || !r.results[0].IsError ||
				!strings.Contains(r.results[0].text(), "Step Up still refuses after signing in with the scope it asked for") ||
				!strings.Contains(r.text, "write error=true") {
				t.Fatalf("after two sign-ins: %s; want the call failed saying the server still refuses, then the model's answer", r.raw)
			}
			break
		}
		if len(r.signins) != 1 || r.done {
			t.Fatalf("round %d: %s, want a tool_signin pause", i, r.raw)
		}
		s.signInThrough(token, map[string]string{"server_id": "stepup", "endpoint_url": su.endpoint, "scope": r.signins[0].Scope, "return_to": "chat"})
		w := resumeOn(s.h, token, conn, signInAnswer{ID: r.signins[0].SigninID})
		if w.Code != http.StatusOK {
			t.Fatalf("resume %d: %d %s", i, w.Code, w.Body)
		}
		r = parseReply(t, w.Body.String())
	}
	if n := len(su.authorizations()); n != 3 {
		t.Errorf("%d authorization requests, want 3 (the first sign-in and two step-ups)", n)
	}
}

// TestToolSignInResumedOnAnotherInstance: the sign-in's return may reach
// another chat instance: the paused reply is in the table, and the call
// runs there.
func TestToolSignInResumedOnAnotherInstance(t *testing.T) {
	t.Parallel()
	s, su, _, token, conn, mcpID := stepUpStack(t, false)
	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "write it", MCPConnectionIDs: []string{mcpID}})
	if len(r.signins) != 1 {
		t.Fatalf("reply %s", r.raw)
	}
	s.signInThrough(token, map[string]string{"server_id": "stepup", "endpoint_url": su.endpoint, "scope": r.signins[0].Scope, "return_to": "chat"})

	pool := mcp.NewPool(mcp.Policy{AllowLoopback: true}.Client(), time.Minute, 4)
	t.Cleanup(pool.Close)
	reg := llm.NewRegistry(0)
	reg.Use("openai", callsTool("write", `{}`))
	second := chatapi.New(s.st, s.tokens, reg, chatapi.Options{StallTimeout: patience, Tools: chatapi.ToolOptions{Sealer: toolSealer, Pool: pool}}).Handler()
	w := resumeOn(second, token, conn, signInAnswer{Token: r.signins[0].Token})
	if w.Code != http.StatusOK {
		t.Fatalf("resume on the second instance: %d %s", w.Code, w.Body)
	}
	res := parseReply(t, w.Body.String())
	if !res.done || len(res.results) != 1 || res.results[0].IsError || len(su.called()) != 1 {
		t.Fatalf("resumed on the second instance: %s", res.raw)
	}
}

// TestToolSignInKeptWithConversation: a reply kept with its conversation
// and paused for a sign-in keeps its tool_signin frame without the token
// (a page reloaded after the sign-in's round trip resumes it by its
// signin_id); re-attached it ends there, without [DONE]; resumed by id it
// goes on in the same message.
func TestToolSignInKeptWithConversation(t *testing.T) {
	t.Parallel()
	s, su, _, token, conn, mcpID := stepUpStack(t, false)
	conv := s.newConversation(token, "Step up")
	w := s.sendWithin(token, map[string]any{"connection_id": conn, "message": "write it", "context": []any{},
		"mcp_connection_ids": []string{mcpID}, "conversation_id": conv.ID}, patience)
	r := parseReply(t, withoutMessageIDs(w.Body.String()))
	if len(r.signins) != 1 || r.done {
		t.Fatalf("reply %s", r.raw)
	}
	f := r.signins[0]
	msgs := s.messages(token, conv.ID)
	last := msgs[len(msgs)-1]
	if len(last.Blocks) == 0 || !last.Complete {
		t.Fatalf("kept reply %+v", last)
	}
	var stored struct {
		Signin map[string]json.RawMessage `json:"tool_signin"`
	}
	storetest.Must(t, json.Unmarshal(last.Blocks[len(last.Blocks)-1].Frame, &stored), "stored frame")
	if _, has := stored.Signin["token"]; has || string(stored.Signin["signin_id"]) != `"`+f.SigninID+`"` || string(stored.Signin["scope"]) != `"mcp:write"` {
		t.Fatalf("stored tool_signin %s, want its signin_id and scope, no token", last.Blocks[len(last.Blocks)-1].Frame)
	}
	re := s.do(http.MethodGet, routes.ChatConversationsPath+"/"+conv.ID+"/messages/"+last.ID+"/stream", token, "")
	if body := re.Body.String(); re.Code != http.StatusOK || strings.Contains(body, "[DONE]") || !strings.Contains(body, `"tool_signin"`) || strings.Contains(body, f.Token) {
		t.Errorf("re-attached paused reply: %d\n%s\nwant its tool_signin frame (no token) and no [DONE]", re.Code, body)
	}

	s.signInThrough(token, map[string]string{"server_id": "stepup", "endpoint_url": su.endpoint, "scope": f.Scope, "return_to": "chat"})
	w = s.sendWithin(token, map[string]any{"connection_id": conn, "signin": map[string]string{"id": f.SigninID}}, patience)
	if w.Code != http.StatusOK {
		t.Fatalf("resume by id: %d %s", w.Code, w.Body)
	}
	if res := parseReply(t, withoutMessageIDs(w.Body.String())); !res.done || len(res.results) != 1 || res.results[0].IsError {
		t.Fatalf("resumed by id: %s", res.raw)
	}
	msgs = s.messages(token, conv.ID)
	if len(msgs) != 2 || !strings.Contains(msgs[1].Content, "write error=false") {
		t.Errorf("kept messages after the resume: %+v, want the same reply gone on", msgs)
	}
}

// TestToolSignInKeylessConnection: a server connected with no key that
// asks for sign-in only when a tool is called (401 with an OAuth
// challenge) pauses the reply with a tool_signin frame saying so; the
// sign-in, started with the frame's connection, turns that connection into
// a signed-in one (same id: no second connection), comes back to the chat,
// and the resumed reply runs the call once.
func TestToolSignInKeylessConnection(t *testing.T) {
	t.Parallel()
	su := startStepUpServer(t, &stepUpServer{callOnly: true})
	s := newToolStack(t, map[string]llm.Provider{"openai": callsTool("write", `{}`)}, nil)
	token, conn, mcpID := s.serverUser("calls", "Calls Only", su.endpoint)
	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "write it", MCPConnectionIDs: []string{mcpID}})
	if r.done || len(r.signins) != 1 || len(r.results) != 0 {
		t.Fatalf("reply %s: want a tool_signin pause without [DONE]", r.raw)
	}
	f := r.signins[0]
	if f.ConnectionID != mcpID || f.Scope != "mcp:write" || f.Reason != "Calls Only needs you to sign in before write can run." {
		t.Fatalf("tool_signin %+v", f)
	}

	_, other := s.user()
	otherConn := s.connectMCP(other, "calls", "")
	start := map[string]string{"server_id": "calls", "endpoint_url": su.endpoint, "scope": f.Scope, "return_to": "chat"}
	start["connection_id"] = otherConn
	if w := s.do(http.MethodPost, mcpapi.OAuthStartPath, token, chattest.MustJSON(start)); w.Code != http.StatusNotFound {
		t.Errorf("a sign-in naming another user's connection: %d %s, want 404", w.Code, w.Body)
	}
	keyed := s.connectMCP(other, "calls", "sk-other-key")
	start["connection_id"] = keyed
	if w := s.do(http.MethodPost, mcpapi.OAuthStartPath, other, chattest.MustJSON(start)); w.Code != http.StatusBadRequest ||
		!strings.Contains(w.Body.String(), "uses an API key") {
		t.Errorf("a sign-in over a connection with a key: %d %s, want 400 saying so", w.Code, w.Body)
	}
	start["connection_id"] = f.ConnectionID
	if back := s.signInThrough(token, start); back.Path != "/llm-chat" || back.Query().Get("connected") != "calls" {
		t.Fatalf("the sign-in returned to %s, want /llm-chat?connected=calls", back)
	}
	conns, err := s.st.ListMCPConnections(context.Background(), s.uidOf(token))
	storetest.Must(t, err, "connections")
	if len(conns) != 1 || conns[0].ID != mcpID || !conns[0].OAuth {
		t.Fatalf("connections after the sign-in: %+v, want the same connection, signed in", conns)
	}

	w := resumeOn(s.h, token, conn, signInAnswer{Token: f.Token})
	res := parseReply(t, w.Body.String())
	if w.Code != http.StatusOK || !res.done || len(res.results) != 1 || res.results[0].IsError || len(su.called()) != 1 {
		t.Fatalf("resumed reply: %d %s, want the call run once", w.Code, res.raw)
	}
}
