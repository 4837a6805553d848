package providers

import (
	"aiwork/shared/llm"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/param"
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
// messages; usage comes from message_start and message_delta. A tool_use
// block's input streams as pieces of JSON, whole at its content_block_stop.
func (a *Anthropic) Stream(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
	system, ts := turns(req.Messages)
	msgs := make([]anthropic.MessageParam, 0, len(ts))
	for _, m := range ts {
		msgs = append(msgs, anthropicMessage(m))
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = defaultMaxTokens
	}
	params := anthropic.MessageNewParams{Model: anthropic.Model(req.Model), MaxTokens: int64(maxTokens), Messages: msgs}
	if system != "" {
		params.System = []anthropic.TextBlockParam{{Text: system}}
	}
	for _, t := range req.Tools {
		tp := anthropic.ToolParam{Name: t.Name, InputSchema: param.Override[anthropic.ToolInputSchemaParam](toolSchema(t))}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	var failed httpFailure
	stream := a.client.Messages.NewStreaming(ctx, params, option.WithMiddleware(failed.capture))
	defer stream.Close()

	var (
		u      llm.Usage
		reason string
		calls  int
		uses   = map[int64]*llm.ToolCall{} // tool_use blocks by index, until their stop
	)
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "message_start":
			mu := ev.Message.Usage
			u.InputTokens = int(mu.InputTokens + mu.CacheCreationInputTokens + mu.CacheReadInputTokens)
			u.OutputTokens = int(mu.OutputTokens)
		case "content_block_start":
			if b := ev.ContentBlock; b.Type == "tool_use" {
				uses[ev.Index] = &llm.ToolCall{ID: b.ID, Name: b.Name}
			}
		case "content_block_delta":
			switch ev.Delta.Type {
			case "text_delta":
				if ev.Delta.Text != "" {
					if err := emit(llm.Event{Text: ev.Delta.Text}); err != nil {
						return u, err
					}
				}
			case "input_json_delta":
				if c := uses[ev.Index]; c != nil {
					c.Arguments += ev.Delta.PartialJSON
				}
			}
		case "content_block_stop":
			if c := uses[ev.Index]; c != nil {
				delete(uses, ev.Index)
				calls++
				if err := emit(callEvent(c.ID, c.Name, c.Arguments)); err != nil {
					return u, err
				}
			}
		case "message_delta": // cumulative counts
			reason = string(ev.Delta.StopReason)
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
	return u, emit(llm.Event{Stop: stopReason(anthropicStops, reason, calls)})
}

var anthropicStops = map[string]string{
	"end_turn":      llm.StopEnd,
	"stop_sequence": llm.StopEnd,
	"max_tokens":    llm.StopMaxTokens,
	"tool_use":      llm.StopToolCalls,
}

// anthropicMessage is one turn as content blocks: tool results first (the
// API wants them before any text of the turn), the text, then the calls.
func anthropicMessage(m llm.Message) anthropic.MessageParam {
	var blocks []anthropic.ContentBlockParamUnion
	for _, r := range m.ToolResults {
		b := anthropic.ToolResultBlockParam{ToolUseID: r.CallID, IsError: anthropic.Bool(r.IsError)}
		if r.Content != "" { // an empty text block is refused; no content is not
			b.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: r.Content}}}
		}
		blocks = append(blocks, anthropic.ContentBlockParamUnion{OfToolResult: &b})
	}
	if hasText(m) {
		blocks = append(blocks, anthropic.NewTextBlock(m.Content))
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, callInput(c), c.Name))
	}
	if m.Role == "assistant" {
		return anthropic.NewAssistantMessage(blocks...)
	}
	return anthropic.NewUserMessage(blocks...)
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
