// Package chatapi streams chat replies: POST /api/v1/mcp-connections/message
// answers text/event-stream, one frame per upstream chunk, flushed as it
// arrives. It decodes and validates the message and hands it to the chat
// engine (shared/chat), with the SSE writer as the engine's sink. It also
// serves the MCP App views of the replies' tool calls (apps.go). The chat
// Lambda (response streaming) and the devserver mount it.
package chatapi

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"aiwork/shared/auth"
	"aiwork/shared/chat"
	"aiwork/shared/chat/chathttp"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/llm"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// Path is the streaming route.
const Path = routes.ChatPath

// Limits of one request.
const (
	MaxBodyBytes    = 512 << 10
	MaxContextChars = 120_000
)

// Options tune the stream: they are the engine's.
type Options = chat.Options

// ToolOptions let replies call the tools of users' MCP servers.
type ToolOptions = chat.ToolOptions

// Service holds what the handler needs.
type Service struct {
	engine *chat.Engine
	tokens *auth.Tokens
}

// New builds the chat handler.
func New(st *store.Store, tokens *auth.Tokens, registry *llm.Registry, opts Options) *Service {
	return &Service{engine: chat.New(st, registry, opts), tokens: tokens}
}

// FromConfig builds the chat group from its configuration, the one wiring
// the Lambda and the devserver share: registry serves the models.
func FromConfig(st *store.Store, registry *llm.Registry, cfg config.Chat) (*Service, error) {
	opts, err := chat.OptionsFromConfig(cfg)
	if err != nil {
		return nil, err
	}
	return New(st, auth.FromConfig(cfg.Base, 0, st), registry, opts), nil
}

// Handler routes the message stream and the views of its tool calls.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	// The session is looked up by the engine's admission, beside its other
	// reads; the engine decides what may be written before it is confirmed.
	mux.Handle("POST "+Path, s.tokens.RequiredSpeculative(httpx.Handle(s.message)))
	// The MCP App views of its tool calls (apps.go).
	mux.Handle("POST "+AppViewPath, s.tokens.Required(httpx.Handle(s.view)))
	mux.Handle("POST "+AppCallPath, s.tokens.Required(httpx.Handle(s.call)))
	return httpx.WithNotFound(mux)
}

type messageInput struct {
	ConnectionID string        `json:"connection_id"`
	Message      string        `json:"message"`
	Model        string        `json:"model"`
	Context      []llm.Message `json:"context"`
	// MCPConnectionIDs: the caller's MCP connections whose tools the model
	// may call (at most chat.MaxMCPConnections).
	MCPConnectionIDs []string `json:"mcp_connection_ids"`
	// ConfirmReadOnly: ask before read-only tools too.
	ConfirmReadOnly bool `json:"confirm_read_only"`
	// Approval resumes a reply paused for a tool call; Message may be empty.
	Approval *approvalInput `json:"approval"`
	// Elicitation answers a server's question (the elicitation event);
	// Message may be empty.
	Elicitation *elicitationInput `json:"elicitation"`
	// SignIn resumes a reply paused until the user signed in to a tool
	// call's server (the tool_signin frame); Message may be empty.
	SignIn *signInInput `json:"signin"`
	// ConversationID keeps the message and its reply with the caller's
	// conversation: the reply is saved as it streams and goes on when the
	// client leaves.
	ConversationID string `json:"conversation_id"`
	// Attachments: resources of the caller's MCP connections given to the
	// model with the message (at most chat.MaxAttachments).
	Attachments []attachmentInput `json:"attachments"`
	// AgentID runs the message as a marketplace agent (a conversation's own
	// agent wins: another is refused).
	AgentID string `json:"agent_id"`
}

type approvalInput struct {
	// Token, from the tool_approval event; or ID, from the event or from
	// history (which keeps no token).
	Token    string `json:"token"`
	ID       string `json:"id"`
	Decision string `json:"decision"`
}

type signInInput struct {
	// Token, from the tool_signin frame; or ID (its signin_id), from the
	// frame or from history (which keeps no token).
	Token string `json:"token"`
	ID    string `json:"id"`
}

type elicitationInput struct {
	// Token, from the elicitation event; or ID, from the event or from
	// history (which keeps no token).
	Token   string         `json:"token"`
	ID      string         `json:"id"`
	Action  string         `json:"action"`
	Content map[string]any `json:"content"`
}

// message answers one message with a stream: the request decoded and
// validated here, answered by the engine (chat.Engine.Run) into the SSE
// writer. A refusal before the first frame is a JSON error. An answer to
// a question a tool call holds open on some instance is acknowledged with
// 202 and {"accepted": true}: the reply that asked goes on in its own
// stream.
func (s *Service) message(w http.ResponseWriter, r *http.Request) error {
	req, err := decodeMessage(w, r)
	if err != nil {
		return err
	}
	if req.Elicitation != nil {
		held, err := s.engine.AnswerElicitation(r.Context(), req)
		if err != nil {
			return chathttp.Error(err)
		}
		if held {
			httpx.WriteJSON(w, http.StatusAccepted, map[string]bool{"accepted": true})
			return nil
		}
	}
	return chathttp.Error(s.engine.Run(r.Context(), req, chathttp.NewSSE(w)))
}

