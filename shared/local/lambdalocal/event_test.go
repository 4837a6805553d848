package lambdalocal

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"
)

// The REST proxy event built from a request, as API Gateway builds it, and
// the answers turned back into HTTP.

func eventFor(t *testing.T, r *http.Request, prefix string, body []byte) events.APIGatewayProxyRequest {
	t.Helper()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	ev := proxyEvent(r, matchResource(prefix, r.URL.Path), body, "203.0.113.9", "req-1", now)
	// What the function receives is the event as JSON.
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var back events.APIGatewayProxyRequest
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	return back
}

// Headers and query strings with several values: all of them in the
// multi-value maps, the last in the single-value ones; the Host.
func TestEventMultiValueHeadersAndQuery(t *testing.T) {
	r := httptest.NewRequest("GET", "/api/v1/prompts/?category=a&category=b&q=x%20y&empty=", nil)
	r.Header.Add("X-Multi", "first")
	r.Header.Add("X-Multi", "second")
	r.Header.Set("User-Agent", "test-agent")
	r.Host = "local.execute-api.us-east-1.amazonaws.com"
	ev := eventFor(t, r, "/api/v1/prompts/", nil)

	if got := ev.Headers["X-Multi"]; got != "second" {
		t.Errorf("headers[X-Multi] = %q, want the last value %q", got, "second")
	}
	if got := ev.MultiValueHeaders["X-Multi"]; !slices.Equal(got, []string{"first", "second"}) {
		t.Errorf("multiValueHeaders[X-Multi] = %q, want both values in order", got)
	}
	if ev.Headers["Host"] != r.Host || !slices.Equal(ev.MultiValueHeaders["Host"], []string{r.Host}) {
		t.Errorf("Host = %q / %q, want %q in both maps", ev.Headers["Host"], ev.MultiValueHeaders["Host"], r.Host)
	}
	if got := ev.QueryStringParameters; got["category"] != "b" || got["q"] != "x y" || got["empty"] != "" || len(got) != 3 {
		t.Errorf("queryStringParameters = %v, want category=b (last), q decoded, empty present", got)
	}
	if got := ev.MultiValueQueryStringParameters["category"]; !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("multiValueQueryStringParameters[category] = %q, want [a b]", got)
	}
	if ev.RequestContext.Identity.UserAgent != "test-agent" || ev.RequestContext.Identity.SourceIP != "203.0.113.9" {
		t.Errorf("identity = %+v", ev.RequestContext.Identity)
	}

	// Without a query string, no query maps (null), as API Gateway.
	ev = eventFor(t, httptest.NewRequest("GET", "/api/v1/prompts/", nil), "/api/v1/prompts/", nil)
	if ev.QueryStringParameters != nil || ev.MultiValueQueryStringParameters != nil {
		t.Errorf("no query string: maps %v / %v, want none", ev.QueryStringParameters, ev.MultiValueQueryStringParameters)
	}
}

// Cookies pass as Cookie headers, in both maps, unchanged (REST APIs have
// no cookies field), and reach the handler through the functions' adapter.
func TestEventCookies(t *testing.T) {
	r := httptest.NewRequest("GET", "/api/v1/auth/google/callback?state=s&code=c", nil)
	r.Header.Add("Cookie", "google_oauth_nonce=abc123; other=1")
	r.Header.Add("Cookie", "late=2")
	ev := eventFor(t, r, "/api/v1/auth/", nil)
	if got := ev.MultiValueHeaders["Cookie"]; !slices.Equal(got, []string{"google_oauth_nonce=abc123; other=1", "late=2"}) {
		t.Errorf("multiValueHeaders[Cookie] = %q, want both Cookie headers unchanged", got)
	}
	if got := ev.Headers["Cookie"]; got != "late=2" {
		t.Errorf("headers[Cookie] = %q, want the last Cookie header", got)
	}
	req := adapterRequest(t, ev)
	for name, want := range map[string]string{"google_oauth_nonce": "abc123", "other": "1", "late": "2"} {
		if c, err := req.Cookie(name); err != nil || c.Value != want {
			t.Errorf("the function's request: cookie %s = %v (%v), want %q", name, c, err, want)
		}
	}
}

