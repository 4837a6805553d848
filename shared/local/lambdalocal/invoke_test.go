package lambdalocal

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The Invoke API runs testdata/fn synchronously and answers as Lambda does:
// the function's payload, its failure as a 200 with X-Amz-Function-Error,
// and the API's own errors with their codes.
func TestInvokeAPI(t *testing.T) {
	fn := newFunction(t, "fn", nil)
	api := httptest.NewServer(&InvokeAPI{Functions: map[string]*Function{"fn": fn}})
	t.Cleanup(api.Close)
	echo := `{"mode":"echo","body":"hello"}`
	for _, tc := range []struct {
		name, method, path, invocationType, body string
		status                                   int
		functionError                            string // X-Amz-Function-Error
		errorType                                string // X-Amzn-ErrorType
		contains                                 string
	}{
		{name: "by name", path: "/2015-03-31/functions/fn/invocations", body: echo, status: 200, contains: "hello"},
		{name: "by ARN", path: "/2015-03-31/functions/" + fn.ARN() + "/invocations", body: echo, status: 200, contains: "hello"},
		{name: "request-response said", path: "/2015-03-31/functions/fn/invocations", invocationType: "RequestResponse", body: echo, status: 200, contains: "hello"},
		{name: "function error", path: "/2015-03-31/functions/fn/invocations", body: `{"mode":"error"}`, status: 200,
			functionError: "Unhandled", contains: `"errorMessage":"invocation failed on purpose"`},
		{name: "unknown function", path: "/2015-03-31/functions/nope/invocations", body: echo, status: 404, errorType: "ResourceNotFoundException"},
		{name: "asynchronous", path: "/2015-03-31/functions/fn/invocations", invocationType: "Event", body: echo, status: 400,
			errorType: "InvalidParameterValueException"},
		{name: "too large", path: "/2015-03-31/functions/fn/invocations", body: `"` + strings.Repeat("x", MaxInvokePayload) + `"`, status: 413,
			errorType: "RequestTooLargeException"},
		{name: "other operation", method: http.MethodGet, path: "/2015-03-31/functions/fn", status: 404, errorType: "UnknownOperationException"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(cmp.Or(tc.method, http.MethodPost), api.URL+tc.path, bytes.NewReader([]byte(tc.body)))
			if err != nil {
				t.Fatal(err)
			}
			if tc.invocationType != "" {
				req.Header.Set("X-Amz-Invocation-Type", tc.invocationType)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || resp.Header.Get("X-Amz-Function-Error") != tc.functionError ||
				resp.Header.Get("X-Amzn-ErrorType") != tc.errorType || !strings.Contains(string(raw), tc.contains) {
				t.Fatalf("got %d (function error %q, error type %q) %s; want %d, %q, %q containing %q", resp.StatusCode,
					resp.Header.Get("X-Amz-Function-Error"), resp.Header.Get("X-Amzn-ErrorType"), raw, tc.status, tc.functionError, tc.errorType, tc.contains)
			}
			if tc.status == 200 && !json.Valid(raw) {
				t.Errorf("answer is not JSON: %s", raw)
			}
		})
	}
}
