package providers

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/document"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	"github.com/aws/smithy-go"
	smithydocument "github.com/aws/smithy-go/document"

	"aiwork/shared/llm"
)

// Bedrock streams replies from Amazon Bedrock's Converse API (Meta Llama)
// through the SDK's bedrockruntime client, signed with the credentials of
// the AWS configuration it is given.
type Bedrock struct {
	client *bedrockruntime.Client
	// noCredentials: the configuration has none (the SDK's client panics
	// on such a call).
	noCredentials bool
}

var _ llm.Provider = (*Bedrock)(nil)

// NewBedrock builds the adapter. Options.BaseURL overrides the regional
// endpoint, as does AWS_ENDPOINT_URL_BEDROCK_RUNTIME (the SDKs' variable,
// which the SDK reads only through the shared-config loader the functions
// do without); Options.APIKey is not used.
func NewBedrock(cfg aws.Config, o Options) *Bedrock {
	endpoint := cmp.Or(o.BaseURL, os.Getenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME"))
	client := bedrockruntime.NewFromConfig(cfg, func(bo *bedrockruntime.Options) {
		if endpoint != "" {
			bo.BaseEndpoint = aws.String(endpoint)
		}
		bo.HTTPClient = plainBodyClient{o.httpClient()}
		bo.RetryMaxAttempts = o.MaxRetries + 1
	})
	return &Bedrock{client: client, noCredentials: cfg.Credentials == nil}
}

// plainBodyClient hides the request body's WriteTo. smithy-go wraps the
// body in a "safe" closer whose WriteTo answers io.EOF once the SDK has
// closed it, which it does as soon as the client's Do returns; net/http's
// HTTP/1.1 writer, still probing the body for extra bytes at that moment,
// takes the io.EOF for a failed write and closes the connection the event
// stream is being read from ("use of closed network connection" after the
// first events; TestBedrockStreamWithPauses). Read answers io.EOF after
// Close too, which the writer treats as the clean end it is.
type plainBodyClient struct{ next bedrockruntime.HTTPClient }

func (c plainBodyClient) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = struct{ io.ReadCloser }{req.Body}
	}
	return c.next.Do(req)
}

// Stream calls ConverseStream and emits each text delta and each tool
// call once whole (its input streams as pieces of JSON until its
// contentBlockStop); usage comes from the closing metadata event.
func (b *Bedrock) Stream(ctx context.Context, req llm.Request, emit func(llm.Event) error) (llm.Usage, error) {
	var u llm.Usage
	if b.noCredentials {
		return u, errors.New("bedrock stream: no AWS credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")
	}
	out, err := b.client.ConverseStream(ctx, converseInput(req))
	if err != nil {
		return u, bedrockFailed(ctx, err)
	}
	stream := out.GetStream()
	defer stream.Close()

	var (
		reason string
		ended  bool // the metadata event, the stream's last, came
		calls  int
		uses   = map[int32]*llm.ToolCall{} // toolUse blocks by index, until their stop
		events = stream.Events()
	)
	for {
		var ev types.ConverseStreamOutput
		select {
		case <-ctx.Done():
			return u, ctx.Err()
		case e, ok := <-events:
			if !ok {
				err := stream.Err()
				if err == nil && (reason == "" || !ended) {
					// The SDK ends a stream cut between two messages, or
					// just before a message's checksum, as if it were whole;
					// a whole one has its messageStop and its metadata.
					err = io.ErrUnexpectedEOF
				}
				if err != nil {
					return u, bedrockFailed(ctx, err)
				}
				return u, emit(llm.Event{Stop: stopReason(bedrockStops, reason, calls)})
			}
			ev = e
		}
		switch v := ev.(type) {
		case *types.ConverseStreamOutputMemberContentBlockStart:
			if t, ok := v.Value.Start.(*types.ContentBlockStartMemberToolUse); ok {
				uses[aws.ToInt32(v.Value.ContentBlockIndex)] = &llm.ToolCall{ID: aws.ToString(t.Value.ToolUseId), Name: aws.ToString(t.Value.Name)}
			}
		case *types.ConverseStreamOutputMemberContentBlockDelta:
			switch d := v.Value.Delta.(type) {
			case *types.ContentBlockDeltaMemberText:
				if d.Value != "" {
					if err := emit(llm.Event{Text: d.Value}); err != nil {
						return u, err
					}
				}
			case *types.ContentBlockDeltaMemberToolUse:
				if c := uses[aws.ToInt32(v.Value.ContentBlockIndex)]; c != nil {
					c.Arguments += aws.ToString(d.Value.Input)
				}
			}
		case *types.ConverseStreamOutputMemberContentBlockStop:
			i := aws.ToInt32(v.Value.ContentBlockIndex)
			if c := uses[i]; c != nil {
				delete(uses, i)
				calls++
				if err := emit(callEvent(c.ID, c.Name, c.Arguments)); err != nil {
					return u, err
				}
			}
		case *types.ConverseStreamOutputMemberMessageStop:
			reason = string(v.Value.StopReason)
		case *types.ConverseStreamOutputMemberMetadata:
			ended = true
			if v.Value.Usage != nil {
				u = llm.Usage{InputTokens: int(aws.ToInt32(v.Value.Usage.InputTokens)), OutputTokens: int(aws.ToInt32(v.Value.Usage.OutputTokens))}
			}
		}
	}
}

