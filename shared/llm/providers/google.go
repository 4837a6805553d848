package providers

import (
	"aiwork/shared/llm"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"google.golang.org/genai"
)

// Google streams replies from the Gemini API (Google's genai SDK, with an
// API key).
type Google struct {
	client *genai.Client
	err    error // the client's, if it could not be built
	key    string
}

var _ llm.Provider = (*Google)(nil)

// NewGoogle builds the adapter. Options.BaseURL overrides the Gemini API's
// address (https://generativelanguage.googleapis.com/; the SDK adds the API
// version and the path).
func NewGoogle(o Options) *Google {
	cc := &genai.ClientConfig{
		APIKey:      o.APIKey,
		Backend:     genai.BackendGeminiAPI, // whatever GOOGLE_GENAI_USE_VERTEXAI says
		HTTPClient:  o.httpClient(),
		HTTPOptions: genai.HTTPOptions{BaseURL: o.BaseURL},
	}
	if o.MaxRetries > 0 {
		cc.HTTPOptions.RetryOptions = &genai.HTTPRetryOptions{
			Attempts: genai.Ptr(int32(o.MaxRetries + 1)),
			// The other providers' timing: 0.5 s doubling, up to 8 s.
			InitialDelay: genai.Ptr(0.5), MaxDelay: genai.Ptr(8.0), Jitter: genai.Ptr(0.125),
			HTTPStatusCodes: []int32{408, 409, 429, 500, 502, 503, 504},
		}
	}
	client, err := genai.NewClient(context.Background(), cc)
	return &Google{client: client, err: err, key: o.APIKey}
}

// Stream sends system messages as the system instruction and the turns as
// contents, and emits each text part as it comes and each function call
// (Gemini sends a call whole, its arguments an object). Each chunk carries
// the usage so far.
func (g *Google) Stream(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
	var u llm.Usage
	if g.err != nil { // its text prints the client's configuration
		return u, fmt.Errorf("%s: %s", LabelGoogle, redact(g.err.Error(), g.key))
	}
	system, ts := turns(req.Messages)
	contents := make([]*genai.Content, 0, len(ts))
	for _, m := range ts {
		if c := geminiContent(m); len(c.Parts) > 0 {
			contents = append(contents, c)
		}
	}
	cfg := &genai.GenerateContentConfig{
		// A stream cut is the caller's to report, not to be resumed: the
		// user has already seen what came before it.
		AutomaticContinuation: genai.Ptr(false),
	}
	if system != "" {
		cfg.SystemInstruction = &genai.Content{Parts: []*genai.Part{{Text: system}}}
	}
	if req.MaxTokens > 0 {
		cfg.MaxOutputTokens = int32(req.MaxTokens)
	}
	if len(req.Tools) > 0 {
		tool := &genai.Tool{}
		for _, t := range req.Tools {
			tool.FunctionDeclarations = append(tool.FunctionDeclarations, &genai.FunctionDeclaration{
				Name: t.Name, Description: t.Description, ParametersJsonSchema: toolSchema(t),
			})
		}
		cfg.Tools = []*genai.Tool{tool}
	}

	var (
		reason string
		calls  int
	)
	for chunk, err := range g.client.Models.GenerateContentStream(ctx, req.Model, contents, cfg) {
		if err != nil {
			return u, g.fail(ctx, err)
		}
		if m := chunk.UsageMetadata; m != nil {
			u = llm.Usage{InputTokens: int(m.PromptTokenCount), OutputTokens: int(m.CandidatesTokenCount + m.ThoughtsTokenCount)}
		}
		if f := chunk.PromptFeedback; f != nil && f.BlockReason != "" {
			reason = string(f.BlockReason) // the prompt was refused: no candidate follows
		}
		if len(chunk.Candidates) == 0 || chunk.Candidates[0] == nil {
			continue
		}
		c := chunk.Candidates[0]
		if c.Content != nil {
			for _, p := range c.Content.Parts {
				switch {
				case p.FunctionCall != nil:
					calls++
					if err := emit(geminiCall(p)); err != nil {
						return u, err
					}
				case p.Text != "" && !p.Thought:
					if err := emit(llm.Event{Text: p.Text}); err != nil {
						return u, err
					}
				}
			}
		}
		if c.FinishReason != "" && c.FinishReason != genai.FinishReasonUnspecified {
			reason = string(c.FinishReason)
		}
	}
	if reason == "" {
		// The SDK ends quietly at the body's end; a whole reply has its
		// finish reason.
		return u, g.fail(ctx, io.ErrUnexpectedEOF)
	}
	return u, emit(llm.Event{Stop: stopReason(geminiStops, reason, calls)})
}

