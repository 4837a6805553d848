package mcpauth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"aiwork/shared/mcp/mcpauth"
)

// goWords are what a Go error says and a user must never read: the SDK's
// call names, its field names, its status text, a quoted Get.
var goWords = []string{"GetProtectedResourceMetadata", "GetAuthServerMeta", "metadataURL", "bad status", `Get "`, "registration failed", "%!"}

func saysNoGo(t *testing.T, what, text string) {
	t.Helper()
	for _, w := range goWords {
		if strings.Contains(text, w) {
			t.Errorf("%s: %q holds the Go error text %q", what, text, w)
		}
	}
}

// TestDiscoverSaysItInWords: each discovery failure is one sentence of the
// product's, naming what failed and where, without the Go error's text
// (which stays reachable for logs through Unwrap).
func TestDiscoverSaysItInWords(t *testing.T) {
	t.Parallel()
	wellKnown := []string{"/.well-known/oauth-protected-resource"}
	const asPath = "/.well-known/oauth-authorization-server"
	cases := []struct {
		name string
		r    *resource
		want func(r *resource) string
	}{
		{"the challenge's metadata is missing", &resource{challenge: `Bearer resource_metadata="RESOURCE_METADATA"`, asMetaAt: asPath}, func(r *resource) string {
			return "The server's sign-in metadata could not be read (HTTP 404 at " + r.mcpSrv.URL + "/custom-prm)."
		}},
		{"metadata is HTML", &resource{prmAt: wellKnown, asMetaAt: asPath, prm: func() (string, []byte) {
			return "text/html", []byte("<!doctype html><p>Welcome")
		}}, func(r *resource) string {
			return "The server's sign-in metadata could not be read (the answer is not JSON at " + r.mcpSrv.URL + "/.well-known/oauth-protected-resource)."
		}},
		{"metadata names another server", &resource{prmAt: wellKnown, asMetaAt: asPath, prm: func() (string, []byte) {
			return "application/json", []byte(`{"resource":"https://other.example/mcp","authorization_servers":["https://auth.example"]}`)
		}}, func(r *resource) string {
			return "The server's sign-in metadata could not be read (it names another server than this one at " + r.mcpSrv.URL + "/.well-known/oauth-protected-resource)."
		}},
		{"metadata at the cloud metadata address", &resource{challenge: `Bearer resource_metadata="https://169.254.169.254/latest/meta-data/"`}, func(*resource) string {
			return "The server's sign-in metadata could not be read (the address is a private or local one and is refused at https://169.254.169.254/latest/meta-data/)."
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tc.r.start(t)
			_, err := mcpauth.Discover(context.Background(), loopback, r.endpoint())
			if err == nil || err.Error() != tc.want(r) {
				t.Fatalf("Discover error = %v\nwant %s", err, tc.want(r))
			}
			saysNoGo(t, tc.name, err.Error())
			var ue *mcpauth.Error
			if !asUserError(err, &ue) || ue.Unwrap() == nil {
				t.Errorf("%T keeps no cause for the log", err)
			}
		})
	}
}

// TestAuthServerFailureSaysItInWords: an authorization server whose
// metadata answers 500 is named with the status, not the SDK's text.
func TestAuthServerFailureSaysItInWords(t *testing.T) {
	t.Parallel()
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "boom", 500) }))
	defer as.Close()
	r := (&resource{prmAt: []string{"/.well-known/oauth-protected-resource"}}).start(t)
	r.prm = func() (string, []byte) {
		return "application/json", []byte(`{"resource":"` + r.endpoint() + `","authorization_servers":["` + as.URL + `"]}`)
	}
	_, err := mcpauth.Discover(context.Background(), loopback, r.endpoint())
	want := "The server's authorization server could not be read (HTTP 500 at " + as.URL + ")."
	if err == nil || err.Error() != want {
		t.Fatalf("Discover error = %v\nwant %s", err, want)
	}
	saysNoGo(t, "authorization server 500", err.Error())
}

// TestRefusedRegistrationSaysItInWords: a registration refused names the
// standard error code, never the server's own description.
func TestRefusedRegistrationSaysItInWords(t *testing.T) {
	t.Parallel()
	r := &resource{prmAt: []string{"/.well-known/oauth-protected-resource"}, asMetaAt: "/.well-known/oauth-authorization-server",
		register: func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"invalid_client_metadata","error_description":"Call 555-0100 to unlock your account"}`))
		}}
	srv, err := mcpauth.Discover(context.Background(), loopback, r.start(t).endpoint())
	if err != nil {
		t.Fatal(err)
	}
	_, err = mcpauth.Identity{RedirectURL: "https://site.example/cb", ClientName: "Test", Registrations: memRegistrations{m: map[string]mcpauth.Client{}}}.
		ClientFor(context.Background(), loopback, srv, mcpauth.Client{}, "Sentry")
	want := "Sentry refused to register this app (it answered invalid_client_metadata at " + r.asSrv.URL + "/register)."
	if err == nil || err.Error() != want {
		t.Fatalf("ClientFor error = %v\nwant %s", err, want)
	}
	saysNoGo(t, "refused registration", err.Error())
}
