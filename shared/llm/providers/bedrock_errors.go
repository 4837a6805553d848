package providers

import (
	"aiwork/shared/llm"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

// Bedrock's errors: a refusal before the stream (an HTTP status, the
// X-Amzn-ErrorType header, a JSON body with its message) and exceptions
// inside it (messages of :message-type "exception"). Their texts are the
// ones the SDK's bedrockruntime client gave (bedrock_errors_test.go).

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

// bedrockExceptionNames are the errors ConverseStream declares: one
// without a message says its name, as the SDK's typed errors did; any
// other says "UnknownError". (A list, not a map: nothing to build at init.)
var bedrockExceptionNames = []string{"AccessDeniedException", "InternalServerException", "ModelErrorException",
	"ModelNotReadyException", "ModelStreamErrorException", "ModelTimeoutException",
	"ResourceNotFoundException", "ServiceUnavailableException", "ThrottlingException", "ValidationException"}

// bedrockError is the error of Bedrock's exception code with message; a
// status below 400 (none: inside the stream) is the one code stands for.
func bedrockError(status int, code, message string) *llm.UpstreamError {
	if status < 400 {
		status = bedrockExceptionStatus[strings.ToLower(code)]
	}
	if message == "" {
		message = "UnknownError"
		if i := slices.IndexFunc(bedrockExceptionNames, func(n string) bool { return strings.EqualFold(n, code) }); i >= 0 {
			message = bedrockExceptionNames[i]
		}
	}
	return upstreamError(LabelBedrock, status, message, "")
}

// bedrockRefusal is the error of a request refused before the stream (its
// body read and closed), or of one that got no answer.
func bedrockRefusal(res *http.Response, err error) error {
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	_ = res.Body.Close()
	var e struct {
		Code    string
		Type    string `json:"__type"`
		Message string
	}
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&e); err != nil && err != io.EOF {
		return upstreamError(LabelBedrock, res.StatusCode, "", "") // not Bedrock's JSON: the status says it
	}
	// The code: the header's, else the body's, without what follows a ":"
	// or a namespace before a "#" ("com.amazon.bedrock#ValidationException").
	code, _, _ := strings.Cut(cmp.Or(res.Header.Get("X-Amzn-ErrorType"), e.Code, e.Type), ":")
	code = code[strings.Index(code, "#")+1:]
	return bedrockError(res.StatusCode, code, e.Message)
}

// bedrockEventType is the :event-type of an event message, or the error of
// an exception or error message, or of one the stream should not carry.
func bedrockEventType(m eventstream.Message) (string, error) {
	switch mt := header(m, ":message-type"); mt {
	case "event":
		if t := header(m, ":event-type"); t != "" {
			return t, nil
		}
		return "", errors.New(":event-type event header not present")
	case "exception":
		typ := header(m, ":exception-type")
		if typ == "" {
			return "", errors.New(":exception-type event header not present")
		}
		var p struct{ Message string }
		_ = json.Unmarshal(m.Payload, &p) // a payload without the message says the type
		return "", bedrockError(0, typ, p.Message)
	case "error":
		// As the SDK had it: the message or "UnknownError", never the code's name.
		return "", bedrockError(0, header(m, ":error-code"), cmp.Or(header(m, ":error-message"), "UnknownError"))
	case "":
		return "", errors.New(":message-type event header not present")
	default:
		return "", fmt.Errorf("unknown event stream message type, %s", mt)
	}
}
