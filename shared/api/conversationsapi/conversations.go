package chatapi

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/llm"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// Conversations kept with the account (issue 24): the routes under
// ConversationsPath, and how a message's reply is kept with its
// conversation (kept, keepWith; the recorder saves it as it streams).
const ConversationsPath = routes.ChatConversationsPath

// Bounds of a conversation's fields and of a listing page.
const (
	MaxTitleRunes    = 200
	DefaultPageSize  = 50
	MaxPageSize      = 100
	defaultTitle     = "New chat"
	snippetRunes     = 200
	maxIDLen         = 100
	conversationBody = 16 << 10
)

// Re-attaching polls the stored reply: first soon, then less often.
const (
	reattachFirstPoll = 100 * time.Millisecond
	reattachMaxPoll   = time.Second
	// reattachDead: a reply not complete whose item did not change for this
	// long lost its generator (its process died); the stream says so.
	reattachDead = 5 * SaveEvery
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
}

func presentConversation(c domain.Conversation) conversationView {
	return conversationView{ID: c.ID, Title: c.Title, Provider: c.Provider, Model: c.Model, CreatedAt: rfc3339(c.CreatedAt),
		UpdatedAt: rfc3339(c.UpdatedAt), Archived: c.Archived, MessageCount: c.MessageCount}
}

type messageView struct {
	ID        string               `json:"id"`
	Role      string               `json:"role"`
	Content   string               `json:"content"`
	CreatedAt string               `json:"created_at"`
	Complete  bool                 `json:"complete"`
	Error     string               `json:"error,omitempty"`
	Usage     *domain.MessageUsage `json:"usage,omitempty"`
	Blocks    []blockView          `json:"blocks,omitempty"`
	Truncated bool                 `json:"truncated,omitempty"`
	Stopped   bool                 `json:"stopped,omitempty"`
}

type blockView struct {
	At    int     `json:"at"`
	Frame rawJSON `json:"frame"`
}

type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

func presentMessage(m domain.ConversationMessage) messageView {
	v := messageView{ID: m.ID, Role: m.Role, Content: m.Content, CreatedAt: rfc3339(m.CreatedAt),
		Complete: m.Complete || m.StopRequested, Error: m.Error, Usage: m.Usage, Truncated: m.Truncated, Stopped: m.StopRequested}
	for _, b := range m.Blocks {
		v.Blocks = append(v.Blocks, blockView{At: b.At, Frame: rawJSON(b.Frame)})
	}
	return v
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// conversationRoutes mounts the conversation routes on mux.
func (s *Service) conversationRoutes(mux *http.ServeMux) {
	req := func(h httpx.HandlerFunc) http.Handler { return s.tokens.Required(httpx.Handle(h)) }
	mux.Handle("GET "+ConversationsPath, req(s.listConversations))
	mux.Handle("POST "+ConversationsPath, req(s.createConversation))
	mux.Handle("PATCH "+ConversationsPath+"/{id}", req(s.patchConversation))
	mux.Handle("DELETE "+ConversationsPath+"/{id}", req(s.deleteConversation))
	mux.Handle("GET "+ConversationsPath+"/{id}/messages", req(s.listMessages))
	mux.Handle("GET "+ConversationsPath+"/{id}/messages/{mid}/stream", req(s.reattach))
	mux.Handle("POST "+ConversationsPath+"/{id}/messages/{mid}/stop", req(s.stopReply))
}

// listConversations answers the caller's conversations, newest first:
// archived=true for the archived ones (else the open ones), q= filtering
// on title and text, limit= and cursor= paging; total counts them all.
func (s *Service) listConversations(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	q := r.URL.Query()
	archived := q.Get("archived") == "true"
	search := strings.ToLower(strings.TrimSpace(q.Get("q")))
	limit := DefaultPageSize
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > MaxPageSize {
			return httpx.Invalid(fmt.Sprintf("limit must be a whole number from 1 to %d", MaxPageSize))
		}
		limit = n
	}
	after, err := decodeCursor(q.Get("cursor"))
	if err != nil {
		return err
	}
	all, err := s.st.ListConversations(r.Context(), uid)
	if err != nil {
		return err
	}
	slices.SortFunc(all, newestFirst)
	out := []conversationView{}
	next := ""
	for _, c := range all {
		if c.Archived != archived || (search != "" && !strings.Contains(c.Search, search) && !strings.Contains(strings.ToLower(c.Title), search)) {
			continue
		}
		if after != nil && newestFirst(c, *after) <= 0 {
			continue
		}
		if len(out) == limit {
			next = encodeCursor(all, out[len(out)-1].ID)
			break
		}
		out = append(out, presentConversation(c))
	}
	// total counts every conversation of the caller, open and archived
	// (the dashboard's Chat Sessions).
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"conversations": out, "next_cursor": next, "total": len(all)})
	return nil
}

