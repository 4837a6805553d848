package promptsapi_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// An alias nobody confirmed (victim+x@gmail.com, registered by anyone)
// reads its free-use status as a fresh mailbox's: its own count only, not
// the address owner's. Once the alias is confirmed, its uses are the
// mailbox's, shared.
func TestAnUnconfirmedAliasSeesAFreshMailbox(t *testing.T) {
	t.Parallel()
	s := newStack(t, 5, fixture("a", "business", 9.99, 0), fixture("b", "writing", 2.99, 1), fixture("c", "writing", 2.99, 2))
	owner := s.account("hal", "hal@gmail.com")
	for _, pid := range []string{"a", "b"} {
		decode[useFreeJSON](t, s.Do("POST", "/api/v1/prompts/use-free-prompt/"+pid, owner, ""), http.StatusOK)
	}
	u := domain.User{ID: "alias", Email: "hal+x@gmail.com", Username: "alias", FullName: "alias", CreatedAt: time.Now()}
	storetest.Must(t, s.St.CreateUser(t.Context(), u), "create user")
	alias := apitest.Session(t, s.St, s.Tokens, "alias")

	got := decode[sharedStatus](t, s.Do("GET", "/api/v1/prompts/free-usage-status", alias, ""), http.StatusOK)
	if got.Used != 0 || got.Remaining != 5 || got.TotalAllowed != 5 || len(got.PromptIDs) != 0 || got.Shared == nil || *got.Shared {
		t.Errorf("unconfirmed alias: status %+v (shared %v), want 0 used of 5, not shared", got.freeStatus, got.Shared)
	}
	// Claiming needs the confirmed address, where the shared count applies.
	apitest.WantError(t, s.Do("POST", "/api/v1/prompts/use-free-prompt/c", alias, ""), http.StatusForbidden,
		"Please confirm your email address to use free prompts. We sent you a link; you can resend it from your dashboard.")

	_, err := s.St.MarkVerified(t.Context(), "alias", false)
	storetest.Must(t, err, "confirm")
	got = decode[sharedStatus](t, s.Do("GET", "/api/v1/prompts/free-usage-status", alias, ""), http.StatusOK)
	if got.Used != 2 || got.Remaining != 3 || len(got.PromptIDs) != 0 || got.Shared == nil || !*got.Shared {
		t.Errorf("confirmed alias: status %+v (shared %v), want 2 used of 5, shared", got.freeStatus, got.Shared)
	}
	// The owner's view is unchanged.
	mine := decode[sharedStatus](t, s.Do("GET", "/api/v1/prompts/free-usage-status", owner, ""), http.StatusOK)
	if mine.Used != 2 || !slices.Equal(mine.PromptIDs, []string{"a", "b"}) || mine.Shared == nil || *mine.Shared {
		t.Errorf("owner: status %+v (shared %v)", mine.freeStatus, mine.Shared)
	}
}
