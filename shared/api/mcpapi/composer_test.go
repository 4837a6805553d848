package mcpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/local/localmcp"
	"aiwork/shared/testbed/mcptest"
)

// Views of the composer's routes, as the web app reads them.
type (
	promptServer struct {
		ConnectionID string   `json:"connection_id"`
		ServerID     string   `json:"server_id"`
		ServerName   string   `json:"server_name"`
		Prompts      []prompt `json:"prompts"`
		Error        string   `json:"error"`
	}
	prompt struct {
		Name        string `json:"name"`
		Title       string `json:"title"`
		Description string `json:"description"`
		Arguments   []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			Required    bool   `json:"required"`
		} `json:"arguments"`
	}
	resourceServer struct {
		ConnectionID string             `json:"connection_id"`
		ServerID     string             `json:"server_id"`
		Resources    []resource         `json:"resources"`
		Templates    []resourceTemplate `json:"templates"`
		Error        string             `json:"error"`
	}
	resource struct {
		URI      string `json:"uri"`
		Name     string `json:"name"`
		MIMEType string `json:"mime_type"`
	}
	resourceTemplate struct {
		URITemplate string `json:"uri_template"`
		Name        string `json:"name"`
	}
	completion struct {
		Values  []string `json:"values"`
		Total   int      `json:"total"`
		HasMore bool     `json:"has_more"`
	}
)

// TestComposerPrompts: the reference server's prompts are listed with
// their arguments, one is filled, and an argument's completions narrow
// with the context, all on the caller's own connection; a server with
// tools only is not listed and has no completions.
func TestComposerPrompts(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	s.addServer(domain.MCPServer{ID: "everything", EndpointURL: referenceServer(t, localmcp.ModeStreamable)})
	s.addServer(domain.MCPServer{ID: "tools-only", EndpointURL: sdkServer(t, 2, nil)})
	_, token := s.user("prompts")
	ref := s.connected(token, "everything")
	plain := s.connected(token, "tools-only")

	w := s.get("/api/v1/mcp-connections/prompts", token)
	var raw []map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &raw); err != nil || len(raw) != 1 {
		t.Fatalf("prompts = %s (%v), want one server", w.Body, err)
	}
	wantKeys(t, "prompt server", raw[0], "connection_id", "server_id", "server_name", "prompts")
	got := apitest.Decode[[]promptServer](t, w, http.StatusOK)[0]
	if got.ConnectionID != ref.ConnectionID || got.ServerID != "everything" || got.ServerName == "" || got.Error != "" {
		t.Fatalf("prompt server = %+v", got)
	}
	i := slices.IndexFunc(got.Prompts, func(p prompt) bool { return p.Name == "args-prompt" })
	if i < 0 {
		t.Fatalf("prompts = %+v, want args-prompt", got.Prompts)
	}
	args := got.Prompts[i]
	if args.Title != "Arguments Prompt" || len(args.Arguments) != 2 || args.Arguments[0].Name != "city" || !args.Arguments[0].Required ||
		args.Arguments[1].Name != "state" || args.Arguments[1].Required || args.Arguments[0].Description != "Name of the city" {
		t.Errorf("args-prompt = %+v", args)
	}

	base := "/api/v1/mcp-connections/" + ref.ConnectionID
	filled := apitest.Decode[struct {
		Messages []struct {
			Role    string `json:"role"`
			Content struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}](t, s.do(base+"/prompts/get", token, `{"name":"args-prompt","arguments":{"city":"Paris","state":"Texas"}}`), http.StatusOK)
	if len(filled.Messages) != 1 || filled.Messages[0].Role != "user" || filled.Messages[0].Content.Type != "text" ||
		filled.Messages[0].Content.Text != "What's weather in Paris, Texas?" {
		t.Errorf("args-prompt filled = %+v", filled)
	}
	// The server refuses a prompt without its required argument: the
	// caller's mistake, in the server's words.
	apitest.WantErrorContaining(t, s.do(base+"/prompts/get", token, `{"name":"args-prompt","arguments":{}}`), http.StatusBadRequest, "city")
	apitest.WantError(t, s.do(base+"/prompts/get", token, `{"arguments":{}}`), http.StatusBadRequest, "name is required")

	c := apitest.Decode[completion](t, s.do(base+"/complete", token,
		`{"ref":{"type":"ref/prompt","name":"completable-prompt"},"argument":{"name":"department","value":"E"}}`), http.StatusOK)
	if !slices.Equal(c.Values, []string{"Engineering"}) {
		t.Errorf("department completions = %+v", c)
	}
	c = apitest.Decode[completion](t, s.do(base+"/complete", token,
		`{"ref":{"type":"ref/prompt","name":"completable-prompt"},"argument":{"name":"name","value":""},"context":{"arguments":{"department":"Sales"}}}`), http.StatusOK)
	if !slices.Equal(c.Values, []string{"David", "Eve", "Frank"}) {
		t.Errorf("name completions in Sales = %+v", c)
	}
	apitest.WantError(t, s.do(base+"/complete", token, `{"ref":{"type":"ref/other"},"argument":{"name":"x"}}`), http.StatusBadRequest,
		"ref.type must be ref/prompt or ref/resource")

	// A server without the completions capability has none to give.
	w = s.do("/api/v1/mcp-connections/"+plain.ConnectionID+"/complete", token,
		`{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"x"}}`)
	if w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != `{"values":[]}` {
		t.Errorf("completions without the capability = %d %s", w.Code, w.Body)
	}
}

