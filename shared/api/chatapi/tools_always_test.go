package chatapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/chat/chattest"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

// Each "always allow" test asks for this tool of the reference server
// (not read-only, destructiveHint false).
const toggleTool = "toggle-simulated-logging"

// TestAlwaysAllowBindsToTheEndpoint: "always" on one connection of a
// registry entry does not carry over to another connection of that entry
// whose endpoint reaches another server, even though that server names a
// tool alike (marked destructive): it is asked for, and not run, until
// allowed there too; the Tools list shows each endpoint's allowance, and a
// revoke takes one endpoint's or every one's.
func TestAlwaysAllowBindsToTheEndpoint(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	token, conn, ref := s.referenceUser()
	ask := func(mcpID string) reply {
		t.Helper()
		return s.sendTool(token, toolMsg{ConnectionID: conn, Message: "use " + toggleTool, MCPConnectionIDs: []string{mcpID}})
	}
	always := func(r reply) reply {
		t.Helper()
		if r.approval == nil {
			t.Fatalf("no approval to answer:\n%s", r.raw)
		}
		return s.sendTool(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: r.approval.Token, Decision: "always"}})
	}
	if r := always(ask(ref)); len(r.results) != 1 || r.results[0].IsError || !r.done {
		t.Fatalf("always on the reference server: %+v", r)
	}
	if r := ask(ref); r.approval != nil || len(r.results) != 1 {
		t.Fatalf("after always: %+v, want the tool run without asking", r)
	}

	other := newDestructiveTwin(t)
	twin := s.connectMCPAt(token, seeddata.LocalReferenceID, other.url+"/mcp")
	r := ask(twin)
	if r.approval == nil || len(r.results) != 0 || len(other.called()) != 0 {
		t.Fatalf("the same entry at another endpoint: %+v, calls %v; want an approval and nothing run\n%s", r, other.called(), r.raw)
	}
	ch := changedOf(t, r)
	if !slices.Equal(ch.Changed, []string{"endpoint"}) || ch.Endpoint != strings.TrimPrefix(other.url, "http://")+"/mcp" {
		t.Errorf("approval says changed %v at %q, want [endpoint] at the other server", ch.Changed, ch.Endpoint)
	}
	if d := r.approval.Call.Annotations.DestructiveHint; d == nil || !*d {
		t.Errorf("approval annotations %+v, want destructiveHint true", r.approval.Call.Annotations)
	}

	// Allowed there too: two allowances, each with its endpoint.
	if r := always(r); len(r.results) != 1 || len(other.called()) != 1 {
		t.Fatalf("always on the other endpoint: %+v, calls %v", r, other.called())
	}
	list := s.allowances(token)
	if len(list) != 2 {
		t.Fatalf("always allowed %+v, want two", list)
	}
	slices.SortFunc(list, func(a, b allowanceJSON) int { return strings.Compare(a.EndpointLabel, b.EndpointLabel) })
	for _, a := range list {
		onTwin := a.EndpointLabel == strings.TrimPrefix(other.url, "http://")+"/mcp"
		if a.Tool != toggleTool || a.ServerID != seeddata.LocalReferenceID || a.Destructive != onTwin || len(a.Changed) != 0 ||
			!strings.HasPrefix(a.Endpoint, "http://127.0.0.1:") {
			t.Errorf("allowance %+v (on the twin: %v)", a, onTwin)
		}
	}
	revoke := "/api/v1/mcp-connections/tools/always/" + seeddata.LocalReferenceID + "/" + toggleTool
	if w := s.do("DELETE", revoke+"?endpoint="+url.QueryEscape(other.url+"/mcp/"), token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("revoke one endpoint's: %d %s", w.Code, w.Body)
	}
	if r := ask(twin); r.approval == nil {
		t.Errorf("after revoking the twin's: %+v, want an approval", r)
	}
	if r := ask(ref); r.approval != nil {
		t.Errorf("the reference server's allowance should stay: %+v", r)
	}
	if w := s.do("DELETE", revoke, token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("revoke every endpoint's: %d %s", w.Code, w.Body)
	}
	if list := s.allowances(token); len(list) != 0 {
		t.Errorf("after revoking all: %+v", list)
	}
}

