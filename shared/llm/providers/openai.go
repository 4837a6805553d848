package providers

import (
	"aiwork/shared/llm"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

// OpenAI streams Chat Completions from OpenAI or any OpenAI-compatible
// API (Options.BaseURL): an OpenAI gateway, or Gemini's (NewGoogle).
type OpenAI struct {
	client openai.Client
	key    string
	// label names the provider in errors users read.
	label string
	// legacyMaxTokens: "max_tokens" for APIs that do not take OpenAI's
	// newer max_completion_tokens.
	legacyMaxTokens bool
	// toolResultNames: a tool message also names its tool (Gemini makes it a
	// functionResponse, which wants the name).
	toolResultNames bool
}

var _ llm.Provider = (*OpenAI)(nil)

// NewOpenAI builds the adapter.
func NewOpenAI(o Options) *OpenAI {
	return &OpenAI{client: openai.NewClient(openAIOptions(o)...), key: o.APIKey, label: LabelOpenAI}
}

// GeminiOpenAIBaseURL is Gemini's OpenAI-compatible API.
const GeminiOpenAIBaseURL = "https://generativelanguage.googleapis.com/v1beta/openai/"

// NewGoogle streams from Gemini through its OpenAI-compatible endpoint
// (Google's documented route for the OpenAI libraries): one SDK for both,
// where Google's own Go SDK would add gRPC and its auth stack to the chat
// function (DESIGN §10: bootstrap size and init time). Options.BaseURL
// overrides GeminiOpenAIBaseURL.
func NewGoogle(o Options) *OpenAI {
	if o.BaseURL == "" {
		o.BaseURL = GeminiOpenAIBaseURL
	}
	return &OpenAI{client: openai.NewClient(openAIOptions(o)...), key: o.APIKey, label: LabelGoogle, legacyMaxTokens: true, toolResultNames: true}
}

func openAIOptions(o Options) []option.RequestOption {
	opts := []option.RequestOption{
		option.WithAPIKey(o.APIKey),
		option.WithHTTPClient(o.httpClient()),
		option.WithMaxRetries(o.MaxRetries),
	}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	return opts
}

// Stream sends the conversation with stream_options.include_usage, so the
// last chunk carries the usage, and emits each content delta as it comes
// and each tool call once whole.
func (a *OpenAI) Stream(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
	params := openai.ChatCompletionNewParams{
		Model:         req.Model,
		Messages:      a.messages(req.Messages),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	switch {
	case req.MaxTokens > 0 && a.legacyMaxTokens:
		params.MaxTokens = openai.Int(int64(req.MaxTokens))
	case req.MaxTokens > 0:
		params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
	}
	for _, t := range req.Tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: schemaFields(t)}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	var failed httpFailure
	// The request goes through the SDK (auth, retries, base URL); the answer
	// is read as openAIChunk, a plain struct for encoding/json: the SDK's own
	// chunk type decodes through reflection-built decoders that cost more CPU
	// than the rest of the relay (issue 27's profile).
	var raw *http.Response
	err := a.client.Post(ctx, "chat/completions", params, &raw,
		option.WithJSONSet("stream", true), option.WithMiddleware(failed.capture))
	stream := ssestream.NewStream[openAIChunk](ssestream.NewDecoder(raw), err)
	defer stream.Close()

	var (
		u      llm.Usage
		calls  openAICalls
		reason string
	)
	for stream.Next() {
		chunk := stream.Current()
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
	if err := stream.Err(); err != nil {
		return u, a.fail(ctx, err, failed)
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

// messages maps the conversation: an assistant turn's calls go in its
// tool_calls, and each tool result is a tool message of its own.
func (a *OpenAI) messages(in []llm.Message) []openai.ChatCompletionMessageParamUnion {
	msgs := make([]openai.ChatCompletionMessageParamUnion, 0, len(in))
	for _, m := range in {
		switch {
		case m.Role == "system":
			msgs = append(msgs, openai.SystemMessage(m.Content))
		case m.Role == "assistant" && len(m.ToolCalls) > 0:
			am := openai.ChatCompletionAssistantMessageParam{}
			if m.Content != "" {
				am.Content.OfString = openai.String(m.Content)
			}
			for _, c := range m.ToolCalls {
				fc := &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Arguments},
				}
				if c.Signature != "" {
					fc.SetExtraFields(map[string]any{"extra_content": googleExtra{Google: googleSignature{ThoughtSignature: c.Signature}}})
				}
				am.ToolCalls = append(am.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: fc})
			}
			msgs = append(msgs, openai.ChatCompletionMessageParamUnion{OfAssistant: &am})
		case m.Role == "assistant":
			msgs = append(msgs, openai.AssistantMessage(m.Content))
		case m.Role == "tool":
			for _, r := range m.ToolResults {
				tm := openai.ToolMessage(r.Content, r.CallID)
				if a.toolResultNames {
					tm.OfTool.SetExtraFields(map[string]any{"name": r.Name})
				}
				msgs = append(msgs, tm)
			}
		default:
			msgs = append(msgs, openai.UserMessage(m.Content))
		}
	}
	return msgs
}

// schemaFields is a tool's schema as the SDK's parameters map, each value
// the schema's own JSON text, so it goes out as written (a map of decoded
// values would turn big numbers into floats).
func schemaFields(t llm.Tool) shared.FunctionParameters {
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(toolSchema(t), &fields)
	out := make(shared.FunctionParameters, len(fields))
	for k, v := range fields {
		out[k] = v
	}
	return out
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

// openAIChunk is what the relay reads of a chat.completion.chunk: the first
// choice's delta, its finish reason and the usage the last chunk carries.
type openAIChunk struct {
	Choices []struct {
		Index int64 `json:"index"`
		Delta struct {
			Content   string                `json:"content"`
			ToolCalls []openAIToolCallPiece `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

// openAIToolCallPiece is one piece of a streamed tool call.
type openAIToolCallPiece struct {
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	Extra *googleExtra `json:"extra_content"`
}

// Gemini's thought signature travels beside a tool call as
// extra_content.google.thought_signature, out and back: a Gemini 3 model
// refuses a tool round whose calls come back without theirs.
type (
	googleExtra struct {
		Google googleSignature `json:"google"`
	}
	googleSignature struct {
		ThoughtSignature string `json:"thought_signature"`
	}
)

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

func (a *OpenAI) fail(ctx context.Context, err error, failed httpFailure) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr) && apiErr.StatusCode >= 400:
		detail := apiErr.Message
		if detail == "" {
			detail = errorMessage(failed.body)
		}
		return upstreamError(a.label, apiErr.StatusCode, detail, a.key)
	case failed.status >= 400: // a body the SDK could not read as an OpenAI error
		return upstreamError(a.label, failed.status, errorMessage(failed.body), a.key)
	}
	var se *ssestream.StreamError
	if errors.As(err, &se) { // an error event in the middle of the stream
		return upstreamError(a.label, errorCode(se.Event.Data), errorMessage(se.Event.Data), a.key)
	}
	return fmt.Errorf("%s stream: %w", a.label, err)
}
