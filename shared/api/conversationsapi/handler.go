// Package conversationsapi is the conversations kept with the account:
// list, create (or upload), rename, re-model, archive and delete them, read
// their messages, re-attach to a reply still being generated and stop it.
// The reply itself is kept by the chat engine (shared/chat) as it streams;
// this group reads what it keeps. The chat function mounts it beside
// chatapi.
package conversationsapi

import (
	"net/http"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/chat"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// ConversationsPath is where the routes live.
const ConversationsPath = routes.ChatConversationsPath

// Options tune the group.
type Options struct {
	// Now is the clock (tests move it).
	Now func() time.Time
}

// Service holds what the handlers need.
type Service struct {
	st      *store.Store
	tokens  *auth.Tokens
	replies *chat.Replies
	now     func() time.Time
}

// New builds the conversations group.
func New(st *store.Store, tokens *auth.Tokens, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{st: st, tokens: tokens, replies: chat.NewReplies(st, chat.Options{Now: opts.Now}), now: opts.Now}
}

// FromConfig builds the group from the chat function's configuration, the
// one wiring the Lambda and the devserver share.
func FromConfig(st *store.Store, cfg config.Chat) *Service {
	return New(st, auth.FromConfig(cfg.Base, 0, st), Options{})
}

// Handler routes the conversations.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	req := func(h httpx.HandlerFunc) http.Handler { return s.tokens.Required(httpx.Handle(h)) }
	mux.Handle("GET "+ConversationsPath, req(s.listConversations))
	mux.Handle("POST "+ConversationsPath, req(s.createConversation))
	mux.Handle("PATCH "+ConversationsPath+"/{id}", req(s.patchConversation))
	mux.Handle("DELETE "+ConversationsPath+"/{id}", req(s.deleteConversation))
	mux.Handle("GET "+ConversationsPath+"/{id}/messages", req(s.listMessages))
	mux.Handle("GET "+ConversationsPath+"/{id}/messages/{mid}/stream", req(s.reattach))
	mux.Handle("POST "+ConversationsPath+"/{id}/messages/{mid}/stop", req(s.stopReply))
	return httpx.WithNotFound(mux)
}