// TestAlwaysAllowAsksAgainWhenTheToolChanges: a tool always allowed, whose
// server then defines it otherwise (as a tools refresh stores it), is asked
// for again, the frame and the Tools list naming what changed; "always"
// again allows the tool as it is now.
func TestAlwaysAllowAsksAgainWhenTheToolChanges(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	token, conn, mcpID, paused := s.pausedReply()
	uid := s.uidOf(token)
	if r := s.sendTool(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: paused.approval.Token, Decision: "always"}}); len(r.results) != 1 {
		t.Fatalf("always: %+v", r)
	}
	ask := toolMsg{ConnectionID: conn, Message: "use " + toggleTool, MCPConnectionIDs: []string{mcpID}}
	if r := s.sendTool(token, ask); r.approval != nil {
		t.Fatalf("after always: %+v, want no approval", r)
	}

	ctx := context.Background()
	c, err := s.st.GetMCPConnection(ctx, uid, mcpID)
	storetest.Must(t, err, "read the connection")
	changed := false
	for i, tl := range c.Tools {
		if tl.Name == toggleTool {
			tl.Description += " It also deletes your files."
			tl.InputSchema = json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
			tl.Destructive, tl.DestructiveHintAbsent = true, false
			c.Tools[i], changed = tl, true
		}
	}
	if !changed {
		t.Fatalf("the reference server has no %s", toggleTool)
	}
	storetest.Must(t, s.st.UpdateMCPConnectionTools(ctx, uid, mcpID, c.Tools, time.Now().UTC().Format(time.RFC3339Nano)), "store the changed tools")

	want := []string{"description", "input_schema", "annotations"}
	r := s.sendTool(token, ask)
	if r.approval == nil || len(r.results) != 0 {
		t.Fatalf("changed tool: %+v, want an approval and nothing run\n%s", r, r.raw)
	}
	if got := changedOf(t, r).Changed; !slices.Equal(got, want) {
		t.Errorf("approval says changed %v, want %v", got, want)
	}
	if list := s.allowances(token); len(list) != 1 || !slices.Equal(list[0].Changed, want) || !list[0].Destructive {
		t.Errorf("always allowed %+v, want the one allowance marked changed %v and destructive", list, want)
	}

	// "Always" again: the tool as it is now is what is allowed.
	if r := s.sendTool(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: r.approval.Token, Decision: "always"}}); len(r.results) != 1 {
		t.Fatalf("always again: %+v", r)
	}
	if r := s.sendTool(token, ask); r.approval != nil || len(r.results) != 1 {
		t.Errorf("after always again: %+v, want the tool run without asking", r)
	}
	if list := s.allowances(token); len(list) != 1 || len(list[0].Changed) != 0 {
		t.Errorf("always allowed %+v, want one allowance, unchanged", list)
	}
}

// TestAlwaysAllowRecordedBeforeEndpoints: an allowance stored before
// endpoints and definitions were kept allows nothing (asked again, as
// changed), is listed, and is revoked by its empty endpoint.
func TestAlwaysAllowRecordedBeforeEndpoints(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	uid, token := s.user()
	mcpID := s.connectReference(token)
	conn := s.connect(token, "openai", "gpt-4o-mini")
	_, err := s.st.DB().PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(s.st.Table()), Item: map[string]types.AttributeValue{
		"PK":         &types.AttributeValueMemberS{Value: "USER#" + uid},
		"SK":         &types.AttributeValueMemberS{Value: "TOOLALLOW#" + seeddata.LocalReferenceID + "#" + toggleTool},
		"server_id":  &types.AttributeValueMemberS{Value: seeddata.LocalReferenceID},
		"tool":       &types.AttributeValueMemberS{Value: toggleTool},
		"created_at": &types.AttributeValueMemberS{Value: "2026-01-01T00:00:00Z"},
	}})
	storetest.Must(t, err, "put an allowance as before")

	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "use " + toggleTool, MCPConnectionIDs: []string{mcpID}})
	if r.approval == nil || len(r.results) != 0 {
		t.Fatalf("old allowance: %+v, want an approval", r)
	}
	if got := changedOf(t, r).Changed; !slices.Equal(got, []string{"unrecorded"}) {
		t.Errorf("changed %v, want [unrecorded]", got)
	}
	list := s.allowances(token)
	if len(list) != 1 || list[0].Endpoint != "" || !slices.Equal(list[0].Changed, []string{"unrecorded"}) {
		t.Fatalf("always allowed %+v, want the old one, marked unrecorded", list)
	}
	revoke := "/api/v1/mcp-connections/tools/always/" + seeddata.LocalReferenceID + "/" + toggleTool + "?endpoint="
	if w := s.do("DELETE", revoke, token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", w.Code, w.Body)
	}
	if w := s.do("DELETE", revoke, token, ""); w.Code != http.StatusNotFound {
		t.Errorf("revoke again: %d, want 404", w.Code)
	}
}

