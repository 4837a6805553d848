package providers

import (
	"aiwork/shared/llm"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// Anthropic streams replies from the Claude Messages API.
type Anthropic struct {
	client anthropic.Client
	key    string
}

var _ llm.Provider = (*Anthropic)(nil)

// NewAnthropic builds the adapter. It reads nothing from the environment:
// the key and address are the ones given.
func NewAnthropic(o Options) *Anthropic {
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithAPIKey(o.APIKey),
		option.WithHTTPClient(o.httpClient()),
		option.WithMaxRetries(o.MaxRetries),
	}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	return &Anthropic{client: anthropic.NewClient(opts...), key: o.APIKey}
}

// defaultMaxTokens is Anthropic's required max_tokens when the catalogue
// gives none.
const defaultMaxTokens = 4096

// Stream sends system messages as the system parameter and the turns as
// messages; usage comes from message_start and message_delta.
func (a *Anthropic) Stream(ctx context.Context, req llm.Request, emit func(string) error) (llm.Usage, error) {
	system, ts := turns(req.Messages)
	msgs := make([]anthropic.MessageParam, 0, len(ts))
	for _, m := range ts {
		if m.Role == "assistant" {
			msgs = append(msgs, anthropic.NewAssistantMessage(anthropic.NewTextBlock(m.Content)))
		} else {
			msgs = append(msgs, anthropic.NewUserMessage(anthropic.NewTextBlock(m.Content)))
		}
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = defaultMaxTokens
	}
	params := anthropic.MessageNewParams{Model: anthropic.Model(req.Model), MaxTokens: int64(maxTokens), Messages: msgs}
	if system != "" {
		params.System = []anthropic.TextBlockParam{{Text: system}}
	}
	var failed httpFailure
	stream := a.client.Messages.NewStreaming(ctx, params, option.WithMiddleware(failed.capture))
	defer stream.Close()

	var u llm.Usage
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "message_start":
			mu := ev.Message.Usage
			u.InputTokens = int(mu.InputTokens + mu.CacheCreationInputTokens + mu.CacheReadInputTokens)
			u.OutputTokens = int(mu.OutputTokens)
		case "content_block_delta":
			if ev.Delta.Type == "text_delta" && ev.Delta.Text != "" {
				if err := emit(ev.Delta.Text); err != nil {
					return u, err
				}
			}
		case "message_delta": // cumulative counts
			if ev.Usage.OutputTokens > 0 {
				u.OutputTokens = int(ev.Usage.OutputTokens)
			}
			if in := ev.Usage.InputTokens + ev.Usage.CacheCreationInputTokens + ev.Usage.CacheReadInputTokens; in > 0 {
				u.InputTokens = int(in)
			}
		}
	}
	if err := stream.Err(); err != nil {
		return u, a.fail(ctx, err, failed)
	}
	return u, nil
}

// anthropicErrorStatus maps the error types of Anthropic's error events
// (sent inside a 200 stream) to the HTTP status they stand for.
var anthropicErrorStatus = map[string]int{
	"invalid_request_error": http.StatusBadRequest,
	"authentication_error":  http.StatusUnauthorized,
	"permission_error":      http.StatusForbidden,
	"not_found_error":       http.StatusNotFound,
	"request_too_large":     http.StatusRequestEntityTooLarge,
	"rate_limit_error":      http.StatusTooManyRequests,
	"api_error":             http.StatusInternalServerError,
	"overloaded_error":      529,
}

func (a *Anthropic) fail(ctx context.Context, err error, failed httpFailure) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		detail := errorMessage([]byte(apiErr.RawJSON()))
		if apiErr.StatusCode >= 400 {
			return upstreamError(LabelAnthropic, apiErr.StatusCode, detail, a.key)
		}
		// An error event in the middle of a stream that began with 200.
		return upstreamError(LabelAnthropic, anthropicErrorStatus[string(apiErr.Type())], detail, a.key)
	}
	if failed.status >= 400 {
		return upstreamError(LabelAnthropic, failed.status, errorMessage(failed.body), a.key)
	}
	return fmt.Errorf("anthropic stream: %w", err)
}