// TestComposerResources: the reference server's resources and templates
// are listed, a resource and a template's resource are read, and a
// template's variable is completed.
func TestComposerResources(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	s.addServer(domain.MCPServer{ID: "everything", EndpointURL: referenceServer(t, localmcp.ModeStreamable)})
	s.addServer(domain.MCPServer{ID: "tools-only", EndpointURL: sdkServer(t, 1, nil)})
	_, token := s.user("resources")
	ref := s.connected(token, "everything")
	s.connected(token, "tools-only")

	w := s.get("/api/v1/mcp-connections/resources", token)
	var raw []map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &raw); err != nil || len(raw) != 1 {
		t.Fatalf("resources = %s (%v), want one server", w.Body, err)
	}
	wantKeys(t, "resource server", raw[0], "connection_id", "server_id", "server_name", "resources", "templates")
	got := apitest.Decode[[]resourceServer](t, w, http.StatusOK)[0]
	const doc = "demo://resource/static/document/architecture.md"
	if got.ConnectionID != ref.ConnectionID || got.Error != "" ||
		!slices.ContainsFunc(got.Resources, func(r resource) bool {
			return r.URI == doc && r.Name == "architecture.md" && r.MIMEType == "text/markdown"
		}) {
		t.Fatalf("resources = %+v, want %s", got, doc)
	}
	if !slices.ContainsFunc(got.Templates, func(tp resourceTemplate) bool {
		return tp.URITemplate == "demo://resource/dynamic/text/{resourceId}"
	}) {
		t.Errorf("templates = %+v", got.Templates)
	}

	base := "/api/v1/mcp-connections/" + ref.ConnectionID
	read := apitest.Decode[struct {
		Contents []map[string]any `json:"contents"`
	}](t, s.do(base+"/resources/read", token, `{"uri":"`+doc+`"}`), http.StatusOK)
	if len(read.Contents) != 1 || read.Contents[0]["uri"] != doc || read.Contents[0]["mime_type"] != "text/markdown" ||
		!strings.Contains(read.Contents[0]["text"].(string), "Architecture") {
		t.Errorf("read %s = %v", doc, read)
	}
	blob := apitest.Decode[struct {
		Contents []struct {
			Blob []byte `json:"blob"`
		} `json:"contents"`
	}](t, s.do(base+"/resources/read", token, `{"uri":"demo://resource/dynamic/blob/7"}`), http.StatusOK)
	if len(blob.Contents) != 1 || !strings.HasPrefix(string(blob.Contents[0].Blob), "Resource 7: This is a base64 blob") {
		t.Errorf("blob resource = %+v", blob)
	}
	c := apitest.Decode[completion](t, s.do(base+"/complete", token,
		`{"ref":{"type":"ref/resource","uri":"demo://resource/dynamic/text/{resourceId}"},"argument":{"name":"resourceId","value":"1"}}`), http.StatusOK)
	if len(c.Values) == 0 || !slices.Contains(c.Values, "1") {
		t.Errorf("resourceId completions = %+v", c)
	}
	apitest.WantError(t, s.do(base+"/resources/read", token, `{"uri":" "}`), http.StatusBadRequest, "uri is required")
}