// adapterRequest is the http.Request the functions' adapter
// (aws-lambda-go-api-proxy, lambdaadapter) makes of ev.
func adapterRequest(t *testing.T, ev events.APIGatewayProxyRequest) *http.Request {
	t.Helper()
	var accessor core.RequestAccessor
	req, err := accessor.EventToRequestWithContext(context.Background(), ev)
	if err != nil {
		t.Fatalf("the adapter refused the event: %v", err)
	}
	return req
}

// A body that is UTF-8 passes as text; any other is base64 with
// isBase64Encoded, and the function's request gets the same bytes back.
func TestEventBody(t *testing.T) {
	text := []byte(`{"message":"héllo ✓"}`)
	r := httptest.NewRequest("POST", "/api/v1/payments/webhook", bytes.NewReader(text))
	ev := eventFor(t, r, "/api/v1/payments/webhook", text)
	if ev.Body != string(text) || ev.IsBase64Encoded {
		t.Errorf("UTF-8 body: %q base64 %v, want the text unchanged", ev.Body, ev.IsBase64Encoded)
	}

	binary := []byte{'{', '"', 'x', '"', ':', '"', 0xff, 0xfe, '"', '}', 0}
	r = httptest.NewRequest("POST", "/api/v1/payments/webhook", bytes.NewReader(binary))
	ev = eventFor(t, r, "/api/v1/payments/webhook", binary)
	if !ev.IsBase64Encoded || ev.Body != base64.StdEncoding.EncodeToString(binary) {
		t.Fatalf("non-UTF-8 body: %q base64 %v, want base64 with isBase64Encoded", ev.Body, ev.IsBase64Encoded)
	}
	got, err := io.ReadAll(adapterRequest(t, ev).Body)
	if err != nil || !bytes.Equal(got, binary) {
		t.Errorf("the function's request body = %q (%v), want the bytes sent %q", got, err, binary)
	}

	ev = eventFor(t, httptest.NewRequest("GET", "/api/v1/prompts/", nil), "/api/v1/prompts/", nil)
	if ev.Body != "" || ev.IsBase64Encoded {
		t.Errorf("no body: %q base64 %v", ev.Body, ev.IsBase64Encoded)
	}
}

// The resource a path matches, as the stack builds the API from
// shared/routes: a group's subtree is /x/{proxy+} with the rest of the
// path as "proxy"; its root (with or without the trailing slash) is /x; an
// exact route is its own resource without parameters.
func TestEventResourceAndPathParameters(t *testing.T) {
	for _, tc := range []struct {
		prefix, path, template string
		params                 map[string]string
	}{
		{"/api/v1/auth/", "/api/v1/auth/google/login", "/api/v1/auth/{proxy+}", map[string]string{"proxy": "google/login"}},
		{"/api/v1/mcp-connections/", "/api/v1/mcp-connections/abc", "/api/v1/mcp-connections/{proxy+}", map[string]string{"proxy": "abc"}},
		{"/api/v1/prompts/", "/api/v1/prompts/", "/api/v1/prompts", nil},
		{"/api/v1/prompts/", "/api/v1/prompts", "/api/v1/prompts", nil},
		{"/api/v1/payments/webhook", "/api/v1/payments/webhook", "/api/v1/payments/webhook", nil},
		{"/api/v1/mcp-connections/message", "/api/v1/mcp-connections/message", "/api/v1/mcp-connections/message", nil},
	} {
		r := httptest.NewRequest("POST", tc.path, nil)
		ev := eventFor(t, r, tc.prefix, nil)
		if ev.Resource != tc.template || ev.RequestContext.ResourcePath != tc.template || !reflect.DeepEqual(ev.PathParameters, tc.params) {
			t.Errorf("%s (route %s): resource %q / %q, parameters %v; want %q, %v",
				tc.path, tc.prefix, ev.Resource, ev.RequestContext.ResourcePath, ev.PathParameters, tc.template, tc.params)
		}
		if ev.Path != tc.path || ev.RequestContext.Path != "/prod"+tc.path {
			t.Errorf("%s: path %q, requestContext.path %q; want %q and /prod%s", tc.path, ev.Path, ev.RequestContext.Path, tc.path, tc.path)
		}
		if ev.RequestContext.ResourceID != resourceID(tc.template) || ev.RequestContext.ResourceID == "" {
			t.Errorf("%s: resourceId %q", tc.path, ev.RequestContext.ResourceID)
		}
	}
}

