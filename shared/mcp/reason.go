package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"unicode"
)

// maxReasonPeek is how much of a refusal's body is read for its reason.
const maxReasonPeek = 4 << 10

// maxReasonRunes bounds the reason a user reads.
const maxReasonRunes = 200

// peekReason reads the short reason a refusal's body gives (plain text, or
// JSON's error_description, message, error or detail), leaving the body
// whole for the SDK; "" for none, or an HTML page. A key the server echoes
// back is never shown.
func peekReason(resp *http.Response, key string) string {
	if resp.Body == nil {
		return ""
	}
	head, _ := io.ReadAll(io.LimitReader(resp.Body, maxReasonPeek))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	reason := reasonText(contentType(resp), head)
	if key != "" {
		reason = strings.ReplaceAll(reason, key, "…")
	}
	return cutRunes(reason, maxReasonRunes)
}

func reasonText(contentType string, body []byte) string {
	body = bytes.TrimSpace(body)
	switch {
	case len(body) == 0, contentType == "text/html", bytes.HasPrefix(bytes.ToLower(body), []byte("<!doctype")), bytes.HasPrefix(body, []byte("<")):
		return ""
	case strings.HasSuffix(contentType, "json") || body[0] == '{':
		return jsonReason(body)
	}
	line, _, _ := strings.Cut(string(body), "\n")
	return oneLine(line)
}

// jsonReason is the first of the fields servers put their reason in.
func jsonReason(body []byte) string {
	var v map[string]json.RawMessage
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	for _, field := range []string{"error_description", "message", "error", "detail"} {
		raw, ok := v[field]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil && strings.TrimSpace(s) != "" {
			return oneLine(s)
		}
		var nested struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(raw, &nested) == nil && strings.TrimSpace(nested.Message) != "" {
			return oneLine(nested.Message)
		}
	}
	return ""
}

// oneLine folds whitespace and drops control characters.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
