package chatapi_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/chatapi"
	"aiwork/shared/chat"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/store/storetest"
)

const referenceName = "Everything (local reference server)"

// TestToolLoopReferenceServer: the demo model calls the reference server's
// get-sum (read-only: it runs without asking) and echo, and answers from
// their results, all in one stream that ends normally.
func TestToolLoopReferenceServer(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	token, conn, mcpID := s.referenceUser()

	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "Please use get-sum with 2 and 3", MCPConnectionIDs: []string{mcpID}})
	if len(r.calls) != 1 || len(r.results) != 1 || !r.done || r.approval != nil || len(r.errors) > 0 {
		t.Fatalf("reply %+v, want one call, one result, [DONE]\n%s", r, r.raw)
	}
	c, res := r.calls[0], r.results[0]
	var args map[string]float64
	if err := json.Unmarshal(c.Arguments, &args); err != nil || args["a"] != 2 || args["b"] != 3 {
		t.Errorf("arguments = %s, want a=2, b=3", c.Arguments)
	}
	if c.Tool != "get-sum" || c.ServerName != referenceName || c.ServerID == "" || c.ID == "" {
		t.Errorf("call = %+v, want get-sum on %s", c, referenceName)
	}
	if res.ID != c.ID || res.IsError || !strings.Contains(res.text(), "5") {
		t.Errorf("result = %+v (%q), want the sum 5", res, res.text())
	}
	// The model's answer comes after the result and quotes it.
	if last := slices.Index(r.order, "tool_result"); !slices.Contains(r.order[last:], "content") ||
		!strings.Contains(r.text, "The tool `get-sum` answered") {
		t.Errorf("order %v, text %q: want the answer after the result", r.order, r.text)
	}
	if r.usage == nil || r.usage.InputTokens == 0 || r.order[len(r.order)-2] != "usage" {
		t.Errorf("usage %+v, order %v: want usage before [DONE]", r.usage, r.order)
	}

	r = s.sendTool(token, toolMsg{ConnectionID: conn, Message: "use echo to say hello there", MCPConnectionIDs: []string{mcpID}})
	if len(r.results) != 1 || !strings.Contains(r.results[0].text(), "hello there") || !r.done {
		t.Errorf("echo reply %+v, want the echoed text", r)
	}
}