// newestFirst orders by last update, newest first, then by id.
func newestFirst(a, b domain.Conversation) int {
	if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// A cursor is the last conversation of a page: its update time and id.
func encodeCursor(all []domain.Conversation, id string) string {
	i := slices.IndexFunc(all, func(c domain.Conversation) bool { return c.ID == id })
	return base64.RawURLEncoding.EncodeToString([]byte(all[i].UpdatedAt.UTC().Format(time.RFC3339Nano) + "|" + id))
}

func decodeCursor(s string) (*domain.Conversation, error) {
	if s == "" {
		return nil, nil
	}
	bad := httpx.Invalid("cursor is not one this API gave")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, bad
	}
	at, id, ok := strings.Cut(string(raw), "|")
	t, terr := time.Parse(time.RFC3339Nano, at)
	if !ok || terr != nil || id == "" {
		return nil, bad
	}
	return &domain.Conversation{ID: id, UpdatedAt: t}, nil
}

type conversationInput struct {
	Title    *string `json:"title"`
	Provider *string `json:"provider"`
	Model    *string `json:"model"`
	Archived *bool   `json:"archived"`
	// Messages and UploadKey: an upload of past messages (conversation_upload.go).
	Messages  []uploadedMessage `json:"messages"`
	UploadKey string            `json:"upload_key"`
}

// createConversation starts a conversation for the caller, with past
// messages when it is an upload.
func (s *Service) createConversation(w http.ResponseWriter, r *http.Request) error {
	var in conversationInput
	if err := httpx.DecodeJSONLimit(w, r, &in, uploadBody); err != nil {
		return err
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
	if in.Title != nil {
		title = cleanTitle(*in.Title)
	}
	uid, _ := auth.UserID(r.Context())
	now := s.opts.Now().UTC()
	c := domain.Conversation{ID: newConversationID(), Title: title, Provider: *in.Provider, Model: *in.Model, CreatedAt: now, UpdatedAt: now,
		Search: strings.ToLower(title)}
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
		provider, model := cmpOr(in.Provider, cur.Provider), cmpOr(in.Model, cur.Model)
		if err := checkModel(provider, model); err != nil {
			return err
		}
		p.Provider, p.Model = &provider, &model
	}
	c, err := s.st.UpdateConversation(r.Context(), uid, cid, p, s.opts.Now())
	if errors.Is(err, store.ErrNotFound) {
		return conversationNotFound()
	}
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, presentConversation(c))
	return nil
}

func cmpOr(v *string, fallback string) string {
	if v != nil {
		return *v
	}
	return fallback
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

// listMessages answers a conversation's messages in order.
func (s *Service) listMessages(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	cid := r.PathValue("id")
	if _, err := s.conversationOr404(r.Context(), uid, cid); err != nil {
		return err
	}
	msgs, err := s.st.ListMessages(r.Context(), uid, cid)
	if err != nil {
		return err
	}
	out := make([]messageView, len(msgs))
	for i, m := range msgs {
		out[i] = presentMessage(m)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"messages": out})
	return nil
}