// TestComposerOtherUsersConnection: another user's connection id is
// unknown to every composer route, and never listed; nothing reaches its
// server.
func TestComposerOtherUsersConnection(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	counter := &requestCounter{}
	s.addServer(domain.MCPServer{ID: "counted", EndpointURL: sdkServer(t, 1, counter.wrap)})
	_, owner := s.user("composer-owner")
	_, other := s.user("composer-other")
	c := s.connected(owner, "counted")
	before, _ := counter.counts()

	base := "/api/v1/mcp-connections/" + c.ConnectionID
	const notFound = "MCP connection not found. Connect the server again in the MCP Registry."
	apitest.WantError(t, s.do(base+"/prompts/get", other, `{"name":"p"}`), http.StatusNotFound, notFound)
	apitest.WantError(t, s.do(base+"/complete", other, `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}`), http.StatusNotFound, notFound)
	apitest.WantError(t, s.do(base+"/resources/read", other, `{"uri":"file:///x"}`), http.StatusNotFound, notFound)
	for _, path := range []string{"/api/v1/mcp-connections/prompts", "/api/v1/mcp-connections/resources"} {
		if w := s.get(path, other); w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != "[]" {
			t.Errorf("%s for another user = %d %s, want []", path, w.Code, w.Body)
		}
		apitest.WantError(t, s.get(path, ""), http.StatusUnauthorized, "Not authenticated.")
	}
	// The owner's own session may still send its last requests (its
	// close); none of the other user's calls may arrive.
	for _, m := range counter.methodsSince(before) {
		if strings.HasPrefix(m, "prompts/") || strings.HasPrefix(m, "resources/") || m == "completion/complete" {
			t.Errorf("another user's request reached the server: %s (requests since: %v)", m, counter.methodsSince(before))
		}
	}
}

// TestComposerLargeResource: a resource over 4 MiB is refused with its
// size; a server that no longer answers is listed with why, beside the
// others.
func TestComposerLargeResource(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	srv := sdk.NewServer(&sdk.Implementation{Name: "big", Version: "1"}, nil)
	big := strings.Repeat("a", 5<<20)
	srv.AddResource(&sdk.Resource{URI: "file:///big.txt", Name: "big.txt", MIMEType: "text/plain"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "file:///big.txt", MIMEType: "text/plain", Text: big}}}, nil
		})
	srv.AddResource(&sdk.Resource{URI: "file:///small.txt", Name: "small.txt", MIMEType: "text/plain"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "file:///small.txt", MIMEType: "text/plain", Text: "small"}}}, nil
		})
	hs := mcptest.Serve(t, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	gone := mcptest.Serve(t, sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	s.addServer(domain.MCPServer{ID: "big", EndpointURL: hs.URL + "/mcp"})
	s.addServer(domain.MCPServer{ID: "gone", EndpointURL: gone.URL + "/mcp"})
	_, token := s.user("large")
	c := s.connected(token, "big")
	g := s.connected(token, "gone")
	mcptest.Close(gone)

	base := "/api/v1/mcp-connections/" + c.ConnectionID
	apitest.WantError(t, s.do(base+"/resources/read", token, `{"uri":"file:///big.txt"}`), http.StatusRequestEntityTooLarge,
		"The resource file:///big.txt is 5.0 MB; the limit is 4.0 MB.")
	small := apitest.Decode[struct {
		Contents []struct{ Text string } `json:"contents"`
	}](t, s.do(base+"/resources/read", token, `{"uri":"file:///small.txt"}`), http.StatusOK)
	if len(small.Contents) != 1 || small.Contents[0].Text != "small" {
		t.Errorf("small resource after a large one = %+v", small)
	}

	list := apitest.Decode[[]resourceServer](t, s.get("/api/v1/mcp-connections/resources", token), http.StatusOK)
	if len(list) != 2 {
		t.Fatalf("resources = %+v, want both servers", list)
	}
	for _, v := range list {
		switch v.ConnectionID {
		case c.ConnectionID:
			if v.Error != "" || len(v.Resources) != 2 {
				t.Errorf("big server = %+v", v)
			}
		case g.ConnectionID:
			if v.Error == "" || len(v.Resources) != 0 {
				t.Errorf("a server that is gone = %+v, want an error and no resources", v)
			}
		}
	}
	// ?connection_ids= keeps the listing to the servers a chat tab enabled.
	only := apitest.Decode[[]resourceServer](t, s.get("/api/v1/mcp-connections/resources?connection_ids="+c.ConnectionID, token), http.StatusOK)
	if len(only) != 1 || only[0].ConnectionID != c.ConnectionID {
		t.Errorf("resources of one connection = %+v", only)
	}
}