// TestToolApproval: a tool that is not read-only pauses the reply with an
// approval; deny, approve and always each resume it as the user said,
// "always" is remembered until revoked, and a token answers once only.
func TestToolApproval(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	_, token := s.user()
	_, other := s.user()
	mcpID := s.connectReference(token)
	conn := s.connect(token, "openai", "gpt-4o-mini")
	ask := toolMsg{ConnectionID: conn, Message: "use toggle-simulated-logging", MCPConnectionIDs: []string{mcpID}}

	pause := func() approvalJSON {
		t.Helper()
		r := s.sendTool(token, ask)
		if r.approval == nil || r.done || len(r.results) != 0 || len(r.calls) != 1 || r.order[len(r.order)-1] != "approval" {
			t.Fatalf("reply %+v, want a call then an approval, no [DONE]\n%s", r, r.raw)
		}
		return *r.approval
	}
	resume := func(tok, decision string) reply {
		t.Helper()
		return s.sendTool(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: tok, Decision: decision}})
	}

	a := pause()
	if a.Call.Tool != "toggle-simulated-logging" || a.Call.ServerName != referenceName || a.Call.Annotations.ReadOnlyHint ||
		a.Call.Annotations.DestructiveHint == nil || *a.Call.Annotations.DestructiveHint || a.Call.Description == "" {
		t.Errorf("approval call = %+v, want the tool with its hints and description", a.Call)
	}
	if exp, err := time.Parse(time.RFC3339, a.ExpiresAt); err != nil || time.Until(exp) < 9*time.Minute || time.Until(exp) > 11*time.Minute {
		t.Errorf("expires_at = %q, want about 10 minutes from now", a.ExpiresAt)
	}

	// Another user's token is unknown to them; a forged one too.
	w := s.send(other, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: a.Token, Decision: "approve"}})
	if w.Code != http.StatusNotFound {
		t.Errorf("another user's resume: %d %s, want 404", w.Code, w.Body)
	}
	w = s.send(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: "ta_forged", Decision: "approve"}})
	chattest.WantError(t, w, http.StatusNotFound)
	w = s.send(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: a.Token, Decision: "maybe"}})
	chattest.WantError(t, w, http.StatusBadRequest)

	r := resume(a.Token, "deny")
	if len(r.results) != 1 || !r.results[0].Denied || !r.results[0].IsError || !r.done || !strings.Contains(r.text, "did not give a result") {
		t.Errorf("deny: %+v, want a denied result, an answer without it, [DONE]", r)
	}
	// The same token again: already answered.
	w = s.send(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: a.Token, Decision: "approve"}})
	if e := chattest.WantError(t, w, http.StatusConflict); !strings.Contains(e.Detail, "already answered") {
		t.Errorf("replay detail %q", e.Detail)
	}

	r = resume(pause().Token, "approve")
	if len(r.results) != 1 || r.results[0].IsError || !r.done || !strings.Contains(r.text, "answered") {
		t.Errorf("approve: %+v, want the tool's result and an answer", r)
	}

	r = resume(pause().Token, "always")
	if len(r.results) != 1 || r.results[0].IsError || !r.done {
		t.Errorf("always: %+v, want the tool's result", r)
	}
	if r := s.sendTool(token, ask); r.approval != nil || len(r.results) != 1 || !r.done {
		t.Errorf("after always: %+v, want no approval", r)
	}
	var tools struct {
		AlwaysAllowed []struct {
			ServerID string `json:"server_id"`
			Tool     string `json:"tool"`
		} `json:"always_allowed"`
	}
	w = s.do("GET", "/api/v1/mcp-connections/tools", token, "")
	if err := json.Unmarshal(w.Body.Bytes(), &tools); err != nil || len(tools.AlwaysAllowed) != 1 || tools.AlwaysAllowed[0].Tool != "toggle-simulated-logging" {
		t.Fatalf("tools list %d %s: want one always-allowed tool", w.Code, w.Body)
	}
	revoke := "/api/v1/mcp-connections/tools/always/" + tools.AlwaysAllowed[0].ServerID + "/toggle-simulated-logging"
	if w := s.do("DELETE", revoke, other, ""); w.Code != http.StatusNotFound {
		t.Errorf("another user's revoke: %d, want 404", w.Code)
	}
	if w := s.do("DELETE", revoke, token, ""); w.Code != http.StatusNoContent {
		t.Errorf("revoke: %d %s", w.Code, w.Body)
	}
	pause() // asks again

	// Read-only tools ask too when the user says so.
	r = s.sendTool(token, toolMsg{ConnectionID: conn, Message: "use echo to say hi", MCPConnectionIDs: []string{mcpID}, ConfirmReadOnly: true})
	if r.approval == nil || r.approval.Call.Tool != "echo" || !r.approval.Call.Annotations.ReadOnlyHint {
		t.Errorf("confirm read-only: %+v, want an approval for echo", r)
	}
}

// TestToolApprovalConcurrentResume: the same token answered many times at
// once resumes the reply exactly once.
func TestToolApprovalConcurrentResume(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	token, conn, _, r := s.pausedReply()
	const n = 6
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			codes[i] = s.send(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: r.approval.Token, Decision: "approve"}}).Code
		})
	}
	wg.Wait()
	slices.Sort(codes)
	if codes[0] != http.StatusOK || codes[1] != http.StatusConflict || codes[n-1] != http.StatusConflict {
		t.Errorf("codes = %v, want one 200 and the rest 409", codes)
	}
}

