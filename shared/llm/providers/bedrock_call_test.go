package providers_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/smithy-go/eventstream"

	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// The ConverseStream call through the SDK's bedrockruntime client: its
// signature, retries, credentials, endpoint, and how a broken event stream
// ends the reply.

var testCreds = aws.Credentials{AccessKeyID: "AKIDTEST", SecretAccessKey: "secret"}

// bedrockWith builds the adapter on url with creds and n retries.
func bedrockWith(url string, creds aws.Credentials, retries int) llm.Provider {
	cfg := aws.Config{Region: "eu-west-3", Credentials: credentials.StaticCredentialsProvider{Value: creds}}
	return providers.NewBedrock(cfg, providers.Options{BaseURL: url, MaxRetries: retries})
}

var signedHeaders = regexp.MustCompile(`SignedHeaders=([^,]+)`)

// wantSigned checks the request's SigV4 signature as Bedrock would: signed
// for bedrock in the region, and the same when the request as it arrived
// (the escaped path, the signed headers, the body) is signed again at the
// time it carries.
func wantSigned(t *testing.T, r *http.Request, body []byte, creds aws.Credentials, region string) {
	t.Helper()
	auth := r.Header.Get("Authorization")
	when, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		t.Fatalf("X-Amz-Date: %v", err)
	}
	scope := "Credential=" + creds.AccessKeyID + "/" + when.Format("20060102") + "/" + region + "/bedrock/aws4_request"
	if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 "+scope+", ") {
		t.Fatalf("Authorization = %q, want a SigV4 signature with %s", auth, scope)
	}
	again, err := http.NewRequest(r.Method, "http://"+r.Host+r.RequestURI, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	m := signedHeaders.FindStringSubmatch(auth)
	if m == nil {
		t.Fatalf("Authorization = %q: no SignedHeaders", auth)
	}
	for _, h := range strings.Split(m[1], ";") {
		if h != "host" && h != "content-length" {
			again.Header[http.CanonicalHeaderKey(h)] = r.Header.Values(h)
		}
	}
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, again, hex.EncodeToString(sum[:]), "bedrock", region, when); err != nil {
		t.Fatal(err)
	}
	if got := again.Header.Get("Authorization"); got != auth {
		t.Errorf("signature does not match the request:\n sent     %s\n computed %s", auth, got)
	}
}

// The request goes to the model's path, its id escaped as the SDK does, and
// is signed over that path; a session token is sent and signed when the
// credentials have one, and only then.
func TestBedrockRequestSigned(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, model, path string
		token             string
	}{
		{"model id", "meta.llama3-1-8b-instruct-v1:0", "/model/meta.llama3-1-8b-instruct-v1%3A0/converse-stream", ""},
		{"inference profile ARN", "arn:aws:bedrock:eu-west-3:123456789012:inference-profile/eu.meta.llama3-2-3b-instruct-v1:0",
			"/model/arn%3Aaws%3Abedrock%3Aeu-west-3%3A123456789012%3Ainference-profile%2Feu.meta.llama3-2-3b-instruct-v1%3A0/converse-stream", ""},
		{"session token", "meta.llama3-1-8b-instruct-v1:0", "/model/meta.llama3-1-8b-instruct-v1%3A0/converse-stream", "FwoGZXIvYXdzE/token+with=chars"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { play(w, bedrockWire, bedrockWire.script(bonjour)) })
			creds := testCreds
			creds.SessionToken = tc.token
			if got, err := texts(t.Context(), bedrockWith(up.URL, creds, 0), tc.model); err != nil || !slices.Equal(got, []string{"Bon", "jour"}) {
				t.Fatalf("got %q, %v", got, err)
			}
			r, body := up.first(t)
			if r.RequestURI != tc.path {
				t.Errorf("path = %q, want %q", r.RequestURI, tc.path)
			}
			wantSigned(t, r, body, creds, "eu-west-3")
			token, signed := r.Header.Get("X-Amz-Security-Token"), strings.Contains(r.Header.Get("Authorization"), "x-amz-security-token")
			if token != tc.token || signed != (tc.token != "") {
				t.Errorf("X-Amz-Security-Token = %q (signed %v), want %q", token, signed, tc.token)
			}
		})
	}
}

// bedrockRefuse answers as Bedrock refuses a request: the status, the
// X-Amzn-ErrorType header and a JSON body with the message.
func bedrockRefuse(w http.ResponseWriter, status int, errorType, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-Errortype", errorType+":http://internal.amazon.com/coral/com.amazon.bedrock/")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"message":` + mustJSON(message) + `}`))
}

