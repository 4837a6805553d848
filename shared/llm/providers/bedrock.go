package providers

import (
	"aiwork/shared/llm"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	"github.com/aws/smithy-go"
)

// Bedrock streams replies from Amazon Bedrock's Converse API (Meta Llama),
// signed with the credentials of the AWS configuration it is given.
type Bedrock struct {
	client *bedrockruntime.Client
}

var _ llm.Provider = (*Bedrock)(nil)

// NewBedrock builds the adapter. Options.BaseURL overrides the regional
// endpoint; Options.APIKey is not used.
func NewBedrock(cfg aws.Config, o Options) *Bedrock {
	client := bedrockruntime.NewFromConfig(cfg, func(bo *bedrockruntime.Options) {
		if o.BaseURL != "" {
			bo.BaseEndpoint = aws.String(o.BaseURL)
		}
		var next bedrockruntime.HTTPClient = awshttp.NewBuildableClient()
		if o.HTTPClient != nil {
			next = o.HTTPClient
		}
		bo.HTTPClient = plainBodyClient{next}
		bo.RetryMaxAttempts = o.MaxRetries + 1
	})
	return &Bedrock{client: client}
}

// plainBodyClient hides the request body's WriteTo. smithy-go wraps the
// body in a "safe" closer whose WriteTo answers io.EOF once the SDK has
// closed it, which it does as soon as client.Do returns; net/http's
// HTTP/1.1 writer, still probing the body for extra bytes at that moment,
// takes the io.EOF for a failed write and closes the connection the event
// stream is being read from ("use of closed network connection" right
// after the first events). Read answers io.EOF after Close too, which the
// writer treats as the clean end it is.
type plainBodyClient struct{ next bedrockruntime.HTTPClient }

func (c plainBodyClient) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = struct{ io.ReadCloser }{req.Body}
	}
	return c.next.Do(req)
}

// Stream calls ConverseStream and emits each text delta; usage comes from
// the closing metadata event.
func (b *Bedrock) Stream(ctx context.Context, req llm.Request, emit func(string) error) (llm.Usage, error) {
	system, ts := turns(req.Messages)
	in := &bedrockruntime.ConverseStreamInput{ModelId: aws.String(req.Model)}
	for _, m := range ts {
		role := types.ConversationRoleUser
		if m.Role == "assistant" {
			role = types.ConversationRoleAssistant
		}
		in.Messages = append(in.Messages, types.Message{Role: role, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: m.Content}}})
	}
	if system != "" {
		in.System = []types.SystemContentBlock{&types.SystemContentBlockMemberText{Value: system}}
	}
	if req.MaxTokens > 0 {
		in.InferenceConfig = &types.InferenceConfiguration{MaxTokens: aws.Int32(int32(req.MaxTokens))}
	}

	var u llm.Usage
	out, err := b.client.ConverseStream(ctx, in)
	if err != nil {
		return u, b.fail(ctx, err)
	}
	stream := out.GetStream()
	defer stream.Close()
	events := stream.Events()
	for {
		select {
		case <-ctx.Done():
			return u, ctx.Err()
		case ev, ok := <-events:
			if !ok {
				if err := stream.Err(); err != nil {
					return u, b.fail(ctx, err)
				}
				return u, nil
			}
			switch v := ev.(type) {
			case *types.ConverseStreamOutputMemberContentBlockDelta:
				if t, ok := v.Value.Delta.(*types.ContentBlockDeltaMemberText); ok && t.Value != "" {
					if err := emit(t.Value); err != nil {
						return u, err
					}
				}
			case *types.ConverseStreamOutputMemberMetadata:
				if v.Value.Usage != nil {
					u = llm.Usage{InputTokens: int(aws.ToInt32(v.Value.Usage.InputTokens)), OutputTokens: int(aws.ToInt32(v.Value.Usage.OutputTokens))}
				}
			}
		}
	}
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

func (b *Bedrock) fail(ctx context.Context, err error) error {
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
	return fmt.Errorf("bedrock stream: %w", err)
}
