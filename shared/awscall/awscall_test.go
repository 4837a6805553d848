package awscall_test

import (
	"net/http"
	"testing"

	"aiwork/shared/awscall"
)

// Err reads an error as each JSON protocol gives it.
func TestAnswerErr(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		header string // X-Amzn-ErrorType
		body   string
		want   *awscall.Error
		retry  bool
	}{
		{"success", 200, "", `{}`, nil, false},
		{"json 1.1", 400, "", `{"__type":"ResourceNotFoundException","message":"no such secret"}`,
			&awscall.Error{Status: 400, Code: "ResourceNotFoundException", Message: "no such secret"}, false},
		{"namespaced", 400, "", `{"__type":"com.amazonaws.secretsmanager#ThrottlingException","message":"slow down"}`,
			&awscall.Error{Status: 400, Code: "ThrottlingException", Message: "slow down"}, true},
		{"rest-json header", 404, "ResourceNotFoundException:http://internal.amazon.com/coral/", `{"Type":"User","Message":"Function not found"}`,
			&awscall.Error{Status: 404, Code: "ResourceNotFoundException", Message: "Function not found"}, false},
		{"too many requests", 429, "TooManyRequestsException", `{"message":"Rate exceeded"}`,
			&awscall.Error{Status: 429, Code: "TooManyRequestsException", Message: "Rate exceeded"}, true},
		{"service failed", 503, "", `not json`, &awscall.Error{Status: 503}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &awscall.Answer{Status: tc.status, Header: http.Header{}, Body: []byte(tc.body)}
			if tc.header != "" {
				a.Header.Set("X-Amzn-ErrorType", tc.header)
			}
			got := a.Err()
			if (got == nil) != (tc.want == nil) || got != nil && (*got != *tc.want || got.Retryable() != tc.retry) {
				t.Fatalf("Err() = %+v, want %+v (retryable %v)", got, tc.want, tc.retry)
			}
		})
	}
}
