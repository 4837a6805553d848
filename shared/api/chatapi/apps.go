package chatapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/auth"
	"aiwork/shared/chat"
	"aiwork/shared/chat/chathttp"
	"aiwork/shared/httpx"
	"aiwork/shared/mcp"
	"aiwork/shared/routes"
)

// The MCP App views of the chat's tool calls: the browser asks here for a
// view's HTML (read from the user's connection by the engine, never by
// the browser from the server) and sends here the tool calls the view
// makes, which the engine checks as a model's (chat.Engine.AppView,
// AppCall).
const (
	AppViewPath = routes.ChatAppsPrefix + "view"
	AppCallPath = routes.ChatAppsPrefix + "call"
)

// Bounds of the apps routes' requests.
const (
	maxAppURILen = 2048
	maxAppIDLen  = 100
	maxAppTool   = 200
	// maxAppCallBody leaves room around the arguments' own limit, so that
	// arguments over it are told as such (400) rather than as a body too
	// large.
	maxAppCallBody = chat.MaxAppArguments + 16<<10
)

type appViewInput struct {
	ConnectionID string `json:"connection_id"`
	URI          string `json:"uri"`
}

// appView is a view as the browser renders it (the contract's names).
type appView struct {
	URI         string              `json:"uri"`
	HTML        string              `json:"html"`
	CSP         appCSP              `json:"csp"`
	Permissions map[string]struct{} `json:"permissions"`
	// PrefersBorder: true, false, or null when the view leaves it to us.
	PrefersBorder *bool `json:"prefers_border"`
}

type appCSP struct {
	ConnectDomains  []string `json:"connect_domains"`
	ResourceDomains []string `json:"resource_domains"`
	FrameDomains    []string `json:"frame_domains"`
	BaseURIDomains  []string `json:"base_uri_domains"`
}

// appPermissions names the view's permissions as the contract spells them.
var appPermissions = map[string]string{"camera": "camera", "microphone": "microphone", "geolocation": "geolocation",
	"clipboardWrite": "clipboard_write"}

// view answers a view of the caller's connection.
func (s *Service) view(w http.ResponseWriter, r *http.Request) error {
	var in appViewInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	id, err := appConnectionID(in.ConnectionID)
	if err != nil {
		return err
	}
	uri := strings.TrimSpace(in.URI)
	if !strings.HasPrefix(uri, mcp.UIScheme) || len(uri) > maxAppURILen {
		return httpx.Invalid("uri must be the ui:// view of one of the connection's tools.")
	}
	uid, _ := auth.UserID(r.Context())
	v, err := s.engine.AppView(r.Context(), uid, id, uri)
	if err != nil {
		return chathttp.Error(err)
	}
	out := appView{URI: v.URI, HTML: v.HTML, Permissions: map[string]struct{}{}, PrefersBorder: v.PrefersBorder,
		CSP: appCSP{ConnectDomains: v.CSP.ConnectDomains, ResourceDomains: v.CSP.ResourceDomains,
			FrameDomains: v.CSP.FrameDomains, BaseURIDomains: v.CSP.BaseURIDomains}}
	for _, p := range v.Permissions {
		out.Permissions[appPermissions[p]] = struct{}{}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

type appCallInput struct {
	ConnectionID string          `json:"connection_id"`
	Tool         string          `json:"tool"`
	Arguments    json.RawMessage `json:"arguments"`
	Approved     bool            `json:"approved"`
	// ConfirmReadOnly: the chat tab asks before read-only tools too (its
	// Tools control's setting), for a view's calls as for the model's.
	ConfirmReadOnly bool `json:"confirm_read_only"`
}

// appResult is the server's CallToolResult as it sent it, with isError
// always present.
type appResult struct {
	Content           []json.RawMessage `json:"content"`
	StructuredContent any               `json:"structuredContent,omitempty"`
	IsError           bool              `json:"isError"`
	Meta              sdk.Meta          `json:"_meta,omitempty"`
}

// call runs a view's tool call on the caller's connection.
func (s *Service) call(w http.ResponseWriter, r *http.Request) error {
	var in appCallInput
	if err := httpx.DecodeJSONLimit(w, r, &in, maxAppCallBody); err != nil {
		return err
	}
	id, err := appConnectionID(in.ConnectionID)
	if err != nil {
		return err
	}
	tool := strings.TrimSpace(in.Tool)
	if tool == "" || len(tool) > maxAppTool {
		return httpx.Invalid("tool is required.")
	}
	args := bytes.TrimSpace(in.Arguments)
	if len(args) == 0 || string(args) == "null" {
		args = []byte("{}")
	}
	if len(args) > chat.MaxAppArguments {
		return httpx.Invalid(fmt.Sprintf("The arguments are %d KB; the limit is %d KB.", len(args)>>10, chat.MaxAppArguments>>10))
	}
	if args[0] != '{' {
		return httpx.Invalid("arguments must be a JSON object.")
	}
	uid, _ := auth.UserID(r.Context())
	res, err := s.engine.AppCall(r.Context(), chat.AppCall{UserID: uid, ConnectionID: id, Tool: tool, Arguments: args, Approved: in.Approved,
		ConfirmReadOnly: in.ConfirmReadOnly})
	if err != nil {
		return chathttp.Error(err)
	}
	out := appResult{Content: []json.RawMessage{}, StructuredContent: res.StructuredContent, IsError: res.IsError, Meta: res.Meta}
	for _, c := range res.Content {
		if c == nil {
			continue
		}
		b, err := c.MarshalJSON()
		if err != nil {
			return fmt.Errorf("encode a tool result's content: %w", err)
		}
		out.Content = append(out.Content, b)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]appResult{"result": out})
	return nil
}

// appConnectionID checks a view's connection id: one too long is nobody's.
func appConnectionID(id string) (string, error) {
	id = strings.TrimSpace(id)
	switch {
	case id == "":
		return "", httpx.Invalid("connection_id is required.")
	case len(id) > maxAppIDLen:
		return "", httpx.NotFound("Connection not found. Connect again.")
	}
	return id, nil
}
