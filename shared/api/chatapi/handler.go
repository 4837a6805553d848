// Package chatapi streams chat replies: POST /api/v1/mcp-connections/message
// answers text/event-stream, one frame per upstream chunk, flushed as it
// arrives. The chat Lambda (response streaming) and the devserver mount it.
package chatapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"aiwork/shared/auth"
	"aiwork/shared/httpx"
	"aiwork/shared/llm"
	"aiwork/shared/store"
)

// Path is the streaming route.
const Path = "/api/v1/mcp-connections/message"

// Limits of one request.
const (
	MaxBodyBytes    = 512 << 10
	MaxContextChars = 120_000
)

// Options tune the stream.
type Options struct {
	// StallTimeout ends a stream that got no upstream chunk for this long.
	StallTimeout time.Duration
}

// Service holds what the handler needs.
type Service struct {
	st       *store.Store
	tokens   *auth.Tokens
	registry *llm.Registry
	opts     Options
}

// New builds the chat handler.
func New(st *store.Store, tokens *auth.Tokens, registry *llm.Registry, opts Options) *Service {
	if opts.StallTimeout <= 0 {
		opts.StallTimeout = 30 * time.Second
	}
	return &Service{st: st, tokens: tokens, registry: registry, opts: opts}
}

// Handler routes the message stream.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST "+Path, s.tokens.Required(httpx.Handle(s.message)))
	return httpx.WithNotFound(mux)
}

type messageInput struct {
	ConnectionID string        `json:"connection_id"`
	Message      string        `json:"message"`
	Model        string        `json:"model"`
	Context      []llm.Message `json:"context"`
}

type usageFrame struct {
	Usage struct {
		InputTokens  int     `json:"input_tokens"`
		OutputTokens int     `json:"output_tokens"`
		CostUSD      float64 `json:"cost_usd"`
	} `json:"usage"`
}

func (s *Service) message(w http.ResponseWriter, r *http.Request) error {
	var in messageInput
	if err := httpx.DecodeJSONLimit(w, r, &in, MaxBodyBytes); err != nil {
		return err
	}
	ctx := r.Context()
	uid, _ := auth.UserID(ctx)
	if strings.TrimSpace(in.ConnectionID) == "" {
		return httpx.Invalid("connection_id is required")
	}
	conn, err := s.st.GetConnection(ctx, uid, in.ConnectionID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && conn.Kind != "llm") {
		return httpx.NotFound("Connection not found. Connect again.")
	}
	if err != nil {
		return err
	}
	text := strings.TrimSpace(in.Message)
	if text == "" {
		return httpx.Invalid("Message is required")
	}
	provider, _ := llm.FindProvider(conn.Provider)
	modelName := conn.Model
	if in.Model != "" {
		modelName = in.Model
	}
	model, ok := provider.FindModel(modelName)
	if !ok {
		return httpx.Invalid(fmt.Sprintf("Model '%s' is not offered by %s. Choose one of: %s.", modelName, provider.Label, strings.Join(provider.ModelNames(), ", ")))
	}
	msgs, total, err := conversation(in.Context, in.Message)
	if err != nil {
		return err
	}
	if total > MaxContextChars {
		return &httpx.Error{Code: httpx.CodeTooLarge, Detail: fmt.Sprintf("This conversation is too long to send (%d characters; the limit is %d). Start a new chat tab or shorten the message.", total, MaxContextChars)}
	}
	adapter, _, _ := s.registry.Adapter(provider.ID)
	s.stream(ctx, newSSE(w), adapter, model, msgs)
	return nil
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

// stream relays the upstream reply frame by frame. It ends with a usage
// frame and [DONE], or with an error frame; a stall ends it with
// 'Stream timeout'; a client disconnect cancels the upstream call.
func (s *Service) stream(parent context.Context, out *sse, adapter llm.Provider, model llm.Model, msgs []llm.Message) {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	stall := time.AfterFunc(s.opts.StallTimeout, func() { cancel(errStall) })
	defer stall.Stop()

	usage, err := adapter.Stream(ctx, llm.Request{Model: model.APIID, Messages: msgs, MaxTokens: model.MaxTokens}, func(delta string) error {
		if delta == "" {
			return nil
		}
		stall.Reset(s.opts.StallTimeout)
		return out.content(delta)
	})
	stall.Stop()
	switch {
	case errors.Is(context.Cause(ctx), errStall):
		_ = out.error("Stream timeout")
		return
	case parent.Err() != nil:
		return // the client went away; nobody to tell
	case err != nil:
		slog.WarnContext(parent, "chat upstream failed", "model", model.APIID, "err", err)
		_ = out.error(upstreamDetail(err))
		return
	}
	var uf usageFrame
	uf.Usage.InputTokens, uf.Usage.OutputTokens = usage.InputTokens, usage.OutputTokens
	uf.Usage.CostUSD = model.Cost(usage)
	_ = out.data(uf)
	_ = out.done()
}

var errStall = errors.New("stream stalled")

func upstreamDetail(err error) string {
	var ue *llm.UpstreamError
	if errors.As(err, &ue) {
		switch {
		case ue.Status == http.StatusUnauthorized || ue.Status == http.StatusForbidden:
			return fmt.Sprintf("%s refused the API key (HTTP %d). Check the provider key configured on the server.", ue.Provider, ue.Status)
		case ue.Status == http.StatusTooManyRequests:
			return fmt.Sprintf("%s is rate limiting requests (HTTP 429). Wait a moment and try again.", ue.Provider)
		case ue.Status >= 500:
			return fmt.Sprintf("%s is having trouble (HTTP %d). Try again shortly.", ue.Provider, ue.Status)
		case ue.Status > 0:
			return fmt.Sprintf("%s refused the request (HTTP %d): %s", ue.Provider, ue.Status, ue.Detail)
		}
		return fmt.Sprintf("%s: %s", ue.Provider, ue.Detail)
	}
	return "The model provider failed to answer. Please try again."
}