// TestToolApprovalExpires: after ten minutes the paused reply is gone.
func TestToolApprovalExpires(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Now()
	s := newToolStack(t, nil, func(o *chatapi.Options) {
		o.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	})
	token, conn, _, r := s.pausedReply()
	mu.Lock()
	now = now.Add(chat.ApprovalTTL + time.Second)
	mu.Unlock()
	w := s.send(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: r.approval.Token, Decision: "approve"}})
	if e := chattest.WantError(t, w, http.StatusConflict); !strings.Contains(e.Detail, "expired") {
		t.Errorf("detail %q, want expired", e.Detail)
	}
}

// TestToolConnectionDeletedWhilePaused: resuming after the user
// disconnected the server says so; the model answers without the tool.
func TestToolConnectionDeletedWhilePaused(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	token, conn, mcpID, r := s.pausedReply()
	if w := s.do("DELETE", "/api/v1/mcp-connections/"+mcpID, token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("disconnect: %d %s", w.Code, w.Body)
	}
	r = s.sendTool(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: r.approval.Token, Decision: "approve"}})
	if len(r.results) != 1 || !r.results[0].IsError || !strings.Contains(r.results[0].text(), "no longer connected") || !r.done {
		t.Errorf("reply %+v, want a failed result saying the server is no longer connected", r)
	}
}

// TestToolConnectionIDsChecked: another user's or an unknown MCP
// connection, or too many, are refused before anything goes upstream.
func TestToolConnectionIDsChecked(t *testing.T) {
	t.Parallel()
	up := chattest.Replies(llm.Usage{}, "never")
	s := newToolStack(t, map[string]llm.Provider{"openai": up}, nil)
	_, owner := s.user()
	_, token := s.user()
	ownersID := s.connectReference(owner)
	conn := s.connect(token, "openai", "gpt-4o-mini")

	for name, ids := range map[string][]string{
		"another user's": {ownersID},
		"unknown":        {"no-such-connection"},
		"over-long":      {strings.Repeat("x", 500)},
	} {
		w := s.send(token, toolMsg{ConnectionID: conn, Message: "hi", MCPConnectionIDs: ids})
		if w.Code != http.StatusNotFound {
			t.Errorf("%s id: %d %s, want 404", name, w.Code, w.Body)
		}
	}
	var many []string
	for i := range chat.MaxMCPConnections + 1 {
		many = append(many, "c"+strings.Repeat("x", i))
	}
	w := s.send(token, toolMsg{ConnectionID: conn, Message: "hi", MCPConnectionIDs: many})
	chattest.WantError(t, w, http.StatusBadRequest)
	if n := len(up.Requests()); n != 0 {
		t.Errorf("upstream got %d requests, want none", n)
	}
}

