package providers

import (
	"aiwork/shared/llm"
	"context"
	"encoding/json"
	"net/http"
)

// Anthropic streams replies from the Claude Messages API.
type Anthropic struct {
	client *streamClient
}

var _ llm.Provider = (*Anthropic)(nil)

// AnthropicBaseURL is Anthropic's API.
const AnthropicBaseURL = "https://api.anthropic.com/"

// NewAnthropic builds the adapter. It reads nothing from the environment:
// the key and address are the ones given.
func NewAnthropic(o Options) *Anthropic {
	header := http.Header{"X-Api-Key": {o.APIKey}, "Anthropic-Version": {"2023-06-01"}}
	return &Anthropic{client: newStreamClient(o, AnthropicBaseURL, "v1/messages", LabelAnthropic, header)}
}

// defaultMaxTokens is Anthropic's required max_tokens when the catalogue
// gives none.
const defaultMaxTokens = 4096

// Stream sends system messages as the system parameter and the turns as
// messages; usage comes from message_start and message_delta. A tool_use
// block's input streams as pieces of JSON, whole at its content_block_stop.
func (a *Anthropic) Stream(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
	stream, err := a.client.open(ctx, anthropicParams(req))
	if err != nil {
		return llm.Usage{}, err
	}
	defer stream.close()

	var (
		u      llm.Usage
		reason string
		calls  int
		uses   = map[int64]*llm.ToolCall{} // tool_use blocks by index, until their stop
	)
read:
	for stream.next() {
		var ev anthropicEvent
		if err := json.Unmarshal(stream.data, &ev); err != nil {
			return u, a.client.readFailed(ctx, err)
		}
		if stream.event == "error" || ev.Type == "error" {
			return u, a.client.eventError(anthropicErrorStatus[ev.Error.Type], stream.data)
		}
		switch ev.Type {
		case "message_start":
			u = ev.Message.Usage.over(u)
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
		case "message_delta":
			reason = ev.Delta.StopReason
			u = ev.Usage.over(u)
		case "message_stop": // the end: what may follow is the body's end
			break read
		}
	}
	if err := stream.err(); err != nil {
		return u, a.client.readFailed(ctx, err)
	}
	return u, emit(llm.Event{Stop: stopReason(anthropicStops, reason, calls)})
}

var anthropicStops = map[string]string{
	"end_turn":      llm.StopEnd,
	"stop_sequence": llm.StopEnd,
	"max_tokens":    llm.StopMaxTokens,
	"tool_use":      llm.StopToolCalls,
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
