package providers

import (
	"aiwork/shared/llm"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

// OpenAI streams Chat Completions from OpenAI or any OpenAI-compatible
// API (Options.BaseURL: an OpenAI gateway, a proxy), or Gemini's
// (NewGoogle).
type OpenAI struct {
	client openai.Client
	key    string
	label  string // the provider users read in its errors
	// gemini: Gemini's OpenAI-compatible API, which takes max_tokens (not
	// max_completion_tokens), wants a tool message to name its tool (it
	// becomes a functionResponse, which has the name) and a call's thought
	// signature back with it.
	gemini bool
}

var _ llm.Provider = (*OpenAI)(nil)

// NewOpenAI builds the adapter.
func NewOpenAI(o Options) *OpenAI {
	return &OpenAI{client: openAIClient(o, o.BaseURL), key: o.APIKey, label: LabelOpenAI}
}

// GeminiOpenAIBaseURL is Gemini's OpenAI-compatible API.
const GeminiOpenAIBaseURL = "https://generativelanguage.googleapis.com/v1beta/openai/"

// NewGoogle streams from Gemini through its OpenAI-compatible endpoint
// (Google's documented route for OpenAI clients), with the OpenAI SDK:
// Google's own Go SDK links Google Cloud's auth stack (gRPC, OpenCensus,
// html/template, which turns off the linker's dead-method elimination),
// more than doubling the chat function's bootstrap and lengthening its
// cold start. Options.BaseURL overrides GeminiOpenAIBaseURL.
func NewGoogle(o Options) *OpenAI {
	base := o.BaseURL
	if base == "" {
		base = GeminiOpenAIBaseURL
	}
	return &OpenAI{client: openAIClient(o, base), key: o.APIKey, label: LabelGoogle, gemini: true}
}

// openAIClient is the SDK's client for o, at base ("" for the SDK's own:
// OpenAI's, or OPENAI_BASE_URL's).
func openAIClient(o Options, base string) openai.Client {
	opts := []option.RequestOption{
		option.WithAPIKey(o.APIKey),
		option.WithHTTPClient(o.httpClient()),
		option.WithMaxRetries(o.MaxRetries),
		option.WithMaxRetryDelay(maxRetryWait),
	}
	if base != "" {
		opts = append(opts, option.WithBaseURL(base))
	}
	return openai.NewClient(opts...)
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
	case req.MaxTokens <= 0:
	case a.gemini:
		params.MaxTokens = openai.Int(int64(req.MaxTokens))
	default:
		params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
	}
	for _, t := range req.Tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: schemaFields(t)}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	// The answer, kept for a refusal whose body the SDK cannot read as an
	// OpenAI error (a gateway's own text).
	var res *http.Response
	stream := a.client.Chat.Completions.NewStreaming(ctx, params, option.WithResponseInto(&res))
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
		return u, a.fail(ctx, err, res)
	}
	if reason == "" {
		// The SDK ends quietly at the body's end, [DONE] or not; a whole
		// reply has its finish reason.
		return u, a.fail(ctx, io.ErrUnexpectedEOF, nil)
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
// tool_calls, and each tool result is a tool message of its own. The SDK's
// params have no field for what Gemini wants beyond OpenAI's shape, so it
// goes as extra fields.
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
				tc := openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Arguments},
				}
				if a.gemini && c.Signature != "" {
					tc.SetExtraFields(map[string]any{"extra_content": googleExtra{Google: googleSignature{ThoughtSignature: c.Signature}}})
				}
				am.ToolCalls = append(am.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: &tc})
			}
			msgs = append(msgs, openai.ChatCompletionMessageParamUnion{OfAssistant: &am})
		case m.Role == "assistant":
			msgs = append(msgs, openai.AssistantMessage(m.Content))
		case m.Role == "tool":
			for _, r := range m.ToolResults {
				tm := openai.ToolMessage(r.Content, r.CallID)
				if a.gemini {
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

// thoughtSignature is the signature of a tool call piece, if it has one.
func thoughtSignature(p openai.ChatCompletionChunkChoiceDeltaToolCall) string {
	f, ok := p.JSON.ExtraFields["extra_content"]
	if !ok {
		return ""
	}
	var extra googleExtra
	_ = json.Unmarshal([]byte(f.Raw()), &extra)
	return extra.Google.ThoughtSignature
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

func (a *openAICalls) add(p openai.ChatCompletionChunkChoiceDeltaToolCall) {
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
	if sig := thoughtSignature(p); sig != "" {
		c.Signature = sig
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

// fail is Stream's error for err: the context's if it ended (the stream
// broke because the caller left), the provider's refusal or error event
// as an *llm.UpstreamError, else err as a broken stream's, kept wrapped so
// the chat engine tells a cut stream from an unreadable one. res is the
// answer of a refusal, if any.
func (a *OpenAI) fail(ctx context.Context, err error, res *http.Response) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	status, detail := 0, ""
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		status, detail = apiErr.StatusCode, apiErr.Message
	}
	if res != nil && res.StatusCode >= 400 {
		status = res.StatusCode
		if detail == "" { // a body the SDK could not read as an OpenAI error (a gateway's own, Google's list of errors)
			detail = errorMessage(refusalBody(res))
		}
	}
	if status >= 400 {
		return upstreamError(a.label, status, detail, a.key)
	}
	var se *ssestream.StreamError
	if errors.As(err, &se) { // an error event in the middle of the stream
		return upstreamError(a.label, errorCode(se.Event.Data), errorMessage(se.Event.Data), a.key)
	}
	return fmt.Errorf("%s stream: %w", a.label, err)
}

// refusalBody is the body of a refused request, as the SDK left it on
// the answer (read, then kept for errors to show).
func refusalBody(res *http.Response) []byte {
	if res.Body == nil {
		return nil
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	return body
}

// maxErrorBody bounds the read of a refusal's body.
const maxErrorBody = 64 << 10
