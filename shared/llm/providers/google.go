package providers

import (
	"aiwork/shared/llm"
	"context"
	"errors"
	"fmt"

	"google.golang.org/genai"
)

// Google streams replies from Gemini through the Gemini API (API key).
type Google struct {
	client *genai.Client
	key    string
}

var _ llm.Provider = (*Google)(nil)

// NewGoogle builds the adapter on the Gemini API backend.
func NewGoogle(ctx context.Context, o Options) (*Google, error) {
	cc := &genai.ClientConfig{
		APIKey:     o.APIKey,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: o.httpClient(),
		HTTPOptions: genai.HTTPOptions{
			BaseURL: o.BaseURL,
			// Attempts counts the first try; 1 means no retry.
			RetryOptions: &genai.HTTPRetryOptions{Attempts: genai.Ptr(int32(o.MaxRetries + 1))},
		},
	}
	client, err := genai.NewClient(ctx, cc)
	if err != nil {
		return nil, fmt.Errorf("gemini client: %w", err)
	}
	return &Google{client: client, key: o.APIKey}, nil
}

// Stream sends the turns (assistant as "model"), system messages as the
// system instruction, and emits the text parts of each streamed response.
func (g *Google) Stream(ctx context.Context, req llm.Request, emit func(string) error) (llm.Usage, error) {
	system, ts := turns(req.Messages)
	contents := make([]*genai.Content, 0, len(ts))
	for _, m := range ts {
		role := genai.Role(genai.RoleUser)
		if m.Role == "assistant" {
			role = genai.RoleModel
		}
		contents = append(contents, genai.NewContentFromText(m.Content, role))
	}
	cfg := &genai.GenerateContentConfig{}
	if system != "" {
		cfg.SystemInstruction = &genai.Content{Parts: []*genai.Part{{Text: system}}}
	}
	if req.MaxTokens > 0 {
		cfg.MaxOutputTokens = int32(req.MaxTokens)
	}

	var u llm.Usage
	for resp, err := range g.client.Models.GenerateContentStream(ctx, req.Model, contents, cfg) {
		if err != nil {
			return u, g.fail(ctx, err)
		}
		if len(resp.Candidates) > 0 && resp.Candidates[0].Content != nil {
			for _, p := range resp.Candidates[0].Content.Parts {
				if p == nil || p.Thought || p.Text == "" {
					continue
				}
				if err := emit(p.Text); err != nil {
					return u, err
				}
			}
		}
		if m := resp.UsageMetadata; m != nil {
			u = llm.Usage{InputTokens: int(m.PromptTokenCount), OutputTokens: int(m.CandidatesTokenCount + m.ThoughtsTokenCount)}
		}
	}
	if ctx.Err() != nil {
		return u, ctx.Err()
	}
	return u, nil
}

func (g *Google) fail(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr genai.APIError
	if errors.As(err, &apiErr) {
		detail := apiErr.Message
		if detail == "" {
			detail = apiErr.Status
		}
		return upstreamError(LabelGoogle, apiErr.Code, errorMessage([]byte(detail)), g.key)
	}
	return fmt.Errorf("gemini stream: %w", err)
}