// TestToolFaults: invalid arguments never reach the server; a server that
// goes away, and a huge result, are tool results the model is told about;
// the reply always ends normally.
func TestToolFaults(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", 3<<20/2) // 1.5 MB of text
	srv := newToolServer(t, nil,
		testTool{name: "add", readOnly: true, schema: map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "number"}}, "required": []any{"a"}},
			handle: func(context.Context, map[string]any) (*sdk.CallToolResult, error) { return textResult("added"), nil }},
		testTool{name: "huge", readOnly: true, handle: func(context.Context, map[string]any) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "short"}, &sdk.TextContent{Text: huge}}}, nil
		}},
	)
	cases := []struct {
		name, tool, args string
		check            func(t *testing.T, r reply)
	}{
		{"invalid arguments", "add", `{"a":"two"}`, func(t *testing.T, r reply) {
			if len(r.results) != 1 || !r.results[0].IsError || !strings.Contains(r.results[0].text(), "Invalid arguments") {
				t.Errorf("result %+v, want invalid arguments", r.results)
			}
			if slices.Contains(srv.called(), "add") {
				t.Error("the server got a call with invalid arguments")
			}
		}},
		{"not JSON", "add", `{"a":`, func(t *testing.T, r reply) {
			if len(r.results) != 1 || !r.results[0].IsError || !strings.Contains(r.results[0].text(), "JSON object") {
				t.Errorf("result %+v, want a JSON object error", r.results)
			}
		}},
		{"huge result", "huge", `{}`, func(t *testing.T, r reply) {
			res := r.results[0]
			size := 0
			for _, c := range res.Content {
				size += len(c)
			}
			if res.IsError || !res.Truncated || size > chat.MaxToolResultShown+1024 || !strings.Contains(res.text(), "short") {
				t.Errorf("result truncated=%v, %d bytes shown, want cut at %d", res.Truncated, size, chat.MaxToolResultShown)
			}
			if !strings.Contains(r.text, "huge error=false") {
				t.Errorf("model saw %q", r.text)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up := callsTool(tc.tool, tc.args)
			s := newToolStack(t, map[string]llm.Provider{"openai": up}, nil)
			token, conn, mcpID := s.serverUser("faults", "Faults", srv.url)
			r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
			if !r.done || len(r.results) != 1 || !strings.HasPrefix(r.text, "got: ") {
				t.Fatalf("reply %+v, want a result and the model's answer, [DONE]", r)
			}
			tc.check(t, r)
			if reqs := up.Requests(); len(reqs) == 2 {
				if tr := reqs[1].Messages[len(reqs[1].Messages)-1]; len(tr.ToolResults) != 1 || len(tr.ToolResults[0].Content) > chat.MaxToolTextForModel+200 {
					t.Errorf("the model's tool turn: %d results, %d bytes", len(tr.ToolResults), len(tr.ToolResults[0].Content))
				}
			}
		})
	}

	t.Run("server down", func(t *testing.T) {
		t.Parallel()
		down := newToolServer(t, nil, testTool{name: "ping", readOnly: true, handle: func(context.Context, map[string]any) (*sdk.CallToolResult, error) {
			return textResult("pong"), nil
		}})
		up := callsTool("ping", `{}`)
		s := newToolStack(t, map[string]llm.Provider{"openai": up}, nil)
		token, conn, mcpID := s.serverUser("down", "Going down", down.url)
		down.close()
		r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
		if !r.done || len(r.results) != 1 || !r.results[0].IsError || !strings.Contains(r.results[0].text(), "ping on Going down failed") ||
			!strings.Contains(r.text, "ping error=true") {
			t.Errorf("reply %+v, want a failed result the model was told about", r)
		}
	})
}

// TestToolRoundLimit: a model that keeps calling tools stops after
// CHAT_MAX_TOOL_ROUNDS with a notice; its text so far is kept.
func TestToolRoundLimit(t *testing.T) {
	t.Parallel()
	srv := newToolServer(t, nil, testTool{name: "again", readOnly: true, handle: func(context.Context, map[string]any) (*sdk.CallToolResult, error) {
		return textResult("once more"), nil
	}})
	up := chattest.NewEventUpstream(func(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
		if err := emit(llm.Event{Text: "thinking. "}); err != nil {
			return llm.Usage{}, err
		}
		if err := emit(llm.Event{ToolCall: &llm.ToolCall{ID: "c", Name: req.Tools[0].Name, Arguments: "{}"}}); err != nil {
			return llm.Usage{}, err
		}
		return llm.Usage{InputTokens: 10, OutputTokens: 2}, emit(llm.Event{Stop: llm.StopToolCalls})
	})
	s := newToolStack(t, map[string]llm.Provider{"openai": up}, func(o *chatapi.Options) { o.Tools.MaxRounds = 2 })
	token, conn, mcpID := s.serverUser("loop", "Loop", srv.url)
	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
	if len(up.Requests()) != 3 || len(r.results) != 2 || len(r.notices) != 1 || !strings.Contains(r.notices[0], "2 tool rounds") ||
		r.text != strings.Repeat("thinking. ", 3) || !r.done {
		t.Errorf("reply %+v after %d model calls: want 3 calls, 2 results, the limit's notice, [DONE]", r, len(up.Requests()))
	}
	// Every model call counted.
	if r.usage == nil || r.usage.InputTokens != 30 || r.usage.OutputTokens != 6 {
		t.Errorf("usage %+v, want 30 in, 6 out", r.usage)
	}
}