// The request context: stage, ids, method, the stage in the path, time.
func TestEventRequestContext(t *testing.T) {
	r := httptest.NewRequest("DELETE", "/api/v1/mcp-connections/c1", nil)
	ev := eventFor(t, r, "/api/v1/mcp-connections/", nil)
	rc := ev.RequestContext
	if rc.Stage != "prod" || rc.Path != "/prod/api/v1/mcp-connections/c1" || rc.HTTPMethod != "DELETE" || ev.HTTPMethod != "DELETE" ||
		rc.RequestID != "req-1" || rc.APIID != "local" || rc.AccountID != "000000000000" || rc.Protocol != "HTTP/1.1" {
		t.Errorf("requestContext = %+v", rc)
	}
	if rc.RequestTime != "04/Mar/2026:05:06:07 +0000" || rc.RequestTimeEpoch != time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC).UnixMilli() {
		t.Errorf("request time %q / %d", rc.RequestTime, rc.RequestTimeEpoch)
	}
	// The functions' adapter serves the path without the stage.
	if got := adapterRequest(t, ev).URL.Path; got != "/api/v1/mcp-connections/c1" {
		t.Errorf("the function's request path = %q", got)
	}
}

// A buffered proxy response: multi-value headers first (every Set-Cookie
// kept), single values not in them; the status; the body (decoded from
// base64 when so marked) with its length.
func TestWriteProxyResponse(t *testing.T) {
	payload, _ := json.Marshal(events.APIGatewayProxyResponse{
		StatusCode: 201,
		Headers:    map[string]string{"Content-Type": "application/json", "X-Both": "single", "Set-Cookie": "ignored=1"},
		MultiValueHeaders: map[string][]string{
			"Set-Cookie": {"a=1; Path=/; HttpOnly", "b=2; Path=/api/v1/auth/google/; Max-Age=600"},
			"X-Both":     {"multi-1", "multi-2"},
		},
		Body: `{"ok":true}`,
	})
	w := httptest.NewRecorder()
	if err := writeProxyResponse(w, payload); err != nil {
		t.Fatal(err)
	}
	res := w.Result()
	if res.StatusCode != 201 || w.Body.String() != `{"ok":true}` || res.Header.Get("Content-Length") != "11" || res.Header.Get("Content-Type") != "application/json" {
		t.Errorf("response = %d %v %q", res.StatusCode, res.Header, w.Body)
	}
	if got := res.Header.Values("Set-Cookie"); !slices.Equal(got, []string{"a=1; Path=/; HttpOnly", "b=2; Path=/api/v1/auth/google/; Max-Age=600"}) {
		t.Errorf("Set-Cookie = %q, want both of multiValueHeaders (the single value dropped)", got)
	}
	if got := res.Header.Values("X-Both"); !slices.Equal(got, []string{"multi-1", "multi-2"}) {
		t.Errorf("X-Both = %q, want the multi-value header's values", got)
	}
	if cookies := res.Cookies(); len(cookies) != 2 || cookies[1].MaxAge != 600 {
		t.Errorf("cookies = %v", cookies)
	}

	raw := []byte{0x89, 'P', 'N', 'G', 0, 0xff}
	payload, _ = json.Marshal(events.APIGatewayProxyResponse{StatusCode: 200, Body: base64.StdEncoding.EncodeToString(raw), IsBase64Encoded: true,
		Headers: map[string]string{"Content-Type": "image/png"}})
	w = httptest.NewRecorder()
	if err := writeProxyResponse(w, payload); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Body.Bytes(), raw) || w.Header().Get("Content-Length") != "6" {
		t.Errorf("base64 body written as %q (length %s), want the decoded bytes", w.Body.Bytes(), w.Header().Get("Content-Length"))
	}
}

