package lambdalocal

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// MaxInvokePayload is Lambda's limit on a synchronous invocation's request
// (6 MB).
const MaxInvokePayload = 6 << 20

// InvokeAPI is Lambda's Invoke API for the functions, synchronous
// (RequestResponse) only: the admin function runs Probe now and Sync in
// mcp-jobs through it, reaching it at AWS_ENDPOINT_URL_LAMBDA as it reaches
// Lambda in AWS. Like the other stand-ins it does not check signatures.
type InvokeAPI struct {
	// Functions by name; an ARN is resolved to its name.
	Functions map[string]*Function
}

func (a *InvokeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/2015-03-31/functions/")
	name, ok2 := strings.CutSuffix(rest, "/invocations")
	if !ok || !ok2 || r.Method != http.MethodPost {
		restJSONError(w, http.StatusNotFound, "UnknownOperationException", "the local Lambda answers Invoke only")
		return
	}
	if i := strings.LastIndex(name, ":function:"); i >= 0 {
		name = name[i+len(":function:"):]
	}
	fn := a.Functions[name]
	if fn == nil {
		restJSONError(w, http.StatusNotFound, "ResourceNotFoundException", "Function not found: "+name)
		return
	}
	if t := r.Header.Get("X-Amz-Invocation-Type"); t != "" && t != "RequestResponse" {
		restJSONError(w, http.StatusBadRequest, "InvalidParameterValueException", "the local Lambda runs RequestResponse invocations only, not "+t)
		return
	}
	payload, err := io.ReadAll(io.LimitReader(r.Body, MaxInvokePayload+1))
	if err != nil {
		restJSONError(w, http.StatusBadRequest, "InvalidRequestContentException", "unreadable request")
		return
	}
	if len(payload) > MaxInvokePayload {
		restJSONError(w, http.StatusRequestEntityTooLarge, "RequestTooLargeException", "Request must be smaller than 6291456 bytes for the InvokeFunction operation")
		return
	}
	res, err := fn.Invoke(r.Context(), payload)
	if err != nil {
		restJSONError(w, http.StatusInternalServerError, "ServiceException", err.Error())
		return
	}
	if res.Stream != nil {
		_ = res.Stream.Body.Close()
		restJSONError(w, http.StatusBadRequest, "InvalidParameterValueException", "a streaming function's answer: the local Lambda has no InvokeWithResponseStream")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amz-Executed-Version", "$LATEST")
	if res.Err != nil {
		// A function's failure is a 200 naming it, as in Lambda.
		w.Header().Set("X-Amz-Function-Error", "Unhandled")
		_ = json.NewEncoder(w).Encode(res.Err)
		return
	}
	_, _ = w.Write(res.Payload)
}
