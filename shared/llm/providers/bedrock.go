package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"

	"aiwork/shared/awscall"
	"aiwork/shared/llm"
)

// Bedrock streams replies from Amazon Bedrock's Converse API (Meta Llama),
// signed with the credentials of the AWS configuration it is given. It
// makes the ConverseStream call itself (awscall signs it, the SDK's
// eventstream package decodes the answer): the SDK's bedrockruntime client
// cost the chat function ~0.1 ms of package init and ~1 MB (DESIGN §10).
type Bedrock struct {
	http    *http.Client
	signer  *awscall.Signer
	base    string // the endpoint, without a trailing slash
	retries int
}

var _ llm.Provider = (*Bedrock)(nil)

// NewBedrock builds the adapter. Options.BaseURL overrides the regional
// endpoint (as does AWS_ENDPOINT_URL_BEDROCK_RUNTIME, the SDKs' variable);
// Options.APIKey is not used.
func NewBedrock(cfg aws.Config, o Options) *Bedrock {
	base := o.BaseURL
	if base == "" {
		base = awscall.Endpoint(cfg.Region, "bedrock-runtime", "BEDROCK_RUNTIME")
	}
	return &Bedrock{http: o.httpClient(), signer: awscall.NewSigner(cfg), base: strings.TrimRight(base, "/"), retries: o.MaxRetries}
}

// Stream calls ConverseStream and emits each text delta and each tool
// call once whole (its input streams as pieces of JSON until its
// contentBlockStop); usage comes from the closing metadata event.
func (b *Bedrock) Stream(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
	var u llm.Usage
	body, err := converseBody(req)
	if err != nil {
		return u, err
	}
	url := b.base + "/model/" + awscall.PathLabel(req.Model) + "/converse-stream"
	res, err := postRetrying(ctx, b.http, b.retries, func() (*http.Request, error) {
		r, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		r.Header.Set("Content-Type", "application/json")
		return r, b.signer.Sign(ctx, r, "bedrock", body)
	}, bedrockRefusal)
	if err != nil {
		return u, bedrockFailed(ctx, err)
	}
	defer res.Body.Close()

	var (
		reason string
		calls  int
		uses   = map[int32]*llm.ToolCall{} // toolUse blocks by index, until their stop
		events = newEventReader(res.Body)
	)
	for {
		m, err := events.next()
		if err == io.EOF {
			if reason == "" { // a whole stream has its messageStop
				return u, bedrockFailed(ctx, io.ErrUnexpectedEOF)
			}
			return u, emit(llm.Event{Stop: stopReason(bedrockStops, reason, calls)})
		}
		if err != nil {
			return u, bedrockFailed(ctx, err)
		}
		typ, err := bedrockEventType(m)
		if err != nil {
			return u, bedrockFailed(ctx, err)
		}
		var ev converseEvent
		switch typ {
		case "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata":
			if err := json.Unmarshal(m.Payload, &ev); err != nil {
				return u, bedrockFailed(ctx, err)
			}
		}
		switch typ {
		case "contentBlockStart":
			if t := ev.Start.ToolUse; t != nil {
				uses[ev.ContentBlockIndex] = &llm.ToolCall{ID: t.ToolUseID, Name: t.Name}
			}
		case "contentBlockDelta":
			if ev.Delta.Text != "" {
				if err := emit(llm.Event{Text: ev.Delta.Text}); err != nil {
					return u, err
				}
			}
			if c := uses[ev.ContentBlockIndex]; c != nil && ev.Delta.ToolUse != nil {
				c.Arguments += ev.Delta.ToolUse.Input
			}
		case "contentBlockStop":
			if c := uses[ev.ContentBlockIndex]; c != nil {
				delete(uses, ev.ContentBlockIndex)
				calls++
				if err := emit(callEvent(c.ID, c.Name, c.Arguments)); err != nil {
					return u, err
				}
			}
		case "messageStop":
			reason = ev.StopReason
		case "metadata":
			if ev.Usage != nil {
				u = llm.Usage{InputTokens: ev.Usage.InputTokens, OutputTokens: ev.Usage.OutputTokens}
			}
		}
	}
}

var bedrockStops = map[string]string{
	"end_turn":      llm.StopEnd,
	"stop_sequence": llm.StopEnd,
	"max_tokens":    llm.StopMaxTokens,
	"tool_use":      llm.StopToolCalls,
}

// bedrockFailed is Stream's error for err: the context's if it ended (the
// stream broke because the caller left), Bedrock's own refusal as it is,
// else err as a broken stream's, kept wrapped so chatapi tells a cut
// stream (io.ErrUnexpectedEOF) from an unreadable one.
func bedrockFailed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ue *llm.UpstreamError
	if errors.As(err, &ue) {
		return err
	}
	return fmt.Errorf("bedrock stream: %w", err)
}