// A payload that is not a proxy response is an error (API Gateway's 502),
// and nothing is written.
func TestWriteProxyResponseMalformed(t *testing.T) {
	for name, payload := range map[string]string{
		"not JSON":            `hello`,
		"no status":           `{"body":"x"}`,
		"status out of range": `{"statusCode":99,"body":"x"}`,
		"bad base64":          `{"statusCode":200,"body":"@@@","isBase64Encoded":true}`,
		"body not a string":   `{"statusCode":200,"body":{"a":1}}`,
	} {
		w := httptest.NewRecorder()
		err := writeProxyResponse(w, []byte(payload))
		if err == nil || !strings.Contains(err.Error(), "Malformed Lambda proxy response") {
			t.Errorf("%s: err %v, want a malformed response error", name, err)
		}
		if w.Body.Len() != 0 || len(w.Header()) != 0 {
			t.Errorf("%s: wrote %v %q before refusing", name, w.Header(), w.Body)
		}
	}
}

// A stream's head: status (200 when absent), headers, and the prelude's
// cookies as Set-Cookie headers.
func TestWriteStreamHead(t *testing.T) {
	w := httptest.NewRecorder()
	prelude := `{"statusCode":202,"headers":{"Content-Type":"text/event-stream"},"multiValueHeaders":{"X-M":["1","2"],"Set-Cookie":["m=1"]},"cookies":["a=1; Path=/","b=2; HttpOnly"]}`
	if err := writeStreamHead(w, []byte(prelude)); err != nil {
		t.Fatal(err)
	}
	if w.Code != 202 || w.Header().Get("Content-Type") != "text/event-stream" || !slices.Equal(w.Header().Values("X-M"), []string{"1", "2"}) {
		t.Errorf("head = %d %v", w.Code, w.Header())
	}
	if got := w.Header().Values("Set-Cookie"); !slices.Equal(got, []string{"m=1", "a=1; Path=/", "b=2; HttpOnly"}) {
		t.Errorf("Set-Cookie = %q, want the header's and both cookies", got)
	}

	w = httptest.NewRecorder()
	if err := writeStreamHead(w, []byte(`{"headers":{"Content-Type":"text/plain"}}`)); err != nil || w.Code != 200 {
		t.Errorf("no statusCode: %v, status %d; want 200", err, w.Code)
	}
	for _, bad := range []string{`nope`, `{"statusCode":700}`} {
		if err := writeStreamHead(httptest.NewRecorder(), []byte(bad)); err == nil || !strings.Contains(err.Error(), "Malformed streaming prelude") {
			t.Errorf("prelude %s: err %v, want a malformed prelude error", bad, err)
		}
	}
}

// The Gateway gives the functions what CloudFront sends: its origin
// secret and the viewer's address (replacing what the client sent), the
// forwarding headers, and the API's own Host.
func TestViaCloudFront(t *testing.T) {
	g := &Gateway{OriginSecret: "the-secret"}
	r := httptest.NewRequest("GET", "http://app.example/api/v1/auth/me", nil)
	r.RemoteAddr = "198.51.100.7:5555"
	r.Header.Set("X-Origin-Secret", "forged")
	r.Header.Set("X-Forwarded-For", "1.2.3.4")
	out := g.viaCloudFront(r)
	ev := eventFor(t, out, "/api/v1/auth/", nil)
	if ev.Headers["X-Origin-Secret"] != "the-secret" || ev.Headers["X-Forwarded-For"] != "198.51.100.7" ||
		ev.Headers["X-Forwarded-Proto"] != "https" || ev.Headers["Host"] != "local.execute-api.us-east-1.amazonaws.com" {
		t.Errorf("headers = %v", ev.Headers)
	}
	if len(ev.MultiValueHeaders["X-Origin-Secret"]) != 1 {
		t.Errorf("X-Origin-Secret sent %d times", len(ev.MultiValueHeaders["X-Origin-Secret"]))
	}
	if r.Header.Get("X-Origin-Secret") != "forged" {
		t.Error("viaCloudFront changed the caller's request")
	}
}
