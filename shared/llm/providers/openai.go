package providers

import (
	"aiwork/shared/llm"
	"context"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
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
	return &OpenAI{client: openai.NewClient(openAIOptions(o)...), key: o.APIKey, label: LabelGoogle, legacyMaxTokens: true}
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
// last chunk carries the usage, and emits each content delta as it comes.
func (a *OpenAI) Stream(ctx context.Context, req llm.Request, emit func(string) error) (llm.Usage, error) {
	msgs := make([]openai.ChatCompletionMessageParamUnion, 0, len(req.Messages))
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			msgs = append(msgs, openai.SystemMessage(m.Content))
		case "assistant":
			msgs = append(msgs, openai.AssistantMessage(m.Content))
		default:
			msgs = append(msgs, openai.UserMessage(m.Content))
		}
	}
	params := openai.ChatCompletionNewParams{
		Model:         req.Model,
		Messages:      msgs,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	switch {
	case req.MaxTokens > 0 && a.legacyMaxTokens:
		params.MaxTokens = openai.Int(int64(req.MaxTokens))
	case req.MaxTokens > 0:
		params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
	}
	var failed httpFailure
	stream := a.client.Chat.Completions.NewStreaming(ctx, params, option.WithMiddleware(failed.capture))
	defer stream.Close()

	var u llm.Usage
	for stream.Next() {
		chunk := stream.Current()
		for _, c := range chunk.Choices {
			if c.Index != 0 || c.Delta.Content == "" {
				continue
			}
			if err := emit(c.Delta.Content); err != nil {
				return u, err
			}
		}
		if chunk.Usage.PromptTokens > 0 || chunk.Usage.CompletionTokens > 0 {
			u = llm.Usage{InputTokens: int(chunk.Usage.PromptTokens), OutputTokens: int(chunk.Usage.CompletionTokens)}
		}
	}
	if err := stream.Err(); err != nil {
		return u, a.fail(ctx, err, failed)
	}
	return u, nil
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
