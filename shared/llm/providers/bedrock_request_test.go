package providers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// The ConverseStream requests Bedrock gets, byte for byte, against files
// recorded from the AWS SDK's bedrockruntime client (go test -run
// TestBedrockRequestRecorded -update, at the commit that added them): the
// path with the escaped model id, the signed headers and the body stay what
// they were, apart from header order and the headers only the SDK sends
// (its version and per-call ids).

var updateRecorded = flag.Bool("update", false, "record the Bedrock requests in testdata")

// sdkOnlyHeaders are the AWS SDK's own: its version, a per-call id, the
// attempt count. Bedrock needs none of them.
var sdkOnlyHeaders = []string{"Amz-Sdk-Invocation-Id", "Amz-Sdk-Request", "User-Agent"}

var bedrockRequestCases = []struct {
	name    string
	token   string // the credentials' session token
	request llm.Request
}{
	{"conversation", "", request("meta.llama3-1-8b-instruct-v1:0")},
	{"tools", "", toolRequest("meta.llama3-1-8b-instruct-v1:0")},
	{"profile-arn", "", llm.Request{
		Model: "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.meta.llama3-3-70b-instruct-v1:0",
		Messages: []llm.Message{
			{Role: "user", Content: ""},
			{Role: "assistant", Content: "<b>bold</b> & \"quoted\" \u2028 é \x01"},
			{Role: "user", Content: "Tab\there, slash / and backslash \\ end."},
		},
	}},
	{"documents", "", llm.Request{
		Model: "meta.llama3-1-8b-instruct-v1:0", MaxTokens: 1,
		Tools: []llm.Tool{
			{Name: "odd", InputSchema: json.RawMessage(`{ "type":"object", "properties": {"z":{"enum":[1E+05,-0,0.5e-7,true,null,"\u00e9\u2028<&>"]},
				"a":{"type":"array","items":{"b":{},"a":[]}}}}`)},
			{Name: "not_an_object", Description: "Its schema is a list.", InputSchema: json.RawMessage(`[1]`)},
		},
		Messages: []llm.Message{
			{Role: "user", Content: "Go."},
			{Role: "assistant", ToolCalls: []llm.ToolCall{
				{ID: "c1", Name: "odd", Arguments: ` { "b" : [ 1E+05 , {"y":1,"x":2} ], "a":"\u003c" } `},
				{ID: "c2", Name: "odd", Arguments: "not json"},
			}},
			{Role: "tool", ToolResults: []llm.ToolResult{{CallID: "c1", Content: ""}, {CallID: "c2", Content: "x", IsError: true}}},
		},
	}},
	{"session-token", "IQoJb3JpZ2luX2VjE/session+token=", llm.Request{
		Model: "us.meta.llama3-2-3b-instruct-v1:0", MaxTokens: 7,
		Messages: []llm.Message{{Role: "system", Content: "One"}, {Role: "system", Content: "Two"}, {Role: "user", Content: "Hi"}},
	}},
}

func TestBedrockRequestRecorded(t *testing.T) {
	t.Parallel()
	for _, tc := range bedrockRequestCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				play(w, bedrockWire, bedrockScript(scripted{parts: []part{text("Ok.")}, stop: llm.StopEnd}))
			})
			creds := credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", tc.token)
			p := providers.NewBedrock(aws.Config{Region: "us-east-1", Credentials: creds}, providers.Options{BaseURL: up.URL})
			if _, err := p.Stream(context.Background(), tc.request, func(llm.Event) error { return nil }); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			r, body := up.first(t)
			got := dumpRequest(r, body)
			file := filepath.Join("testdata", "bedrock-request-"+tc.name+".txt")
			if *updateRecorded {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("request differs from %s:\n got:\n%s\nwant:\n%s", file, got, want)
			}
		})
	}
}

var (
	signatureDate = regexp.MustCompile(`Credential=(\w+)/\d{8}/`)
	signatureHex  = regexp.MustCompile(`Signature=[0-9a-f]{64}$`)
)

// dumpRequest writes a request as sent (method, the path as on the wire,
// the headers sorted, the body), with the time and the signature, which
// change with every call, replaced by placeholders, and without the
// SDK-only headers (also left out of the signed headers' list).
func dumpRequest(r *http.Request, body []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", r.Method, r.RequestURI)
	h := r.Header.Clone()
	h.Set("Content-Length", fmt.Sprint(r.ContentLength))
	for _, name := range sdkOnlyHeaders {
		h.Del(name)
	}
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range h[name] {
			switch name {
			case "X-Amz-Date":
				v = "<time>"
			case "Authorization":
				v = signatureDate.ReplaceAllString(v, "Credential=$1/<date>/")
				v = signatureHex.ReplaceAllString(v, "Signature=<signature>")
				v = withoutSignedHeaders(v, sdkOnlyHeaders)
			}
			fmt.Fprintf(&b, "%s: %s\n", name, v)
		}
	}
	b.WriteString("\n")
	b.Write(body)
	if !bytes.HasSuffix(body, []byte("\n")) {
		b.WriteString("\n")
	}
	return b.String()
}

// withoutSignedHeaders drops names from the SignedHeaders list of a SigV4
// Authorization header.
func withoutSignedHeaders(auth string, names []string) string {
	const key = "SignedHeaders="
	i := strings.Index(auth, key)
	if i < 0 {
		return auth
	}
	rest := auth[i+len(key):]
	end := strings.IndexByte(rest, ',')
	if end < 0 {
		end = len(rest)
	}
	var kept []string
	for _, s := range strings.Split(rest[:end], ";") {
		if !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, s) }) {
			kept = append(kept, s)
		}
	}
	return auth[:i+len(key)] + strings.Join(kept, ";") + rest[end:]
}
