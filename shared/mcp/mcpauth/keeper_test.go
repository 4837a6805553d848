package mcpauth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"aiwork/shared/domain"
	"aiwork/shared/mcp"
	"aiwork/shared/mcp/mcpauth"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// tokenServer refreshes tokens: each refresh token works once (rotation),
// "revoked" never; it counts the refreshes it served.
type tokenServer struct {
	*httptest.Server
	refreshes atomic.Int32
	used      sync.Map
}

func newTokenServer(t *testing.T) *tokenServer {
	ts := &tokenServer{}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		rt := r.PostForm.Get("refresh_token")
		w.Header().Set("Content-Type", "application/json")
		if _, dup := ts.used.LoadOrStore(rt, true); dup || rt == "revoked" || r.PostForm.Get("resource") == "" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		n := ts.refreshes.Add(1)
		_, _ = w.Write([]byte(`{"access_token":"access-` + string(rune('0'+n)) + `","refresh_token":"refresh-` + string(rune('0'+n)) + `","token_type":"Bearer","expires_in":3600}`))
	}))
	t.Cleanup(ts.Close)
	return ts
}

func signedIn(t *testing.T, k mcpauth.Keeper, uid string, ts *tokenServer, refresh string) domain.MCPConnection {
	t.Helper()
	grant := mcpauth.Grant{Client: mcpauth.Client{ID: "client", Method: "none"}, TokenURL: ts.URL + "/token", Resource: "https://mcp.example/mcp"}
	tok := &oauth2.Token{AccessToken: "old", RefreshToken: refresh, Expiry: time.Now().Add(-time.Minute)}
	blob, err := k.Sealer.Seal(mcpauth.Sealed{Grant: grant, Token: tok}.Encode(), uid, "srv")
	storetest.Must(t, err, "seal")
	c := domain.MCPConnection{ID: "oauth-1", ServerID: "srv", ServerName: "Server", EndpointURL: "https://mcp.example/mcp",
		SealedAPIKey: blob, OAuth: true, ConnectedAt: time.Now().UTC().Format(time.RFC3339)}
	storetest.Must(t, k.St.PutMCPConnection(context.Background(), uid, c), "put")
	return c
}

func keeper(t *testing.T) mcpauth.Keeper {
	sealer, err := mcp.NewSealer([]byte(strings.Repeat("s", 32)))
	storetest.Must(t, err, "sealer")
	return mcpauth.Keeper{St: storetest.New(t), Sealer: sealer, Client: http.DefaultClient, Now: time.Now}
}

// Ten requests find the access token expired at once: the server sees one
// refresh (its rotating refresh token used once), and every request gets
// the new token.
func TestKeeperRefreshesOnce(t *testing.T) {
	t.Parallel()
	k, ts := keeper(t), newTokenServer(t)
	c := signedIn(t, k, "u1", ts, "refresh-0")
	var wg sync.WaitGroup
	got := make([]string, 10)
	errs := make([]error, 10)
	for i := range got {
		wg.Go(func() { got[i], errs[i] = k.AccessToken(context.Background(), "u1", c) })
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil || got[i] != "access-1" {
			t.Errorf("request %d: %q, %v; want access-1", i, got[i], errs[i])
		}
	}
	if n := ts.refreshes.Load(); n != 1 {
		t.Errorf("%d refreshes, want 1", n)
	}
	// The new grant is kept: the next request uses it without a refresh.
	c, err := k.St.GetMCPConnection(context.Background(), "u1", c.ID)
	storetest.Must(t, err, "get")
	if tok, err := k.AccessToken(context.Background(), "u1", c); err != nil || tok != "access-1" || ts.refreshes.Load() != 1 || c.GrantVersion != 1 {
		t.Errorf("after the refresh: %q, %v, version %d", tok, err, c.GrantVersion)
	}
}

// A refresh the server refuses marks the connection "sign in again", keeps
// it, and answers ErrReauth.
func TestKeeperRefusedRefreshAsksToSignInAgain(t *testing.T) {
	t.Parallel()
	k, ts := keeper(t), newTokenServer(t)
	c := signedIn(t, k, "u2", ts, "revoked")
	if _, err := k.AccessToken(context.Background(), "u2", c); err != mcpauth.ErrReauth {
		t.Fatalf("err = %v, want ErrReauth", err)
	}
	c, err := k.St.GetMCPConnection(context.Background(), "u2", c.ID)
	if err != nil || !c.NeedsSignIn {
		t.Errorf("connection %+v, %v: want it kept, marked", c, err)
	}
	if _, err := k.AccessToken(context.Background(), "u2", c); err != mcpauth.ErrReauth {
		t.Errorf("marked connection: %v, want ErrReauth without asking the server", err)
	}
}
