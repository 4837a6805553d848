package mcpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/testbed/mcptest"
)

// promptWithResources is prompts/get's answer with the resources its
// messages refer to.
type promptWithResources struct {
	Messages []struct {
		Role    string         `json:"role"`
		Content map[string]any `json:"content"`
	} `json:"messages"`
	Attachments []struct {
		ConnectionID string `json:"connection_id"`
		URI          string `json:"uri"`
		Name         string `json:"name"`
		MIMEType     string `json:"mime_type"`
		Size         int64  `json:"size"`
	} `json:"attachments"`
}

// linkingServer is a go-sdk MCP server whose prompts refer to resources:
// notes.txt and data.json it reads, secret.txt it refuses, empty.txt it
// answers with nothing, missing.txt it does not have, big.txt is over the
// limit.
func linkingServer() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "linking", Version: "1"}, nil)
	text := func(uri, mime, body string) sdk.ResourceHandler {
		return func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: mime, Text: body}}}, nil
		}
	}
	srv.AddResource(&sdk.Resource{URI: "file:///notes.txt", Name: "notes.txt"}, text("file:///notes.txt", "text/plain", "Ship on Friday."))
	srv.AddResource(&sdk.Resource{URI: "file:///data.json", Name: "data.json"}, text("file:///data.json", "application/json", `{"a":1}`))
	srv.AddResource(&sdk.Resource{URI: "file:///secret.txt", Name: "secret.txt"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return nil, errors.New("access denied for this user")
		})
	srv.AddResource(&sdk.Resource{URI: "file:///big.txt", Name: "big.txt"}, text("file:///big.txt", "text/plain", strings.Repeat("a", 5<<20)))
	srv.AddResource(&sdk.Resource{URI: "file:///empty.txt", Name: "empty.txt"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{}}, nil
		})

	prompt := func(name string, content ...sdk.Content) {
		srv.AddPrompt(&sdk.Prompt{Name: name}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			msgs := []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "Summarise these."}}}
			for _, c := range content {
				msgs = append(msgs, &sdk.PromptMessage{Role: "user", Content: c})
			}
			return &sdk.GetPromptResult{Messages: msgs}, nil
		})
	}
	link := func(uri string) *sdk.ResourceLink { return &sdk.ResourceLink{URI: uri, Name: uri} }
	prompt("with-notes",
		&sdk.ResourceLink{URI: "file:///notes.txt", Name: "notes.txt", Title: "Team notes"},
		&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///data.json"}},
		// Twice, and an embedded one that carries its text: neither is read again.
		link("file:///notes.txt"),
		&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///inline.txt", MIMEType: "text/plain", Text: "inline"}})
	prompt("with-secret", link("file:///notes.txt"), link("file:///secret.txt"))
	prompt("with-empty", link("file:///empty.txt"))
	prompt("no-links")
	prompt("with-big", link("file:///big.txt"))
	prompt("with-missing", link("file:///missing.txt"))
	many := []sdk.Content{}
	for i := range 11 {
		many = append(many, link(fmt.Sprintf("file:///n%02d.txt", i)))
	}
	prompt("with-many", many...)
	return srv
}

// TestPromptResources: the resources a prompt's messages refer to are read
// from the same server and answered as attachments; one the server will
// not read refuses the prompt, naming it and the server's reason.
func TestPromptResources(t *testing.T) {
	t.Parallel()
	s := newStack(t, local())
	counter := &requestCounter{}
	srv := linkingServer()
	hs := mcptest.Serve(t, counter.wrap(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)))
	s.addServer(domain.MCPServer{ID: "linking", EndpointURL: hs.URL + "/mcp"})
	_, token := s.user("prompt-resources")
	c := s.connected(token, "linking")
	label := c.ServerName
	if c.EndpointHost != "" {
		label += " · " + c.EndpointHost
	}
	base := "/api/v1/mcp-connections/" + c.ConnectionID + "/prompts/get"

	w := s.do(base, token, `{"name":"with-notes"}`)
	var raw map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &raw); err != nil {
		t.Fatalf("with-notes = %s (%v)", w.Body, err)
	}
	wantKeys(t, "prompt", raw, "messages", "attachments")
	got := apitest.Decode[promptWithResources](t, w, http.StatusOK)
	// The messages stay as the server sent them: the client decides the text.
	if len(got.Messages) != 5 || got.Messages[1].Content["type"] != "resource_link" || got.Messages[1].Content["uri"] != "file:///notes.txt" {
		t.Errorf("messages = %+v", got.Messages)
	}
	if len(got.Attachments) != 2 {
		t.Fatalf("attachments = %+v, want notes.txt and data.json", got.Attachments)
	}
	notes, data := got.Attachments[0], got.Attachments[1]
	if notes.ConnectionID != c.ConnectionID || notes.URI != "file:///notes.txt" || notes.Name != "Team notes" ||
		notes.MIMEType != "text/plain" || notes.Size != int64(len("Ship on Friday.")) {
		t.Errorf("notes attachment = %+v", notes)
	}
	if data.ConnectionID != c.ConnectionID || data.URI != "file:///data.json" || data.Name != "" || data.MIMEType != "application/json" || data.Size != 7 {
		t.Errorf("data attachment = %+v", data)
	}

	// A prompt that refers to nothing answers an empty list.
	if w := s.do(base, token, `{"name":"no-links"}`); w.Code != http.StatusOK ||
		!strings.Contains(w.Body.String(), `"attachments":[]`) {
		t.Errorf("no-links = %d %s, want no attachments", w.Code, w.Body)
	}

	// The server refuses one: the prompt is refused, in its words.
	apitest.WantError(t, s.do(base, token, `{"name":"with-secret"}`), http.StatusBadRequest,
		`The prompt "with-secret" refers to file:///secret.txt, which `+label+` would not read: access denied for this user.`)
	apitest.WantError(t, s.do(base, token, `{"name":"with-empty"}`), http.StatusBadRequest,
		`The prompt "with-empty" refers to file:///empty.txt, which `+label+` would not read: it sent no contents.`)
	apitest.WantError(t, s.do(base, token, `{"name":"with-missing"}`), http.StatusBadRequest,
		`The prompt "with-missing" refers to file:///missing.txt, which `+label+` would not read: Resource not found.`)
	apitest.WantError(t, s.do(base, token, `{"name":"with-big"}`), http.StatusRequestEntityTooLarge,
		`The prompt "with-big" refers to a resource too large to attach: The resource file:///big.txt is 5.0 MB; the limit is 4.0 MB.`)
	apitest.WantError(t, s.do(base, token, `{"name":"with-many"}`), http.StatusBadRequest,
		`The prompt "with-many" refers to 11 resources; a message may attach at most 10.`)

	// Another user's connection: unknown, and its server is not asked.
	_, other := s.user("prompt-resources-other")
	before, _ := counter.counts()
	apitest.WantError(t, s.do(base, other, `{"name":"with-notes"}`), http.StatusNotFound,
		"MCP connection not found. Connect the server again in the MCP Registry.")
	if after, _ := counter.counts(); after != before {
		t.Errorf("another user's prompt reached the server: %d requests, want %d", after, before)
	}
}
