package creatorsapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
)

type urlJSON struct {
	URL string `json:"url"`
}

// A user who is not a creator yet cannot start onboarding: 409.
func TestOnboardingRefusesANonCreator(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, token := s.User("plain")
	w := s.Do("POST", me+"/onboarding", token, "")
	if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "not a creator yet") {
		t.Errorf("a non-creator's onboarding: %d %s; want 409", w.Code, w.Body.String())
	}
}

// Locally the stand-in completes onboarding at once: the answer sends the
// creator back to the dashboard and the profile's payouts are enabled; two
// requests at once make one account.
func TestOnboardingLocalEnablesPayouts(t *testing.T) {
	t.Setenv("STRIPE_SECRET_KEY", "")
	s := newStack(t)
	uid, token := s.creator("olga", false)
	if p := decode[profileJSON](t, s.Do("GET", me, token, ""), http.StatusOK); p.Payouts.Status != "none" {
		t.Fatalf("before onboarding: %+v; want none", p.Payouts)
	}
	var wg sync.WaitGroup
	urls := make([]string, 2)
	for i := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := s.Do("POST", me+"/onboarding", token, "")
			var got urlJSON
			if w.Code == http.StatusOK && json.Unmarshal(w.Body.Bytes(), &got) == nil {
				urls[i] = got.URL
			}
		}()
	}
	wg.Wait()
	for _, u := range urls {
		if !strings.HasSuffix(u, "/creator?payouts=done") {
			t.Errorf("onboarding url %q; want the creator studio", u)
		}
	}
	p := decode[profileJSON](t, s.Do("GET", me, token, ""), http.StatusOK)
	if p.Payouts.Status != "enabled" || !p.Payouts.ChargesEnabled || !p.Payouts.PayoutsEnabled {
		t.Errorf("after local onboarding: %+v; want enabled", p.Payouts)
	}
	if acct, err := s.St.CreatorStripeAccount(t.Context(), uid); err != nil || acct != "acct_local_"+uid {
		t.Errorf("stored account %q, %v", acct, err)
	}
}
