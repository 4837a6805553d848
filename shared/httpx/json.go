package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
)

// MaxBodyBytes caps every JSON request body (DESIGN §8).
const MaxBodyBytes = 64 << 10

// WriteJSON answers v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Warn("write json", "err", err)
	}
}

type errorBody struct {
	Detail string `json:"detail"`
	Code   Code   `json:"code"`
}

// WriteError answers err as {"detail", "code"}. Errors that are not client
// errors are logged and hidden behind "Internal error.".
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e, ok := AsClientError(err)
	if !ok {
		slog.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", r.URL.Path, "err", err)
		e = &Error{Code: CodeInternal, Detail: "Internal error."}
	}
	if e.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds))
	}
	WriteJSON(w, e.Status(), errorBody{Detail: e.Detail, Code: e.Code})
}

// DecodeJSON reads a JSON object body into dst. Unknown fields are ignored;
// malformed JSON and wrong types are 400, bodies over MaxBodyBytes are 413.
func DecodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	return DecodeJSONLimit(w, r, dst, MaxBodyBytes)
}

// DecodeJSONLimit is DecodeJSON with another body cap, for routes whose
// bodies are larger by nature (a chat conversation).
func DecodeJSONLimit(w http.ResponseWriter, r *http.Request, dst any, limit int64) error {
	if r.Body == nil {
		return Invalid("Request body is required.")
	}
	body := http.MaxBytesReader(w, r.Body, limit)
	data, err := io.ReadAll(body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &Error{Code: CodeTooLarge, Detail: fmt.Sprintf("Request body is larger than %d KiB.", limit>>10)}
		}
		return Invalid("Could not read the request body.")
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return Invalid("Request body is required.")
	}
	if err := json.Unmarshal(data, dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			field := typeErr.Field
			if field == "" {
				return Invalid(fmt.Sprintf("Request body must be a JSON object, not %s.", typeErr.Value))
			}
			return Invalid(fmt.Sprintf("Field '%s' must be %s, not %s.", field, jsonKind(typeErr.Type.Kind().String()), typeErr.Value))
		}
		return Invalid("Malformed JSON in request body.")
	}
	return nil
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int", "int64", "int32", "float64", "float32", "uint", "uint64":
		return "a number"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "a list"
	default:
		return "an object"
	}
}
