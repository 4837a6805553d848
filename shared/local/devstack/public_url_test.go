package devstack_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/local/devstack"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

// On the devserver stack a client's X-Forwarded-Host (or Host) cannot move
// the links the API hands out: the checkout's success and cancel pages and
// the link mailed to an account's owner stay on the devserver's own
// address (PUBLIC_URL, which the devserver defaults to itself), or on the
// request's own host when no public URL is configured at all.
func TestForwardedHostChangesNoLink(t *testing.T) {
	for _, tc := range []struct {
		name, publicURL, host, want string
	}{
		{"devserver (PUBLIC_URL defaults to its own address)", "http://localhost:8080", "evil.example", "http://localhost:8080"},
		{"PUBLIC_URL set by the operator", "https://shop.example.com", "localhost:8080", "https://shop.example.com"},
		{"no public URL: the request's own host", "", "localhost:8080", "http://localhost:8080"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, storeCfg := storetest.NewWithConfig(t)
			ctx := context.Background()
			storetest.Must(t, seeddata.Seed(ctx, st), "seed")
			mailDir := t.TempDir()
			cfg := devstack.ConfigFor(storeCfg, jwtSecret, 0, "whsec_public_url")
			cfg.MailDir = mailDir
			if tc.publicURL != "" {
				cfg.DefaultPublicURL(tc.publicURL) // as functions/devserver does
			}
			h, err := devstack.Handler(st, cfg, "")
			if err != nil {
				t.Fatal(err)
			}
			uid, token := apitest.User(t, st, auth.NewTokens(jwtSecret, time.Hour), "forwarded")
			forged := map[string]string{"Host": tc.host, "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}

			prompts, _ := seeddata.Prompts()
			w := apitest.Do(h, "POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"`+prompts[0].ID+`"}`, forged)
			co := apitest.Decode[struct {
				SessionID string `json:"session_id"`
			}](t, w, 200)
			ls, err := st.GetLocalSession(ctx, co.SessionID)
			storetest.Must(t, err, "local session")
			if want := tc.want + "/payment/success?session_id={CHECKOUT_SESSION_ID}"; ls.SuccessURL != want {
				t.Errorf("success URL = %q, want %q", ls.SuccessURL, want)
			}
			if want := tc.want + "/payment/cancel"; ls.CancelURL != want {
				t.Errorf("cancel URL = %q, want %q", ls.CancelURL, want)
			}

			body, _ := json.Marshal(map[string]string{"email": uid + "@example.com"})
			apitest.Decode[map[string]string](t, apitest.Do(h, "POST", "/api/v1/auth/forgot-password", "", string(body), forged), 200)
			mails, _ := filepath.Glob(filepath.Join(mailDir, "*.eml"))
			if len(mails) != 1 {
				t.Fatalf("mails = %v, want the reset mail", mails)
			}
			raw, _ := os.ReadFile(mails[0])
			if !strings.Contains(string(raw), tc.want+"/reset-password?token=") || strings.Contains(string(raw), "evil.example") {
				t.Errorf("reset mail %q, want a link on %s", raw, tc.want)
			}
		})
	}
}
