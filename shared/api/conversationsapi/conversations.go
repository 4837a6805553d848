package conversationsapi

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/auth"
	"aiwork/shared/chat"
	"aiwork/shared/chat/chathttp"
	"aiwork/shared/clip"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/llm"
	"aiwork/shared/random"
	"aiwork/shared/store"
)

// Bounds of a conversation's fields and of a listing page.
const (
	MaxTitleRunes    = 200
	DefaultPageSize  = 50
	MaxPageSize      = 100
	defaultTitle     = "New chat"
	maxIDLen         = 100
	conversationBody = 16 << 10
)

type conversationView struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Provider     string `json:"provider"`
	Model        string `json:"model"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
	Archived     bool   `json:"archived"`
	MessageCount int    `json:"message_count"`
	// Agent is the marketplace agent the conversation runs as (null: none).
	Agent *agentRef `json:"agent"`
}

type agentRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func presentConversation(c domain.Conversation) conversationView {
	v := conversationView{ID: c.ID, Title: c.Title, Provider: c.Provider, Model: c.Model, CreatedAt: exactTime(c.CreatedAt),
		UpdatedAt: exactTime(c.UpdatedAt), Archived: c.Archived, MessageCount: c.MessageCount}
	if c.AgentID != "" {
		v.Agent = &agentRef{ID: c.AgentID, Name: c.AgentName}
	}
	return v
}

// exactTime keeps a moment to the nanosecond: the web app uploads its
// messages' millisecond times and must read them back unchanged.
func exactTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// listConversations answers a page of the caller's conversations, newest
// first: archived=true for the archived ones (else the open ones), q=
// keeping those whose title or text holds it, limit= and cursor= paging;
// total counts them all. A page is one read of the list, whatever its
// length; a search reads at most store.MaxConversationSearchRead
// conversations and answers the matches among them (possibly fewer than
// limit, or none) with the cursor to go on from.
func (s *Service) listConversations(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	q := r.URL.Query()
	query := store.ConversationListQuery{Archived: q.Get("archived") == "true", Search: strings.ToLower(strings.TrimSpace(q.Get("q"))), Limit: DefaultPageSize}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > MaxPageSize {
			return httpx.Invalid(fmt.Sprintf("limit must be a whole number from 1 to %d", MaxPageSize))
		}
		query.Limit = n
	}
	after, err := decodeCursor(q.Get("cursor"))
	if err != nil {
		return err
	}
	query.After = after
	page, err := s.st.ListConversationPage(r.Context(), uid, query)
	if errors.Is(err, store.ErrBadCursor) {
		return badCursor()
	}
	if err != nil {
		return err
	}
	// total counts every conversation of the caller, open and archived
	// (the dashboard's Chat Sessions).
	total, err := s.st.CountConversations(r.Context(), uid)
	if err != nil {
		return err
	}
	out := make([]conversationView, len(page.Conversations))
	for i, c := range page.Conversations {
		out[i] = presentConversation(c)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"conversations": out, "next_cursor": encodeCursor(page.Next), "total": total})
	return nil
}

// A cursor is the place the page before ended: the update time and id of
// its last conversation (for a search, of the last one it read).
func encodeCursor(p *store.ConversationPlace) string {
	if p == nil {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString([]byte(p.UpdatedAt.UTC().Format(time.RFC3339Nano) + "|" + p.ID))
}

func decodeCursor(s string) (*store.ConversationPlace, error) {
	if s == "" {
		return nil, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, badCursor()
	}
	at, id, ok := strings.Cut(string(raw), "|")
	t, terr := time.Parse(time.RFC3339Nano, at)
	if !ok || terr != nil || id == "" || len(id) > maxIDLen {
		return nil, badCursor()
	}
	return &store.ConversationPlace{UpdatedAt: t, ID: id}, nil
}

func badCursor() error { return httpx.Invalid("cursor is not one this API gave") }

type conversationInput struct {
	Title    *string `json:"title"`
	Provider *string `json:"provider"`
	Model    *string `json:"model"`
	Archived *bool   `json:"archived"`
	// Messages and UploadKey: an upload of past messages (conversation_upload.go).
	Messages  []uploadedMessage `json:"messages"`
	UploadKey string            `json:"upload_key"`
	// AgentID binds a new conversation to a marketplace agent, for good:
	// its messages run as that agent, on its provider and model.
	AgentID string `json:"agent_id"`
}

// createConversation starts a conversation for the caller, with past
// messages when it is an upload.
func (s *Service) createConversation(w http.ResponseWriter, r *http.Request) error {
	var in conversationInput
	if err := httpx.DecodeJSONLimit(w, r, &in, uploadBody); err != nil {
		return err
	}
	uid, _ := auth.UserID(r.Context())
	var agent domain.Agent
	if in.AgentID = strings.TrimSpace(in.AgentID); in.AgentID != "" {
		var err error
		if agent, err = chat.Agent(r.Context(), s.st, uid, in.AgentID); err != nil {
			return chathttp.Error(err)
		}
		// An agent's conversation is on its provider and model.
		in.Provider, in.Model = &agent.Provider, &agent.Model
	}
	if in.Provider == nil || in.Model == nil {
		return httpx.Invalid("provider and model are required")
	}
	if err := checkModel(*in.Provider, *in.Model); err != nil {
		return err
	}
	if len(in.UploadKey) > maxIDLen {
		return httpx.Invalid(fmt.Sprintf("upload_key must be at most %d characters", maxIDLen))
	}
	title := defaultTitle
	if agent.ID != "" {
		title = cleanTitle(agent.Name)
	}
	if in.Title != nil {
		title = cleanTitle(*in.Title)
	}
	now := s.now().UTC()
	c := domain.Conversation{ID: newConversationID(), Title: title, Provider: *in.Provider, Model: *in.Model, CreatedAt: now, UpdatedAt: now,
		Search: strings.ToLower(title), AgentID: agent.ID, AgentName: agent.Name}
	if in.UploadKey != "" {
		c.ID = uploadConversationID(uid, in.UploadKey)
	}
	msgs, err := uploadedMessages(in.Messages, c.ID, now)
	if err != nil {
		return err
	}
	c.MessageCount = len(msgs)
	err = s.st.CreateConversation(r.Context(), uid, c, msgs...)
	if errors.Is(err, store.ErrConversationExists) && in.UploadKey != "" {
		// The same upload again: answer what the first made.
		if c, err = s.conversationOr404(r.Context(), uid, c.ID); err != nil {
			return err
		}
		httpx.WriteJSON(w, http.StatusOK, presentConversation(c))
		return nil
	}
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, presentConversation(c))
	return nil
}

// patchConversation renames, re-models or (un)archives one of the caller's
// conversations.
// msgAgentModel refuses a change of an agent conversation's model.
const msgAgentModel = "This conversation is bound to an agent: it runs on the agent's model."

func (s *Service) patchConversation(w http.ResponseWriter, r *http.Request) error {
	var in conversationInput
	if err := httpx.DecodeJSONLimit(w, r, &in, conversationBody); err != nil {
		return err
	}
	uid, _ := auth.UserID(r.Context())
	cid := r.PathValue("id")
	p := store.ConversationPatch{Archived: in.Archived}
	if in.Title != nil {
		t := cleanTitle(*in.Title)
		p.Title = &t
	}
	if in.Provider != nil || in.Model != nil {
		cur, err := s.conversationOr404(r.Context(), uid, cid)
		if err != nil {
			return err
		}
		// A field the patch leaves keeps its value; an empty one is checked
		// (and refused) like any other.
		provider, model := cur.Provider, cur.Model
		if in.Provider != nil {
			provider = *in.Provider
		}
		if in.Model != nil {
			model = *in.Model
		}
		if err := checkModel(provider, model); err != nil {
			return err
		}
		// An agent's conversation runs on the agent's model, whatever it says.
		if cur.AgentID != "" && (provider != cur.Provider || model != cur.Model) {
			return httpx.Invalid(msgAgentModel)
		}
		p.Provider, p.Model = &provider, &model
	}
	c, err := s.st.UpdateConversation(r.Context(), uid, cid, p, s.now())
	if errors.Is(err, store.ErrNotFound) {
		return conversationNotFound()
	}
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, presentConversation(c))
	return nil
}

// deleteConversation removes one of the caller's conversations for good; a
// reply still being generated in it stops at its next save.
func (s *Service) deleteConversation(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	err := s.st.DeleteConversation(r.Context(), uid, r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return conversationNotFound()
	}
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Service) conversationOr404(ctx context.Context, uid, cid string) (domain.Conversation, error) {
	if len(cid) > maxIDLen {
		return domain.Conversation{}, conversationNotFound()
	}
	c, err := s.st.GetConversation(ctx, uid, cid)
	if errors.Is(err, store.ErrNotFound) {
		return c, conversationNotFound()
	}
	return c, err
}

func conversationNotFound() error { return httpx.NotFound("Conversation not found.") }

// checkModel refuses a provider or model the catalogue does not know.
func checkModel(provider, model string) error {
	p, ok := llm.FindProvider(provider)
	if !ok {
		return httpx.Invalid(fmt.Sprintf("Unknown provider %q", clip.Runes(provider, 40)))
	}
	if _, ok := p.FindModel(model); !ok {
		return httpx.Invalid(fmt.Sprintf("Unknown model %q for %s", clip.Runes(model, 60), p.Label))
	}
	return nil
}

// cleanTitle drops control characters, folds white space and cuts to
// MaxTitleRunes; an empty title is the default.
func cleanTitle(t string) string {
	t = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, t)
	t = clip.Runes(strings.Join(strings.Fields(t), " "), MaxTitleRunes)
	if t == "" {
		return defaultTitle
	}
	return t
}

func newConversationID() string { return "c" + random.Hex(12) }