// decodeMessage reads and checks a message: a connection, and a message
// with its context within MaxContextChars, or an approval; the MCP
// connections it offers.
func decodeMessage(w http.ResponseWriter, r *http.Request) (chat.Request, error) {
	var in messageInput
	if err := httpx.DecodeJSONLimit(w, r, &in, MaxBodyBytes); err != nil {
		return chat.Request{}, err
	}
	ctx := r.Context()
	uid, _ := auth.UserID(ctx)
	req := chat.Request{UserID: uid, SessionID: auth.SessionID(ctx), ConfirmSession: chathttp.Session(func() error { return auth.ConfirmSession(ctx) }),
		ConnectionID: in.ConnectionID, Model: in.Model, ConfirmReadOnly: in.ConfirmReadOnly, ConversationID: strings.TrimSpace(in.ConversationID),
		AgentID: strings.TrimSpace(in.AgentID)}
	if strings.TrimSpace(in.ConnectionID) == "" {
		return chat.Request{}, httpx.Invalid("connection_id is required")
	}
	answers := 0
	for _, given := range []bool{in.Approval != nil, in.Elicitation != nil, in.SignIn != nil} {
		if given {
			answers++
		}
	}
	switch {
	case answers > 1:
		return chat.Request{}, httpx.Invalid("Send one of approval, elicitation and signin, not several")
	case in.SignIn != nil:
		a, err := in.SignIn.validate()
		if err != nil {
			return chat.Request{}, err
		}
		req.SignIn = &a
	case in.Approval != nil:
		a, err := in.Approval.validate()
		if err != nil {
			return chat.Request{}, err
		}
		req.Approval = &a
	case in.Elicitation != nil:
		a, err := in.Elicitation.validate()
		if err != nil {
			return chat.Request{}, err
		}
		req.Elicitation = &a
	default:
		if strings.TrimSpace(in.Message) == "" {
			return chat.Request{}, httpx.Invalid("Message is required")
		}
		msgs, total, err := conversation(in.Context, in.Message)
		if err != nil {
			return chat.Request{}, err
		}
		if total > MaxContextChars {
			return chat.Request{}, &httpx.Error{Code: httpx.CodeTooLarge, Detail: fmt.Sprintf("This conversation is too long to send (%d characters; the limit is %d). Start a new chat tab or shorten the message.", total, MaxContextChars)}
		}
		req.Messages = msgs
	}
	ids, err := connectionIDs(in.MCPConnectionIDs)
	if err != nil {
		return chat.Request{}, err
	}
	req.MCPConnectionIDs = ids
	if req.Attachments, err = attachments(in.Attachments, req.Messages != nil); err != nil {
		return chat.Request{}, err
	}
	return req, nil
}

// tokenOrID checks the token or id naming what an answer answers (the
// token from the live frame, the id from the frame or from history).
func tokenOrID(field, token, id string) (string, string, error) {
	token, id = strings.TrimSpace(token), strings.TrimSpace(id)
	if (token == "" && id == "") || len(token) > 200 || len(id) > 200 {
		return "", "", httpx.Invalid(field + ".token or " + field + ".id is required")
	}
	return token, id, nil
}

func (a signInInput) validate() (chat.SignIn, error) {
	token, id, err := tokenOrID("signin", a.Token, a.ID)
	if err != nil {
		return chat.SignIn{}, err
	}
	return chat.SignIn{Token: token, ID: id}, nil
}

func (a elicitationInput) validate() (chat.ElicitationAnswer, error) {
	token, id, err := tokenOrID("elicitation", a.Token, a.ID)
	if err != nil {
		return chat.ElicitationAnswer{}, err
	}
	switch a.Action {
	case chat.ElicitAccept, chat.ElicitDecline, chat.ElicitCancel:
		return chat.ElicitationAnswer{Token: token, ID: id, Action: a.Action, Content: a.Content}, nil
	}
	return chat.ElicitationAnswer{}, httpx.Invalid("elicitation.action must be accept, decline or cancel")
}

func (a approvalInput) validate() (chat.Approval, error) {
	token, id, err := tokenOrID("approval", a.Token, a.ID)
	if err != nil {
		return chat.Approval{}, err
	}
	switch a.Decision {
	case chat.Approve, chat.AlwaysAllow, chat.Deny:
		return chat.Approval{Token: token, ID: id, Decision: a.Decision}, nil
	}
	return chat.Approval{}, httpx.Invalid("approval.decision must be approve, always or deny")
}

// connectionIDs checks the MCP connection ids a message offers: at most
// chat.MaxMCPConnections, each once.
func connectionIDs(ids []string) ([]string, error) {
	var out []string
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || slices.Contains(out, id) {
			continue
		}
		if len(id) > 100 {
			return nil, httpx.NotFound("MCP connection not found. Connect the server again in the MCP Registry.")
		}
		out = append(out, id)
	}
	if len(out) > chat.MaxMCPConnections {
		return nil, httpx.Invalid(fmt.Sprintf("A message may use the tools of at most %d MCP servers; turn some off in Tools.", chat.MaxMCPConnections))
	}
	return out, nil
}

// conversation is the context plus the new message, validated.
func conversation(context []llm.Message, message string) ([]llm.Message, int, error) {
	msgs := make([]llm.Message, 0, len(context)+1)
	total := utf8.RuneCountInString(message)
	for i, m := range context {
		if m.Role != "user" && m.Role != "assistant" && m.Role != "system" {
			return nil, 0, httpx.Invalid(fmt.Sprintf("context[%d].role must be user, assistant or system", i))
		}
		if strings.TrimSpace(m.Content) == "" {
			continue // an unfinished or empty turn says nothing
		}
		total += utf8.RuneCountInString(m.Content)
		msgs = append(msgs, m)
	}
	return append(msgs, llm.Message{Role: "user", Content: message}), total, nil
}
