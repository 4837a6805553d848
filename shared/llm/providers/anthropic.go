package providers

import (
	"aiwork/shared/llm"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
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
		option.WithMiddleware(refuseLongRetryWaits),
	}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	return &Anthropic{client: anthropic.NewClient(opts...), key: o.APIKey}
}

// refuseLongRetryWaits marks an answer asking for a wait beyond
// maxRetryWait as not to be retried (x-should-retry: false, which the SDK
// obeys): the SDK would wait whatever the API asks, and the reply would end
// on the chat's stall timeout instead of the provider's refusal.
func refuseLongRetryWaits(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err == nil && res.StatusCode >= 400 && res.Header.Get("X-Should-Retry") == "" {
		if wait, ok := retryAfter(res.Header, time.Now()); ok && wait > maxRetryWait {
			res.Header.Set("X-Should-Retry", "false")
		}
	}
	return res, err
}

// retryAfter reads the wait a provider asks for: retry-after-ms (in
// milliseconds), else Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms >= 0 {
		return time.Duration(min(ms, 3600e3) * float64(time.Millisecond)), true
	}
	v := h.Get("Retry-After")
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(min(s, 3600) * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// defaultMaxTokens is Anthropic's required max_tokens when the catalogue
// gives none.
const defaultMaxTokens = 4096

// Stream sends system messages as the system parameter and the turns as
// messages; usage comes from message_start and message_delta. A tool_use
// block's input streams as pieces of JSON, whole at its content_block_stop.
func (a *Anthropic) Stream(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
	var res *http.Response // the answer, kept for a refusal the SDK cannot read
	stream := a.client.Messages.NewStreaming(ctx, anthropicParams(req), option.WithResponseInto(&res))
	defer stream.Close()

	var (
		u       llm.Usage
		reason  string
		calls   int
		stopped bool
		uses    = map[int64]*llm.ToolCall{} // tool_use blocks by index, until their stop
	)
	for !stopped && stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "message_start":
			mu := ev.Message.Usage
			u = anthropicUsage(u, mu.InputTokens+mu.CacheCreationInputTokens+mu.CacheReadInputTokens, mu.OutputTokens)
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
			mu := ev.Usage
			u = anthropicUsage(u, mu.InputTokens+mu.CacheCreationInputTokens+mu.CacheReadInputTokens, mu.OutputTokens)
		case "message_stop": // the end: what may follow is the body's end
			stopped = true
		}
	}
	if err := stream.Err(); err != nil {
		return u, a.fail(ctx, err, res)
	}
	if !stopped { // the SDK ends quietly at the body's end
		return u, a.fail(ctx, io.ErrUnexpectedEOF, nil)
	}
	return u, emit(llm.Event{Stop: stopReason(anthropicStops, reason, calls)})
}

// anthropicUsage is u with the counts a report has: message_delta's are
// cumulative, so each replaces the one before.
func anthropicUsage(u llm.Usage, in, out int64) llm.Usage {
	if in > 0 {
		u.InputTokens = int(in)
	}
	if out > 0 {
		u.OutputTokens = int(out)
	}
	return u
}

var anthropicStops = map[string]string{
	"end_turn":      llm.StopEnd,
	"stop_sequence": llm.StopEnd,
	"max_tokens":    llm.StopMaxTokens,
	"tool_use":      llm.StopToolCalls,
}

// anthropicParams is the request of req: system messages as the system
// parameter, the turns merged so the roles alternate.
func anthropicParams(req llm.Request) anthropic.MessageNewParams {
	system, ts := turns(req.Messages)
	msgs := make([]anthropic.MessageParam, 0, len(ts))
	for _, m := range ts {
		msgs = append(msgs, anthropicMessage(m))
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = defaultMaxTokens
	}
	p := anthropic.MessageNewParams{Model: anthropic.Model(req.Model), MaxTokens: int64(maxTokens), Messages: msgs}
	if system != "" {
		p.System = []anthropic.TextBlockParam{{Text: system}}
	}
	for _, t := range req.Tools {
		// The schema goes as written: decoded into the SDK's schema type,
		// big numbers would turn into floats.
		tp := anthropic.ToolParam{Name: t.Name, InputSchema: param.Override[anthropic.ToolInputSchemaParam](toolSchema(t))}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	return p
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

// fail is Stream's error for err, as OpenAI.fail's.
func (a *Anthropic) fail(ctx context.Context, err error, res *http.Response) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		detail := apiErr.Message
		if detail == "" {
			detail = errorMessage([]byte(apiErr.RawJSON()))
		}
		if apiErr.StatusCode >= 400 {
			return upstreamError(LabelAnthropic, apiErr.StatusCode, detail, a.key)
		}
		// An error event in the middle of a stream that began with 200.
		return upstreamError(LabelAnthropic, anthropicErrorStatus[string(apiErr.Type())], detail, a.key)
	}
	if res != nil && res.StatusCode >= 400 { // a body the SDK could not read
		return upstreamError(LabelAnthropic, res.StatusCode, errorMessage(refusalBody(res)), a.key)
	}
	return fmt.Errorf("%s stream: %w", LabelAnthropic, err)
}