// TestToolCallCancelledWhenTheTabCloses: the user leaves while a tool
// runs: the call is cancelled on the server, the model calls are metered,
// and the stream slot is free for the next message.
func TestToolCallCancelledWhenTheTabCloses(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}), make(chan struct{})
	srv := newToolServer(t, nil, testTool{name: "slow", readOnly: true, handle: func(ctx context.Context, _ map[string]any) (*sdk.CallToolResult, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	}})
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	up := callsTool("slow", `{}`)
	s := newToolStack(t, map[string]llm.Provider{"openai": up}, func(o *chatapi.Options) {
		o.Now = func() time.Time { return now }
		o.Limits = config.ChatLimits{MaxConcurrentStreams: 1}
	})
	s.addMCPServer(domain.MCPServer{ID: "slow", Title: "Slow", EndpointURL: srv.url})
	uid, token := s.user()
	mcpID := s.connectMCP(token, "slow", "")
	conn := s.connect(token, "openai", "gpt-4o-mini")
	front, ended := s.serveCounted()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := chattest.Post(t, ctx, front.URL, token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}})
	defer res.Body.Close()
	if got := chattest.ReadFrame(t, bufio.NewReader(res.Body), patience); !strings.Contains(got, `"tool_call"`) {
		t.Fatalf("first frame = %q, want the tool call", got)
	}
	waitFor(t, started, "the tool never started")
	cancel()
	waitFor(t, cancelled, "the tool call was not cancelled")
	waitFor(t, ended, "the handler did not end")
	if n, err := s.st.OpenStreams(t.Context(), uid, now); err != nil || n != 0 {
		t.Errorf("open streams = %d, %v; want 0", n, err)
	}
	wantUsage(t, s, uid, now, domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 10, OutputTokens: 4, Requests: 1})
	if w := s.send(token, msg{ConnectionID: conn, Message: "hi"}); w.Code != http.StatusOK {
		t.Errorf("next message: %d %s", w.Code, w.Body)
	}
}

// waitFor waits for ch, failing the test with what after patience.
func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(patience):
		t.Fatal(what)
	}
}

