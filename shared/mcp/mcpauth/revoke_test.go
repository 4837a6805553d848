package mcpauth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"golang.org/x/oauth2"

	"aiwork/shared/mcp/mcpauth"
)

// TestRevoke: disconnect revokes at a server that offers revocation (RFC
// 7009): the refresh token first, then the access token, each with its
// hint and the client id; a server without revocation is not asked; a
// refusal is reported.
func TestRevoke(t *testing.T) {
	var mu sync.Mutex
	var got []string
	status := http.StatusOK
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		got = append(got, r.URL.Path+" "+r.PostForm.Get("token_type_hint")+"="+r.PostForm.Get("token")+" client="+r.PostForm.Get("client_id"))
		mu.Unlock()
		w.WriteHeader(status)
	}))
	defer ts.Close()
	tok := &oauth2.Token{AccessToken: "at-1", RefreshToken: "rt-1"}
	grant := mcpauth.Grant{Client: mcpauth.Client{ID: "client-9", Method: "none"}, RevocationURL: ts.URL + "/revoke"}

	if err := grant.Revoke(context.Background(), ts.Client(), tok); err != nil {
		t.Fatal(err)
	}
	want := []string{"/revoke refresh_token=rt-1 client=client-9", "/revoke access_token=at-1 client=client-9"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("revocation requests %q, want %q", got, want)
	}

	got = nil
	if err := (mcpauth.Grant{Client: grant.Client}).Revoke(context.Background(), ts.Client(), tok); err != nil || len(got) != 0 {
		t.Errorf("no revocation endpoint: err %v, %d requests; want none", err, len(got))
	}

	status = http.StatusServiceUnavailable
	if err := grant.Revoke(context.Background(), ts.Client(), tok); err == nil {
		t.Error("a refused revocation reported no error")
	}
}
