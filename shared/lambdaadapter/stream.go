package lambdaadapter

import (
	"context"
	"io"
	"net/http"
	"sync"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"

	"aiwork/shared/httpx"
)

// Streaming answers REST proxy events with a streamed body (API Gateway
// ResponseTransferMode STREAM): the handler's writes reach the client as
// they happen, through a pipe, never buffered whole.
type Streaming func(ctx context.Context, ev events.APIGatewayProxyRequest) (*events.APIGatewayProxyStreamingResponse, error)

// NewStreaming adapts h. The response returns as soon as h has written its
// header; the body then streams from h's writes until h returns. As with
// NewProxy, only requests carrying originSecret reach h.
func NewStreaming(h http.Handler, originSecret string) Streaming {
	h = httpx.RequireOrigin(originSecret, h)
	var accessor core.RequestAccessor
	return func(ctx context.Context, ev events.APIGatewayProxyRequest) (*events.APIGatewayProxyStreamingResponse, error) {
		req, err := accessor.EventToRequestWithContext(ctx, ev)
		if err != nil {
			return nil, err
		}
		pr, pw := io.Pipe()
		w := &pipeWriter{header: http.Header{}, pipe: pw, ready: make(chan struct{})}
		go func() {
			defer func() {
				w.WriteHeader(http.StatusOK) // no-op when already written
				_ = pw.Close()
			}()
			h.ServeHTTP(w, req)
		}()
		<-w.ready
		return &events.APIGatewayProxyStreamingResponse{
			StatusCode: w.status, MultiValueHeaders: w.sent, Body: pr,
		}, nil
	}
}

// pipeWriter is an http.ResponseWriter whose body goes into a pipe.
type pipeWriter struct {
	header http.Header
	sent   map[string][]string
	pipe   *io.PipeWriter
	status int
	once   sync.Once
	ready  chan struct{}
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(status int) {
	w.once.Do(func() {
		w.status = status
		w.sent = w.header.Clone()
		close(w.ready)
	})
}

// Write blocks until the runtime reads the bytes: nothing piles up here.
func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pipe.Write(b)
}

// Flush is a no-op: every Write already reached the reader.
func (w *pipeWriter) Flush() {}