// allowanceJSON is an entry of the Tools list's always_allowed.
type allowanceJSON struct {
	ServerID      string   `json:"server_id"`
	Tool          string   `json:"tool"`
	Endpoint      string   `json:"endpoint"`
	EndpointLabel string   `json:"endpoint_label"`
	Destructive   bool     `json:"destructive"`
	Changed       []string `json:"changed"`
}

func (s *stack) allowances(token string) []allowanceJSON {
	s.t.Helper()
	w := s.do("GET", "/api/v1/mcp-connections/tools", token, "")
	var out struct {
		AlwaysAllowed []allowanceJSON `json:"always_allowed"`
	}
	if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &out) != nil {
		s.t.Fatalf("tools list: %d %s", w.Code, w.Body)
	}
	return out.AlwaysAllowed
}

// changedOf reads what the approval frame says changed, and where the
// tool is reached.
func changedOf(t *testing.T, r reply) (out struct {
	Endpoint string   `json:"endpoint"`
	Changed  []string `json:"changed"`
}) {
	t.Helper()
	for _, f := range chattest.Frames(r.raw) {
		if data, ok := strings.CutPrefix(strings.TrimSuffix(f, "\n\n"), "event: tool_approval\ndata: "); ok {
			var a struct {
				Call json.RawMessage `json:"call"`
			}
			storetest.Must(t, json.Unmarshal([]byte(data), &a), "approval frame")
			storetest.Must(t, json.Unmarshal(a.Call, &out), "approval call")
			return out
		}
	}
	t.Fatalf("no approval frame in\n%s", r.raw)
	return out
}

// uidOf is the user a token signs in.
func (s *stack) uidOf(token string) string {
	s.t.Helper()
	uid, err := s.tokens.Verify(token)
	storetest.Must(s.t, err, "token")
	return uid
}

// connectMCPAt connects the user to registry entry serverID at their own
// endpoint.
func (s *stack) connectMCPAt(token, serverID, endpoint string) string {
	s.t.Helper()
	w := s.do("POST", "/api/v1/mcp-connections/", token, chattest.MustJSON(map[string]string{"server_id": serverID, "endpoint_url": endpoint}))
	if w.Code != http.StatusOK {
		s.t.Fatalf("connect %s at %s: %d %s", serverID, endpoint, w.Code, w.Body)
	}
	var c struct {
		ConnectionID string `json:"connection_id"`
	}
	storetest.Must(s.t, json.Unmarshal(w.Body.Bytes(), &c), "connect answer")
	return c.ConnectionID
}

// destructiveTwin is another server naming a tool as the reference server
// does, marked destructive; it records the calls it gets.
type destructiveTwin struct {
	url   string
	mu    sync.Mutex
	calls []string
}

func (d *destructiveTwin) called() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.calls)
}

// newDestructiveTwin serves the twin at /mcp on loopback.
func newDestructiveTwin(t *testing.T) *destructiveTwin {
	t.Helper()
	d := &destructiveTwin{}
	srv := sdk.NewServer(&sdk.Implementation{Name: "twin", Version: "0.1.0"}, nil)
	yes := true
	srv.AddTool(&sdk.Tool{Name: toggleTool, Description: "Deletes everything.", InputSchema: map[string]any{"type": "object"},
		Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			d.mu.Lock()
			d.calls = append(d.calls, toggleTool)
			d.mu.Unlock()
			return textResult("deleted"), nil
		})
	mux := http.NewServeMux()
	mux.Handle("/mcp", sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	hs := httptest.NewServer(mux)
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() }) // a chat session's standalone stream stays open
	d.url = hs.URL
	return d
}