// Refusals before any output are tried again (the SDK's retryer: throttling,
// 5xx, a dropped connection), each attempt signed anew; the rest are not.
func TestBedrockRetries(t *testing.T) {
	t.Parallel()
	unavailable := func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "0")
		bedrockRefuse(w, http.StatusServiceUnavailable, "ServiceUnavailableException", "Try later.")
	}
	throttled := func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "0")
		bedrockRefuse(w, http.StatusTooManyRequests, "ThrottlingException", "Too many requests, please wait before trying again.")
	}
	cases := []struct {
		name    string
		refuse  []func(w http.ResponseWriter) // the attempts before one that streams
		retries int
		want    string // the error, "" for the reply
	}{
		{"503 then 429 then success", []func(http.ResponseWriter){unavailable, throttled}, 2, ""},
		{"429 without a wait asked for", []func(http.ResponseWriter){func(w http.ResponseWriter) {
			bedrockRefuse(w, http.StatusTooManyRequests, "ThrottlingException", "Slow down.")
		}}, 1, ""},
		{"connection dropped then success", []func(http.ResponseWriter){dropConnection}, 1, ""},
		{"retries run out", []func(http.ResponseWriter){throttled, throttled, throttled}, 2,
			"Amazon Bedrock answered 429: Too many requests, please wait before trying again."},
		{"403 is not retried", []func(http.ResponseWriter){func(w http.ResponseWriter) {
			bedrockRefuse(w, http.StatusForbidden, "AccessDeniedException", "No access to the model.")
		}}, 2, "Amazon Bedrock answered 403: No access to the model."},
		{"400 is not retried", []func(http.ResponseWriter){func(w http.ResponseWriter) {
			bedrockRefuse(w, http.StatusBadRequest, "ValidationException", "Malformed input request.")
		}}, 2, "Amazon Bedrock answered 400: Malformed input request."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var up *upstream
			up = newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
				if n := int(up.count.Load()); n <= len(tc.refuse) {
					tc.refuse[n-1](w)
					return
				}
				play(w, bedrockWire, bedrockWire.script(bonjour))
			})
			got, err := texts(t.Context(), bedrockWith(up.URL, testCreds, tc.retries), bedrockWire.model)
			if tc.want == "" && (err != nil || !slices.Equal(got, []string{"Bon", "jour"})) {
				t.Errorf("got %q, %v; want the reply of the last attempt", got, err)
			}
			if tc.want != "" && errorText(err) != tc.want {
				t.Errorf("error = %q, want %q", errorText(err), tc.want)
			}
			want := min(len(tc.refuse), tc.retries) + 1
			if tc.want != "" {
				want = min(len(tc.refuse), tc.retries+1)
			}
			if n := int(up.count.Load()); n != want {
				t.Errorf("requests = %d, want %d", n, want)
			}
			up.mu.Lock()
			defer up.mu.Unlock()
			for i, r := range up.reqs {
				if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
					t.Errorf("attempt %d is not signed", i+1)
				}
			}
		})
	}
}

// Once a reply has begun, a failure is the caller's: nothing is sent again.
func TestBedrockNoRetryOnceOutputStarted(t *testing.T) {
	t.Parallel()
	up := newUpstream(t, bonThen(bedrockWire, func(s *sender) { dropConnection(s.w) }))
	got, err := texts(t.Context(), bedrockWith(up.URL, testCreds, 2), bedrockWire.model)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("err = %v, want a cut stream (io.ErrUnexpectedEOF)", err)
	}
	wantBonTriedOnce(t, up, got)
}