// stopReply asks the invocation generating a reply to end it.
func (s *Service) stopReply(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	cid, mid := r.PathValue("id"), r.PathValue("mid")
	err := s.whileWritten(r.Context(), mid, func() error { return s.st.RequestStop(r.Context(), uid, cid, mid) })
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound("Message not found.")
	}
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// reattach streams a reply kept with its conversation: what it has so far
// at once, then what its generator saves as it comes (the stored item is
// polled, from any instance), ending as the reply ended; a finished reply
// is answered at once.
func (s *Service) reattach(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	cid, mid := r.PathValue("id"), r.PathValue("mid")
	var m domain.ConversationMessage
	err := s.whileWritten(r.Context(), mid, func() (err error) {
		m, err = s.st.GetMessage(r.Context(), uid, cid, mid)
		return err
	})
	if errors.Is(err, store.ErrNotFound) || (err == nil && m.Role != domain.RoleAssistant) {
		return httpx.NotFound("Message not found.")
	}
	if err != nil {
		return err
	}
	out := &sse{w: w}
	sent, blocks := 0, 0
	wait := reattachFirstPoll
	deadline := time.Now().Add(s.opts.MaxStreamDuration + time.Minute)
	for {
		sent, blocks = replay(out, m, sent, blocks)
		switch {
		case m.Complete || m.StopRequested:
			return finishReplay(out, m)
		case s.opts.Now().Sub(m.UpdatedAt) > reattachDead || time.Now().After(deadline):
			_ = out.error("The reply stopped being generated before it finished. Send your message again.")
			return nil
		}
		if !out.started {
			_ = out.comment("generating")
		}
		select {
		case <-r.Context().Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(wait*3/2, reattachMaxPoll)
		next, err := s.st.GetMessage(r.Context(), uid, cid, mid)
		if errors.Is(err, store.ErrNotFound) {
			_ = out.error("This conversation was deleted.")
			return nil
		}
		if err == nil {
			m = next
		}
	}
}

// writeGrace bounds how long after its id was made a message may still be
// being written (its stream opened before its writes were over).
const writeGrace = 2 * time.Second

// whileWritten runs op, and again every 50 ms while it finds no message and
// the message's id is young enough that it may still be being written.
func (s *Service) whileWritten(ctx context.Context, mid string, op func() error) error {
	at, known := messageIDTime(mid)
	for {
		err := op()
		age := s.opts.Now().Sub(at)
		if !errors.Is(err, store.ErrNotFound) || !known || age > writeGrace || age < -time.Second {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// messageIDTime reads the time newMessageID put in an id.
func messageIDTime(mid string) (time.Time, bool) {
	if len(mid) != 25 || mid[0] != 'm' {
		return time.Time{}, false
	}
	us, err := strconv.ParseInt(mid[1:17], 16, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.UnixMicro(us), true
}

// replay writes what m has past sent bytes of text and blocks frames, in
// stream order, and answers the new positions.
func replay(out *sse, m domain.ConversationMessage, sent, blocks int) (int, int) {
	for ; blocks < len(m.Blocks); blocks++ {
		b := m.Blocks[blocks]
		if b.At > len(m.Content) {
			break
		}
		if b.At > sent {
			_ = out.content(m.Content[sent:b.At])
			sent = b.At
		}
		if !strings.HasPrefix(string(b.Frame), `{"tool_approval"`) {
			_ = out.raw("data: " + string(b.Frame) + "\n\n")
		}
	}
	if len(m.Content) > sent {
		_ = out.content(m.Content[sent:])
		sent = len(m.Content)
	}
	return sent, blocks
}

// finishReplay ends a re-attached stream as its reply ended.
func finishReplay(out *sse, m domain.ConversationMessage) error {
	if m.Error != "" {
		_ = out.error(m.Error)
		return nil
	}
	if n := len(m.Blocks); n > 0 && strings.HasPrefix(string(m.Blocks[n-1].Frame), `{"tool_approval"`) {
		// Paused for an approval: the event as it was sent.
		_ = out.raw("event: tool_approval\ndata: " + strings.TrimSuffix(strings.TrimPrefix(string(m.Blocks[n-1].Frame), `{"tool_approval":`), "}") + "\n\n")
		return nil
	}
	if m.Usage != nil {
		var uf usageFrame
		uf.Usage.InputTokens, uf.Usage.OutputTokens, uf.Usage.CostUSD, uf.Usage.Demo = m.Usage.InputTokens, m.Usage.OutputTokens, m.Usage.CostUSD, m.Usage.Demo
		_ = out.data(uf)
	}
	_ = out.done()
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
		return httpx.Invalid(fmt.Sprintf("Unknown provider %q", clipRunes(provider, 40)))
	}
	if _, ok := p.FindModel(model); !ok {
		return httpx.Invalid(fmt.Sprintf("Unknown model %q for %s", clipRunes(model, 60), p.Label))
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
	t = clipRunes(strings.Join(strings.Fields(t), " "), MaxTitleRunes)
	if t == "" {
		return defaultTitle
	}
	return t
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// kept is a reply kept with its conversation: the user message stored
// beside it ("" when a paused reply resumes) and the reply's message. A new
// message's storing runs beside the model call; stored closes once it is
// over (err saying why it failed). The stream's first frame waits for it:
// a conversation that is not the caller's is still a plain 404, and every
// id the client is given names a stored message.
type kept struct {
	userID string
	reply  domain.ConversationMessage
	// begin starts the writes (once); a known conversation's start after
	// the stream's first frames (stream), so they do not compete with them.
	begin  func()
	stored chan struct{}
	err    error
	// known: this process recently stored a message of the caller's in
	// this conversation, so the first frame does not wait for stored (a
	// reader of the ids just handed out may find a message still being
	// written: re-attach and Stop wait for it briefly).
	known bool
}

// wait starts the writes if they have not started, and answers once the
// messages are stored: nil, or why they are not.
func (k *kept) wait() error {
	k.begin()
	return k.written()
}

// written is wait without starting the writes: it answers once whoever
// started them sees them over.
func (k *kept) written() error {
	<-k.stored
	return k.err
}

func (k *kept) conversationID() string {
	if k == nil {
		return ""
	}
	return k.reply.ConversationID
}

func (k *kept) messageID() string {
	if k == nil {
		return ""
	}
	return k.reply.ID
}

// keepWith stores a message and its (empty) reply in the caller's
// conversation, or finds the reply a resumed approval goes on in; nil when
// the message is not kept with a conversation.
func (s *Service) keepWith(ctx context.Context, uid string, in messageInput, resumed *pausedReply, now time.Time) (*kept, error) {
	if resumed != nil {
		if resumed.ConversationID == "" {
			return nil, nil
		}
		m, err := s.st.GetMessage(ctx, uid, resumed.ConversationID, resumed.MessageID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, httpx.NotFound("The conversation of this reply was deleted.")
		}
		if err != nil {
			return nil, err
		}
		k := &kept{reply: m, begin: func() {}, stored: make(chan struct{})}
		close(k.stored)
		return k, nil
	}
	cid := strings.TrimSpace(in.ConversationID)
	if cid == "" {
		return nil, nil
	}
	if len(cid) > maxIDLen {
		return nil, conversationNotFound()
	}
	user := domain.ConversationMessage{ID: newMessageID(now), ConversationID: cid, Role: domain.RoleUser, Content: in.Message,
		CreatedAt: now, UpdatedAt: now, Complete: true}
	reply := domain.ConversationMessage{ID: newMessageID(now.Add(time.Microsecond)), ConversationID: cid, Role: domain.RoleAssistant,
		CreatedAt: now, UpdatedAt: now}
	k := &kept{userID: user.ID, reply: reply, stored: make(chan struct{}), known: s.known.has(uid, cid, now)}
	ctx = context.WithoutCancel(ctx)
	k.begin = sync.OnceFunc(func() { go s.storeKept(ctx, k, uid, cid, user, in.Message, now) })
	if !k.known {
		k.begin() // the first frame waits for them
	}
	return k, nil
}

// storeKept writes a kept message and its reply, and closes k.stored.
func (s *Service) storeKept(ctx context.Context, k *kept, uid, cid string, user domain.ConversationMessage, message string, now time.Time) {
	reply := k.reply
	defer close(k.stored)
	// The claim (which proves the conversation is the caller's) and
	// the two messages are written at once: one store call's time. The
	// messages go in the caller's own partition; if the claim fails
	// they are removed again.
	var claimErr, putErr error
	var wg sync.WaitGroup
	wg.Go(func() { claimErr = s.st.ClaimMessages(ctx, uid, cid, 2, now) })
	wg.Go(func() { putErr = s.st.PutMessages(ctx, uid, reply) })
	userErr := s.st.PutMessages(ctx, uid, user)
	wg.Wait()
	switch {
	case errors.Is(claimErr, store.ErrNotFound):
		k.err = conversationNotFound()
	default:
		k.err = cmp.Or(claimErr, putErr, userErr)
	}
	if k.err != nil {
		s.known.forget(uid, cid)
		if err := s.st.DeleteMessages(ctx, uid, cid, user.ID, reply.ID); err != nil {
			slog.WarnContext(ctx, "unkept messages not removed", "err", err)
		}
		return
	}
	s.known.claimed(uid, cid, now)
	go func() {
		if err := s.st.AddSearchSnippet(ctx, uid, cid, clipRunes(message, snippetRunes)); err != nil {
			slog.WarnContext(ctx, "conversation search words not saved", "err", err)
		}
	}()
}

// newMessageID is sortable by time and of fixed length: m, 16 hex digits of
// the time in µs, 8 random hex digits.
func newMessageID(at time.Time) string {
	return fmt.Sprintf("m%016x%s", at.UnixMicro(), randomHex(4))
}

func newConversationID() string { return "c" + randomHex(12) }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
