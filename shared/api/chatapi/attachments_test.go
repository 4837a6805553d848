package chatapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/api/apitest"
	"aiwork/shared/chat/chattest"
	"aiwork/shared/domain"
	"aiwork/shared/routes"
)

// attachMsg is a message with resources attached.
type attachMsg struct {
	ConnectionID   string           `json:"connection_id"`
	Message        string           `json:"message"`
	ConversationID string           `json:"conversation_id,omitempty"`
	Attachments    []map[string]any `json:"attachments"`
}

const architectureDoc = "demo://resource/static/document/architecture.md"

// TestAttachmentReachesModel: a resource of the reference server attached
// to a message is read and given to the model with the user's turn (the
// demo model quotes it), and the conversation keeps it on the user's
// message, named, for a reload.
func TestAttachmentReachesModel(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	token, conn, mcpID := s.referenceUser()
	cv := s.newConversation(token, "")

	r := s.sendTool(token, toolMsg{ConnectionID: conn, Message: "What does this say?"}) // warm-up: no attachment
	if strings.Contains(r.text, "I received the resource") {
		t.Fatalf("a message without attachments: %q", r.text)
	}
	w := s.sendWithin(token, attachMsg{ConnectionID: conn, Message: "What does this say?", ConversationID: cv.ID,
		Attachments: []map[string]any{{"connection_id": mcpID, "uri": architectureDoc, "name": "architecture.md"},
			{"connection_id": mcpID, "uri": "demo://resource/dynamic/blob/3"}}}, patience)
	if w.Code != http.StatusOK {
		t.Fatalf("message: %d %s", w.Code, w.Body)
	}
	text, done := keptReplyText(t, w.Body.String())
	if !done || !strings.Contains(text, "I received the resource "+architectureDoc+": # Everything Server") ||
		!strings.Contains(text, "I received the resource demo://resource/dynamic/blob/3: Resource 3: This is a base64 blob") ||
		!strings.Contains(text, "What does this say?") {
		t.Fatalf("reply %q: want the demo model quoting both resources and the message", text)
	}

	msgs := apitest.Decode[struct {
		Messages []struct {
			Role        string `json:"role"`
			Content     string `json:"content"`
			Attachments []struct {
				ConnectionID string `json:"connection_id"`
				URI          string `json:"uri"`
				Name         string `json:"name"`
				MIMEType     string `json:"mime_type"`
				Size         int64  `json:"size"`
			} `json:"attachments"`
		} `json:"messages"`
	}](t, s.do("GET", routes.ChatConversationsPath+"/"+cv.ID+"/messages", token, ""), http.StatusOK).Messages
	if len(msgs) != 2 || msgs[0].Role != domain.RoleUser || msgs[0].Content != "What does this say?" || len(msgs[0].Attachments) != 2 {
		t.Fatalf("kept messages = %+v, want the user's text with two attachments", msgs)
	}
	a, b := msgs[0].Attachments[0], msgs[0].Attachments[1]
	if a.ConnectionID != mcpID || a.URI != architectureDoc || a.Name != "architecture.md" || a.MIMEType != "text/markdown" || a.Size < 100 {
		t.Errorf("first attachment = %+v", a)
	}
	if b.URI != "demo://resource/dynamic/blob/3" || b.Name != "3" || b.MIMEType != "text/plain" || b.Size == 0 {
		t.Errorf("second attachment = %+v", b)
	}
	if len(msgs[1].Attachments) != 0 {
		t.Errorf("the reply carries attachments: %+v", msgs[1].Attachments)
	}
}

// TestAttachmentRefusals: another user's connection is not found and its
// server never asked; more than ten attachments, a resource over 4 MiB
// and one the server will not read are refused before the model is called.
func TestAttachmentRefusals(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	srv := sdk.NewServer(&sdk.Implementation{Name: "big", Version: "1"}, nil)
	big := strings.Repeat("b", 5<<20)
	srv.AddResource(&sdk.Resource{URI: "file:///big.txt", Name: "big.txt", MIMEType: "text/plain"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "file:///big.txt", MIMEType: "text/plain", Text: big}}}, nil
		})
	var reads atomic.Int64
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"resources/read"`)) {
			reads.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() }) // a chat session's standalone stream stays open
	s.addMCPServer(domain.MCPServer{ID: "big", EndpointURL: hs.URL + "/mcp"})
	_, owner := s.user()
	_, other := s.user()
	mcpID := s.connectMCP(owner, "big", "")
	conn := s.connect(other, "openai", "gpt-4o-mini")
	before := reads.Load()

	w := s.send(other, attachMsg{ConnectionID: conn, Message: "hi", Attachments: []map[string]any{{"connection_id": mcpID, "uri": "file:///big.txt"}}})
	apitest.WantErrorContaining(t, w, http.StatusNotFound, "MCP connection")
	if n := reads.Load(); n != before {
		t.Errorf("another user's attachment was read: %d reads", n-before)
	}

	ownConn := s.connect(owner, "openai", "gpt-4o-mini")
	var eleven []map[string]any
	for i := range 11 {
		eleven = append(eleven, map[string]any{"connection_id": mcpID, "uri": "file:///" + strings.Repeat("x", i+1)})
	}
	w = s.send(owner, attachMsg{ConnectionID: ownConn, Message: "hi", Attachments: eleven})
	apitest.WantError(t, w, http.StatusBadRequest, "A message may attach at most 10 resources.")

	w = s.send(owner, attachMsg{ConnectionID: ownConn, Message: "hi", Attachments: []map[string]any{{"connection_id": mcpID, "uri": "file:///big.txt"}}})
	apitest.WantErrorContaining(t, w, http.StatusBadRequest, "The resource file:///big.txt is larger than the limit of 4.0 MB")

	w = s.send(owner, attachMsg{ConnectionID: ownConn, Message: "hi", Attachments: []map[string]any{{"connection_id": mcpID, "uri": "file:///missing.txt"}}})
	apitest.WantErrorContaining(t, w, http.StatusBadRequest, "The resource file:///missing.txt could not be read from")
}

// keptReplyText is a kept reply's text and whether it ended with [DONE].
func keptReplyText(t *testing.T, body string) (string, bool) {
	t.Helper()
	var text strings.Builder
	done := false
	for _, f := range chattest.Frames(body) {
		f = strings.TrimSuffix(f, "\n\n")
		if f == "data: [DONE]" {
			done = true
			continue
		}
		var d struct {
			Content *string `json:"content"`
		}
		if strings.HasPrefix(f, "data: ") && json.Unmarshal([]byte(strings.TrimPrefix(f, "data: ")), &d) == nil && d.Content != nil {
			text.WriteString(*d.Content)
		}
	}
	return text.String(), done
}