var geminiStops = map[string]string{
	string(genai.FinishReasonStop):      llm.StopEnd,
	string(genai.FinishReasonMaxTokens): llm.StopMaxTokens,
}

// geminiCallIDPrefix marks the ids given here to calls Gemini sent without
// one: the tool loop needs an id to pair a result with its call, and Gemini
// pairs them by name and order, so these ids are not sent back.
const geminiCallIDPrefix = "gemini-call-"

// geminiCall is the event of a function call part. Its thought signature,
// which a Gemini 3 model wants back with the call in the next turn, is kept
// in the call as base64.
func geminiCall(p *genai.Part) llm.Event {
	fc := p.FunctionCall
	id := fc.ID
	if id == "" {
		id = geminiCallIDPrefix + strings.ToLower(rand.Text())
	}
	args := "{}"
	if len(fc.Args) > 0 {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(fc.Args) == nil {
			args = strings.TrimSuffix(b.String(), "\n")
		}
	}
	e := callEvent(id, fc.Name, args)
	if len(p.ThoughtSignature) > 0 {
		e.ToolCall.Signature = base64.StdEncoding.EncodeToString(p.ThoughtSignature)
	}
	return e
}

// geminiContent is one turn as parts: function responses (a tool result
// goes back under "output", or "error" when the tool failed, as Gemini's
// documentation has it), the text, then the calls. An empty text is left
// out: Gemini refuses a part without data.
func geminiContent(m llm.Message) *genai.Content {
	role := genai.RoleUser
	if m.Role == "assistant" {
		role = genai.RoleModel
	}
	c := &genai.Content{Role: role}
	for _, r := range m.ToolResults {
		key := "output"
		if r.IsError {
			key = "error"
		}
		c.Parts = append(c.Parts, &genai.Part{FunctionResponse: &genai.FunctionResponse{
			ID: geminiCallID(r.CallID), Name: r.Name, Response: map[string]any{key: r.Content},
		}})
	}
	if m.Content != "" {
		c.Parts = append(c.Parts, &genai.Part{Text: m.Content})
	}
	for _, tc := range m.ToolCalls {
		var args map[string]any
		_ = json.Unmarshal(callInput(tc), &args)
		p := &genai.Part{FunctionCall: &genai.FunctionCall{ID: geminiCallID(tc.ID), Name: tc.Name, Args: args}}
		if sig, err := base64.StdEncoding.DecodeString(tc.Signature); err == nil && len(sig) > 0 {
			p.ThoughtSignature = sig
		}
		c.Parts = append(c.Parts, p)
	}
	return c
}

// geminiCallID is the id a call goes back with: its own, none if it was
// given here.
func geminiCallID(id string) string {
	if strings.HasPrefix(id, geminiCallIDPrefix) {
		return ""
	}
	return id
}

// fail is Stream's error for err: the context's if it ended, Gemini's
// refusal or error event as an *llm.UpstreamError (its code is the HTTP
// status), else err as a broken stream's, kept wrapped so the chat engine
// tells a cut stream from an unreadable one.
func (g *Google) fail(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr genai.APIError
	if errors.As(err, &apiErr) {
		// A body that is not Gemini's error object (a list of it, a proxy's
		// text) comes whole as the message.
		return upstreamError(LabelGoogle, apiErr.Code, errorMessage([]byte(apiErr.Message)), g.key)
	}
	return fmt.Errorf("%s stream: %w", LabelGoogle, err)
}
