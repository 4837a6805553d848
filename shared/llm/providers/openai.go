package providers

import (
	"aiwork/shared/llm"
	"context"
	"encoding/json"
	"net/http"
)

// OpenAI streams Chat Completions from OpenAI or any OpenAI-compatible
// API (Options.BaseURL): an OpenAI gateway, or Gemini's (NewGoogle).
type OpenAI struct {
	client *streamClient
	// legacyMaxTokens: "max_tokens" for APIs that do not take OpenAI's
	// newer max_completion_tokens.
	legacyMaxTokens bool
	// toolResultNames: a tool message also names its tool (Gemini makes it a
	// functionResponse, which wants the name).
	toolResultNames bool
}

var _ llm.Provider = (*OpenAI)(nil)

// OpenAIBaseURL is OpenAI's API.
const OpenAIBaseURL = "https://api.openai.com/v1/"

// NewOpenAI builds the adapter.
func NewOpenAI(o Options) *OpenAI {
	return &OpenAI{client: openAIClient(o, OpenAIBaseURL, LabelOpenAI)}
}

// GeminiOpenAIBaseURL is Gemini's OpenAI-compatible API.
const GeminiOpenAIBaseURL = "https://generativelanguage.googleapis.com/v1beta/openai/"

// NewGoogle streams from Gemini through its OpenAI-compatible endpoint
// (Google's documented route for OpenAI clients): one wire format for both,
// where Google's own Go SDK would add gRPC and its auth stack to the chat
// function (DESIGN §10: bootstrap size and init time). Options.BaseURL
// overrides GeminiOpenAIBaseURL.
func NewGoogle(o Options) *OpenAI {
	return &OpenAI{client: openAIClient(o, GeminiOpenAIBaseURL, LabelGoogle), legacyMaxTokens: true, toolResultNames: true}
}

func openAIClient(o Options, base, label string) *streamClient {
	return newStreamClient(o, base, "chat/completions", label, http.Header{"Authorization": {"Bearer " + o.APIKey}})
}

// Stream sends the conversation with stream_options.include_usage, so the
// last chunk carries the usage, and emits each content delta as it comes
// and each tool call once whole.
func (a *OpenAI) Stream(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
	stream, err := a.client.open(ctx, a.params(req))
	if err != nil {
		return llm.Usage{}, err
	}
	defer stream.close()

	var (
		u      llm.Usage
		calls  openAICalls
		reason string
	)
	for stream.next() {
		var chunk openAIChunk
		if err := json.Unmarshal(stream.data, &chunk); err != nil {
			return u, a.client.readFailed(ctx, err)
		}
		if len(chunk.Error) > 0 && string(chunk.Error) != "null" { // an error in the middle of the stream
			return u, a.client.eventError(errorCode(stream.data), stream.data)
		}
		for _, c := range chunk.Choices {
			if c.Index != 0 {
				continue
			}
			if c.Delta.Content != "" {
				// Text after calls: the model is done with them.
				if err := calls.flush(emit); err != nil {
					return u, err
				}
				if err := emit(llm.Event{Text: c.Delta.Content}); err != nil {
					return u, err
				}
			}
			for _, p := range c.Delta.ToolCalls {
				calls.add(p)
			}
			if c.FinishReason != "" {
				reason = c.FinishReason
				if err := calls.flush(emit); err != nil {
					return u, err
				}
			}
		}
		if chunk.Usage.PromptTokens > 0 || chunk.Usage.CompletionTokens > 0 {
			u = llm.Usage{InputTokens: int(chunk.Usage.PromptTokens), OutputTokens: int(chunk.Usage.CompletionTokens)}
		}
	}
	if err := stream.err(); err != nil {
		return u, a.client.readFailed(ctx, err)
	}
	if err := calls.flush(emit); err != nil {
		return u, err
	}
	return u, emit(llm.Event{Stop: stopReason(openAIStops, reason, calls.emitted)})
}

var openAIStops = map[string]string{
	"stop":          llm.StopEnd,
	"length":        llm.StopMaxTokens,
	"tool_calls":    llm.StopToolCalls,
	"function_call": llm.StopToolCalls,
}

// openAICalls assembles the tool calls a stream sends in pieces: a call's
// first piece has its id and name, the next ones more of its arguments,
// each piece keyed by the call's index.
type openAICalls struct {
	pending []llm.ToolCall
	at      map[int64]int // a call's index → its place in pending
	emitted int
}

func (a *openAICalls) add(p openAIToolCallPiece) {
	if p.ID == "" && p.Function.Name == "" && p.Function.Arguments == "" {
		return // nothing of the call (Gemini sends pieces with only its metadata)
	}
	i, ok := a.at[p.Index]
	// A new id at a known index is a new call: Gemini leaves the index out,
	// so all its calls come at 0.
	if !ok || p.ID != "" && a.pending[i].ID != "" && p.ID != a.pending[i].ID {
		if a.at == nil {
			a.at = map[int64]int{}
		}
		a.pending = append(a.pending, llm.ToolCall{})
		i = len(a.pending) - 1
		a.at[p.Index] = i
	}
	c := &a.pending[i]
	if c.ID == "" {
		c.ID = p.ID
	}
	if p.Extra != nil && p.Extra.Google.ThoughtSignature != "" {
		c.Signature = p.Extra.Google.ThoughtSignature
	}
	if c.Name == "" {
		c.Name = p.Function.Name
	}
	c.Arguments += p.Function.Arguments
}

// flush emits the calls assembled so far, in the order they began.
func (a *openAICalls) flush(emit func(llm.Event) error) error {
	pending := a.pending
	a.pending, a.at = nil, nil
	for _, c := range pending {
		a.emitted++
		e := callEvent(c.ID, c.Name, c.Arguments)
		e.ToolCall.Signature = c.Signature
		if err := emit(e); err != nil {
			return err
		}
	}
	return nil
}
