// Command fn is a small Lambda function for lambdalocal's tests, built on
// aws-lambda-go as the product's functions are. What it does is chosen by
// the event: a direct invocation's {"mode": ...}, or a REST proxy event
// whose body is that JSON. "wait" is a URL the function GETs (and blocks
// on) where the mode says so: the test answers it when it wants the
// function to go on.
//
// INIT_OK_FILE, when set, names a file that must exist, else init fails:
// the process prints why and exits with status 3 before asking for an event.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-lambda-go/lambdacontext"
)

type request struct {
	Mode    string `json:"mode"`
	Wait    string `json:"wait"`
	PIDFile string `json:"pid_file"`
	// Body is a proxy event's body: the request as JSON.
	Body string `json:"body"`
}

func main() {
	if f := os.Getenv("INIT_OK_FILE"); f != "" {
		if _, err := os.Stat(f); err != nil {
			fmt.Fprintln(os.Stderr, "init failed: marker file missing")
			os.Exit(3)
		}
	}
	lambda.Start(handle)
}

func handle(ctx context.Context, raw json.RawMessage) (any, error) {
	var req request
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, err
	}
	if req.Mode == "" && req.Body != "" {
		if err := json.Unmarshal([]byte(req.Body), &req); err != nil {
			return nil, fmt.Errorf("body: %w", err)
		}
	}
	if req.PIDFile != "" {
		if err := os.WriteFile(req.PIDFile, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			return nil, err
		}
	}
	switch req.Mode {
	case "echo":
		return echo(ctx, raw)
	case "wait":
		if err := wait(req.Wait); err != nil {
			return nil, err
		}
		return echo(ctx, raw)
	case "hang":
		time.Sleep(time.Hour) // past any timeout of the tests
		return echo(ctx, raw)
	case "exit":
		fmt.Fprintln(os.Stderr, "exiting in the middle of an invocation")
		os.Exit(4)
	case "error":
		return nil, errors.New("invocation failed on purpose")
	case "malformed":
		return map[string]string{"not": "a proxy response"}, nil
	case "stream", "stream-error", "stream-exit", "stream-hang":
		pr, pw := io.Pipe()
		go func() {
			_, _ = io.WriteString(pw, "first\n")
			switch req.Mode {
			case "stream-error":
				_ = pw.CloseWithError(errors.New("boom mid-stream"))
				return
			case "stream-exit":
				// Wait until the runtime has sent the first piece on.
				_ = wait(req.Wait)
				os.Exit(5)
			case "stream-hang":
				time.Sleep(time.Hour)
			}
			if err := wait(req.Wait); err != nil {
				_ = pw.CloseWithError(err)
				return
			}
			_, _ = io.WriteString(pw, "second\n")
			_ = pw.Close()
		}()
		return &events.APIGatewayProxyStreamingResponse{
			StatusCode:        201,
			Headers:           map[string]string{"Content-Type": "text/plain; charset=utf-8"},
			MultiValueHeaders: map[string][]string{"X-Multi": {"one", "two"}},
			Cookies:           []string{"s1=a; Path=/", "s2=b; HttpOnly"},
			Body:              pr,
		}, nil
	}
	return nil, fmt.Errorf("unknown mode %q", req.Mode)
}

// echo answers a proxy response whose body tells what the process saw: its
// pid, the invocation's context and the event itself.
func echo(ctx context.Context, raw json.RawMessage) (events.APIGatewayProxyResponse, error) {
	lc, _ := lambdacontext.FromContext(ctx)
	deadline, _ := ctx.Deadline()
	body, err := json.Marshal(map[string]any{
		"pid":           os.Getpid(),
		"request_id":    lc.AwsRequestID,
		"arn":           lc.InvokedFunctionArn,
		"function_name": os.Getenv("AWS_LAMBDA_FUNCTION_NAME"),
		"deadline_ms":   deadline.UnixMilli(),
		"event":         raw,
	})
	if err != nil {
		return events.APIGatewayProxyResponse{}, err
	}
	return events.APIGatewayProxyResponse{
		StatusCode:        200,
		Headers:           map[string]string{"Content-Type": "application/json", "X-Single": "single"},
		MultiValueHeaders: map[string][]string{"Set-Cookie": {"c1=1; Path=/", "c2=2; Path=/"}},
		Body:              string(body),
	}, nil
}

// wait GETs url, which answers when the test lets the function go on.
func wait(url string) error {
	if url == "" {
		return errors.New("no wait URL")
	}
	res, err := http.Get(url)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("wait: %s", res.Status)
	}
	return nil
}