// A broken event stream ends the reply with an error saying so, after the
// text that came whole; never as if the reply were complete.
func TestBedrockBrokenEventStream(t *testing.T) {
	t.Parallel()
	whole := bedrockWire.script(bonjour)
	last := whole[len(whole)-1] // metadata, the stream's last event
	flipped := func(frame []byte, at int) []byte {
		f := bytes.Clone(frame)
		f[at] ^= 0x40
		return f
	}
	cases := []struct {
		name   string
		frames [][]byte
		want   string
		kind   string   // what the chat engine shows of it (errorKind)
		is     error    // what the error wraps
		texts  []string // emitted before it, when not just "Bon"
	}{
		// The SDK's decoder reads the end of the body before a message's
		// checksum, or inside a message, as a clean end: the adapter tells
		// the cut by the metadata event that never came.
		{"cut before the last message's checksum", append(slices.Clone(whole[:len(whole)-1]), last[:len(last)-4]),
			"bedrock stream: unexpected EOF", kindCut, io.ErrUnexpectedEOF, []string{"Bon", "jour"}},
		{"cut inside a message's headers", [][]byte{whole[0], whole[1], whole[2][:20]}, "bedrock stream: unexpected EOF", kindCut, io.ErrUnexpectedEOF, nil},
		{"cut inside a message's prelude", [][]byte{whole[0], whole[1], whole[2][:5]}, "bedrock stream: unexpected EOF", kindCut, io.ErrUnexpectedEOF, nil},
		{"a corrupt prelude", [][]byte{whole[0], whole[1], flipped(whole[2], 6)}, "bedrock stream: decode event: message checksum mismatch", kindOther, eventstream.ChecksumError{}, nil},
		{"a corrupt payload", [][]byte{whole[0], whole[1], flipped(whole[2], len(whole[2])-8)}, "bedrock stream: decode event: message checksum mismatch", kindOther, eventstream.ChecksumError{}, nil},
		{"an event that is not JSON", [][]byte{whole[0], whole[1], awsEvent("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"jo`)},
			"bedrock stream: deserialize event contentBlockDelta: unterminated string at offset 39", kindUnreadable, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { play(w, bedrockWire, tc.frames) })
			got, err := texts(t.Context(), bedrockWith(up.URL, testCreds, 2), bedrockWire.model)
			if errorText(err) != tc.want {
				t.Errorf("error = %q, want %q", errorText(err), tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v does not wrap %T", err, tc.is)
			}
			if got := errorKind(err); got != tc.kind {
				t.Errorf("error %v is shown as %q, want %q", err, got, tc.kind)
			}
			if tc.texts != nil {
				if !slices.Equal(got, tc.texts) || up.count.Load() != 1 {
					t.Errorf("deltas = %q in %d requests, want %q in 1", got, up.count.Load(), tc.texts)
				}
				return
			}
			wantBonTriedOnce(t, up, got)
		})
	}
	t.Run("an answer that is not an event stream", func(t *testing.T) {
		t.Parallel()
		up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"output":{"message":{"content":[{"text":"Bonjour"}]}}}`))
		})
		_, err := texts(t.Context(), bedrockWith(up.URL, testCreds, 0), bedrockWire.model)
		if want := "bedrock stream: decode event: message checksum mismatch"; errorText(err) != want {
			t.Errorf("error = %q, want %q", errorText(err), want)
		}
	})
}

// Options.HTTPClient sends the requests when given.
func TestBedrockHTTPClient(t *testing.T) {
	t.Parallel()
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { play(w, bedrockWire, bedrockWire.script(bonjour)) })
	var trips atomic.Int32
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		trips.Add(1)
		return http.DefaultTransport.RoundTrip(r)
	})}
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.StaticCredentialsProvider{Value: testCreds}}
	p := providers.NewBedrock(cfg, providers.Options{BaseURL: up.URL + "/", HTTPClient: hc})
	if got, err := texts(t.Context(), p, bedrockWire.model); err != nil || !slices.Equal(got, []string{"Bon", "jour"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	if trips.Load() != 1 {
		t.Errorf("round trips through the given client = %d, want 1", trips.Load())
	}
	if r, _ := up.first(t); r.URL.Path != "/model/"+bedrockWire.model+"/converse-stream" {
		t.Errorf("path = %q: the base URL's slash doubled?", r.URL.Path)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Without Options.BaseURL the endpoint is the region's, or
// AWS_ENDPOINT_URL_BEDROCK_RUNTIME (the SDKs' variable) when set.
func TestBedrockEndpointFromEnvironment(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { play(w, bedrockWire, bedrockWire.script(bonjour)) })
	t.Setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", up.URL)
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.StaticCredentialsProvider{Value: testCreds}}
	if got, err := texts(t.Context(), providers.NewBedrock(cfg, providers.Options{}), bedrockWire.model); err != nil || !slices.Equal(got, []string{"Bon", "jour"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	r, body := up.first(t)
	wantSigned(t, r, body, testCreds, "us-east-1")
}

// Without credentials nothing is sent, and the reply ends with an error
// saying why. (The SDK's client panics.)
func TestBedrockWithoutCredentials(t *testing.T) {
	t.Parallel()
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { play(w, bedrockWire, bedrockWire.script(bonjour)) })
	p := providers.NewBedrock(aws.Config{Region: "us-east-1"}, providers.Options{BaseURL: up.URL})
	_, err := texts(t.Context(), p, bedrockWire.model)
	if want := "bedrock stream: no AWS credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)"; errorText(err) != want {
		t.Errorf("error = %q, want %q", errorText(err), want)
	}
	if n := up.count.Load(); n != 0 {
		t.Errorf("requests = %d, want none", n)
	}
}
