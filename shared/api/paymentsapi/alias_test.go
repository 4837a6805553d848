package paymentsapi_test

import (
	"net/http"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// A checkout refused because free uses remain counts them as the
// free-usage status does: an alias nobody confirmed (victim+x@gmail.com,
// registered by anyone) hears its own count, not how many the address's
// owner spent; once confirmed, the mailbox's shared count.
func TestCheckoutTellsAnUnconfirmedAliasItsOwnFreeUses(t *testing.T) {
	t.Parallel()
	s := newStack(t, 3, fixture("a", 1.5), fixture("b", 2.5), fixture("c", 3.5))
	owner := s.account("hal", "hal@gmail.com", true)
	for _, pid := range []string{"a", "b"} {
		if w := s.Do("POST", "/api/v1/prompts/use-free-prompt/"+pid, owner, ""); w.Code != http.StatusOK {
			t.Fatalf("owner's free claim of %s: %d %s", pid, w.Code, w.Body)
		}
	}
	alias := s.account("alias", "hal+x@gmail.com", false)
	body := `{"prompt_id":"c"}`

	w := s.Do("POST", "/api/v1/payments/create-checkout-session", alias, body)
	apitest.WantError(t, w, http.StatusBadRequest, "You can still use this prompt for free (3 of 3 free prompts left).")

	_, err := s.St.MarkVerified(t.Context(), "alias", false)
	storetest.Must(t, err, "confirm")
	w = s.Do("POST", "/api/v1/payments/create-checkout-session", alias, body)
	apitest.WantError(t, w, http.StatusBadRequest, "You can still use this prompt for free (1 of 3 free prompts left).")
}

// account creates uid name on email, confirmed or not, and answers a
// session token of it.
func (s *stack) account(name, email string, confirmed bool) string {
	s.T.Helper()
	u := domain.User{ID: name, Email: email, Username: name, FullName: name, IsVerified: confirmed, CreatedAt: time.Now()}
	storetest.Must(s.T, s.St.CreateUser(s.T.Context(), u), "create user")
	return apitest.Session(s.T, s.St, s.Tokens, name)
}