var bedrockStops = map[string]string{
	string(types.StopReasonEndTurn):      llm.StopEnd,
	string(types.StopReasonStopSequence): llm.StopEnd,
	string(types.StopReasonMaxTokens):    llm.StopMaxTokens,
	string(types.StopReasonToolUse):      llm.StopToolCalls,
}

// converseInput is the ConverseStream request of req: system messages as
// the system parameter, the turns merged so the roles alternate.
func converseInput(req llm.Request) *bedrockruntime.ConverseStreamInput {
	system, ts := turns(req.Messages)
	in := &bedrockruntime.ConverseStreamInput{ModelId: aws.String(req.Model)}
	for _, m := range ts {
		in.Messages = append(in.Messages, bedrockMessage(m))
	}
	if system != "" {
		in.System = []types.SystemContentBlock{&types.SystemContentBlockMemberText{Value: system}}
	}
	if req.MaxTokens > 0 {
		in.InferenceConfig = &types.InferenceConfiguration{MaxTokens: aws.Int32(int32(req.MaxTokens))}
	}
	if len(req.Tools) > 0 {
		in.ToolConfig = &types.ToolConfiguration{}
		for _, t := range req.Tools {
			spec := types.ToolSpecification{Name: aws.String(t.Name), InputSchema: &types.ToolInputSchemaMemberJson{Value: jsonDocument(toolSchema(t))}}
			if t.Description != "" {
				spec.Description = aws.String(t.Description)
			}
			in.ToolConfig.Tools = append(in.ToolConfig.Tools, &types.ToolMemberToolSpec{Value: spec})
		}
	}
	return in
}

// bedrockMessage is one turn as content blocks: tool results, the text,
// then the calls (the order Anthropic's models behind Converse want).
func bedrockMessage(m llm.Message) types.Message {
	var blocks []types.ContentBlock
	for _, r := range m.ToolResults {
		res := types.ToolResultBlock{
			ToolUseId: aws.String(r.CallID),
			Content:   []types.ToolResultContentBlock{&types.ToolResultContentBlockMemberText{Value: r.Content}},
		}
		if r.IsError { // only then: the status is not every model's field
			res.Status = types.ToolResultStatusError
		}
		blocks = append(blocks, &types.ContentBlockMemberToolResult{Value: res})
	}
	if hasText(m) {
		blocks = append(blocks, &types.ContentBlockMemberText{Value: m.Content})
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, &types.ContentBlockMemberToolUse{Value: types.ToolUseBlock{
			ToolUseId: aws.String(c.ID), Name: aws.String(c.Name), Input: jsonDocument(callInput(c)),
		}})
	}
	role := types.ConversationRoleUser
	if m.Role == "assistant" {
		role = types.ConversationRoleAssistant
	}
	return types.Message{Role: role, Content: blocks}
}

// jsonDocument is JSON text as the SDK's document, decoded with its numbers
// kept as their literal text (float64 would round big ones).
func jsonDocument(raw json.RawMessage) document.Interface {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	_ = d.Decode(&v) // raw is a JSON object: toolSchema and callInput make sure
	return document.NewLazyDocument(documentNumbers(v))
}

// documentNumbers swaps json.Number, which the document encoder writes as
// a string, for its own Number type.
func documentNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		return smithydocument.Number(v)
	case map[string]any:
		for k, e := range v {
			v[k] = documentNumbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = documentNumbers(e)
		}
	}
	return v
}

// bedrockExceptionStatus maps the exceptions ConverseStream sends inside a
// 200 stream to the HTTP status they stand for.
var bedrockExceptionStatus = map[string]int{
	"validationexception":         http.StatusBadRequest,
	"accessdeniedexception":       http.StatusForbidden,
	"throttlingexception":         http.StatusTooManyRequests,
	"modelstreamerrorexception":   http.StatusFailedDependency,
	"internalserverexception":     http.StatusInternalServerError,
	"serviceunavailableexception": http.StatusServiceUnavailable,
	"modeltimeoutexception":       http.StatusRequestTimeout,
	"modelnotreadyexception":      http.StatusTooManyRequests,
}

// bedrockFailed is Stream's error for err: the context's if it ended (the
// stream broke because the caller left), Bedrock's refusal or exception as
// an *llm.UpstreamError, else err as a broken stream's, kept wrapped so
// the chat engine tells a cut stream (io.ErrUnexpectedEOF) from an
// unreadable one.
func bedrockFailed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	status := 0
	var withStatus interface{ HTTPStatusCode() int }
	if errors.As(err, &withStatus) {
		status = withStatus.HTTPStatusCode()
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		if status < 400 {
			status = bedrockExceptionStatus[strings.ToLower(apiErr.ErrorCode())]
		}
		detail := apiErr.ErrorMessage()
		if detail == "" {
			detail = apiErr.ErrorCode()
		}
		return upstreamError(LabelBedrock, status, detail, "")
	}
	if status >= 400 {
		return upstreamError(LabelBedrock, status, "", "")
	}
	var de *smithy.DeserializationError
	if errors.As(err, &de) || strings.HasPrefix(err.Error(), "deserialize ") {
		err = unreadable{err}
	}
	return fmt.Errorf("bedrock stream: %w", err)
}

// unreadable is an event the SDK could not decode ("deserialize event
// contentBlockDelta: …"). The SDK's JSON parser answers plain errors, so
// this one also wraps a *json.SyntaxError: that is how the chat engine
// tells an unreadable reply from a cut one.
type unreadable struct{ error }

func (u unreadable) Unwrap() []error { return []error{u.error, &json.SyntaxError{}} }
