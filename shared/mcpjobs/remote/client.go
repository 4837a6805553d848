package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"aiwork/shared/config"
	"aiwork/shared/domain"
)

// Client runs the jobs in the mcp-jobs function: a synchronous Lambda
// Invoke (RequestResponse).
type Client struct {
	lambda   *lambda.Client
	function string
}

// invokeTimeout bounds one call: the admin function's own 30 s.
const invokeTimeout = 30 * time.Second

// New invokes function (a name or ARN) at the region's Lambda endpoint, or
// at AWS_ENDPOINT_URL_LAMBDA when set (make run-lambda's Invoke API).
func New(cfg aws.Config, function string) *Client {
	client := lambda.NewFromConfig(cfg, func(o *lambda.Options) {
		if u := config.ServiceEndpoint("LAMBDA"); u != nil {
			o.BaseEndpoint = u
		}
		o.HTTPClient = awshttp.NewBuildableClient().WithTimeout(invokeTimeout)
	})
	return &Client{lambda: client, function: function}
}

// ErrNotFound: the server to probe is no longer in the registry.
var ErrNotFound = errors.New("mcp-jobs: MCP server not found")

// FunctionError is mcp-jobs failing (its error, a crash, a timeout), as
// Lambda reports it.
type FunctionError struct {
	Type    string `json:"errorType"`
	Message string `json:"errorMessage"`
}

func (e *FunctionError) Error() string { return "mcp-jobs failed: " + e.Type + ": " + e.Message }

// ProbeOne probes srv now and saves its health, as the probe job does.
func (c *Client) ProbeOne(ctx context.Context, srv domain.MCPServer) (domain.MCPHealth, error) {
	reply, err := c.invoke(ctx, Event{Action: ActionProbe, ServerID: srv.ID})
	if err != nil {
		return domain.MCPHealth{}, err
	}
	if reply.Health == nil {
		return domain.MCPHealth{}, errors.New("mcp-jobs: the probe answered no health")
	}
	return *reply.Health, nil
}

// Sync runs the sync job now.
func (c *Client) Sync(ctx context.Context) (SyncReport, error) {
	reply, err := c.invoke(ctx, Event{Action: ActionSync})
	if err != nil {
		return SyncReport{}, err
	}
	if reply.Sync == nil {
		return SyncReport{}, errors.New("mcp-jobs: the sync answered no report")
	}
	return *reply.Sync, nil
}

// invoke asks mcp-jobs for ev and answers its reply; an error is the
// call's, the function's or the job's (Reply.Error, as the job said it).
func (c *Client) invoke(ctx context.Context, ev Event) (Reply, error) {
	body, err := json.Marshal(ev)
	if err != nil {
		return Reply{}, err
	}
	out, err := c.lambda.Invoke(ctx, &lambda.InvokeInput{FunctionName: aws.String(c.function),
		InvocationType: types.InvocationTypeRequestResponse, Payload: body})
	if err != nil {
		return Reply{}, fmt.Errorf("invoke mcp-jobs: %w", err)
	}
	if out.FunctionError != nil {
		fe := &FunctionError{}
		if json.Unmarshal(out.Payload, fe) != nil || fe.Type+fe.Message == "" {
			fe.Type, fe.Message = *out.FunctionError, string(out.Payload)
		}
		return Reply{}, fe
	}
	var reply Reply
	if err := json.Unmarshal(out.Payload, &reply); err != nil {
		return Reply{}, fmt.Errorf("mcp-jobs answered %q: %w", truncate(out.Payload), err)
	}
	switch {
	case reply.NotFound:
		return reply, ErrNotFound
	case reply.Error != "":
		return reply, errors.New(reply.Error)
	}
	return reply, nil
}

func truncate(b []byte) string {
	if len(b) > 200 {
		b = b[:200]
	}
	return string(b)
}