// TestToolKeyNeverLeaves: a server's API key reaches the server on every
// tool call, and is in no frame, no log line and no table item but its
// sealed one; the model never sees it.
//
// Not parallel: it captures the process-wide logger.
func TestToolKeyNeverLeaves(t *testing.T) {
	logs := apitest.CaptureLogs(t)
	raw := make([]byte, 16)
	_, _ = rand.Read(raw)
	key := "sk-tool-" + hex.EncodeToString(raw)
	var mu sync.Mutex
	var bearers []string
	keyed := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			bearers = append(bearers, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
			mu.Unlock()
			if r.Header.Get("Authorization") != "Bearer "+key {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	srv := newToolServer(t, keyed,
		testTool{name: "whoami", readOnly: true, handle: func(context.Context, map[string]any) (*sdk.CallToolResult, error) { return textResult("you"), nil }},
		testTool{name: "fails", readOnly: true, handle: func(context.Context, map[string]any) (*sdk.CallToolResult, error) {
			return nil, errors.New("boom")
		}})
	for _, tool := range []string{"whoami", "fails"} {
		up := callsTool(tool, `{}`)
		s := newToolStack(t, map[string]llm.Provider{"openai": up}, nil)
		s.addMCPServer(domain.MCPServer{ID: "keyed", Title: "Keyed", EndpointURL: srv.url, APIKeyRequired: true})
		_, token := s.user()
		mcpID := s.connectMCP(token, "keyed", key)
		conn := s.connect(token, "openai", "gpt-4o-mini")
		w := s.sendWithin(token, toolMsg{ConnectionID: conn, Message: "go", MCPConnectionIDs: []string{mcpID}}, patience)
		r := parseReply(t, w.Body.String())
		if !r.done || len(r.results) != 1 {
			t.Fatalf("%s: reply %+v", tool, r)
		}
		if strings.Contains(w.Body.String(), key) {
			t.Errorf("%s: a frame holds the key", tool)
		}
		for _, req := range up.Requests() {
			if strings.Contains(chattest.MustJSON(req), key) {
				t.Errorf("%s: the model was sent the key", tool)
			}
		}
		sealed := 0
		for _, item := range storetest.ScanAll(t, s.st) {
			for name, v := range item {
				if name == "sealed_api_key" {
					sealed++
					continue
				}
				if strings.Contains(chattest.MustJSON(v), key) {
					t.Errorf("%s: item attribute %s holds the key", tool, name)
				}
			}
		}
		if sealed != 1 {
			t.Errorf("%s: %d sealed keys stored, want 1", tool, sealed)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bearers) < 4 || slices.ContainsFunc(bearers, func(b string) bool { return b != key }) {
		t.Errorf("the server got bearers %d times, not always the key", len(bearers))
	}
	if strings.Contains(logs.String(), key) {
		t.Error("a log line holds the key")
	}
}

// TestToolReferenceImageAndLongRun: the reference server's tiny image comes
// back as an image block (the model told only that there is one), and its
// long-running operation finishes within the reply.
func TestToolReferenceImageAndLongRun(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	token, conn, mcpID := s.referenceUser()

	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "use get-tiny-image", MCPConnectionIDs: []string{mcpID}})
	if len(r.results) != 1 || r.results[0].IsError || !r.done {
		t.Fatalf("reply %+v", r)
	}
	var image bool
	for _, c := range r.results[0].Content {
		var b struct{ Type, MimeType, Data string }
		_ = json.Unmarshal(c, &b)
		image = image || b.Type == "image" && b.MimeType == "image/png" && b.Data != ""
	}
	if !image || !strings.Contains(r.text, "[image: image/png") {
		t.Errorf("result %s, text %q: want an image block, named to the model", r.results[0].Content, r.text)
	}

	r = s.sendTool(token, toolMsg{ConnectionID: conn, Message: "use trigger-long-running-operation with 1 and 2", MCPConnectionIDs: []string{mcpID}})
	if len(r.results) != 1 || r.results[0].IsError || !strings.Contains(r.results[0].text(), "completed") || !r.done {
		t.Errorf("long run: %+v", r)
	}
}

// TestToolResumeKeepsTheCallsConnection: two connections to one server
// offer the same tool under two names; when the one the model called is
// disconnected while the reply waits, its name would fall to the other:
// the call fails as no longer connected instead of running elsewhere.
func TestToolResumeKeepsTheCallsConnection(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	_, token := s.user()
	ids := []string{s.connectReference(token), s.connectReference(token)}
	conn := s.connect(token, "openai", "gpt-4o-mini")
	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "use toggle-simulated-logging", MCPConnectionIDs: ids})
	if r.approval == nil {
		t.Fatalf("no approval: %s", r.raw)
	}
	// Names go to connections in id order: the demo model calls the first.
	if w := s.do("DELETE", "/api/v1/mcp-connections/"+slices.Min(ids), token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("disconnect: %d %s", w.Code, w.Body)
	}
	r = s.sendTool(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: r.approval.Token, Decision: "approve"}})
	if len(r.results) != 1 || !r.results[0].IsError || !strings.Contains(r.results[0].text(), "no longer connected") {
		t.Errorf("reply %+v, want the call refused as no longer connected", r.results)
	}
}
