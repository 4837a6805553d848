package promptsapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// account creates a confirmed account with the given email and answers a
// token for it.
func (s *stack) account(name, email string) string {
	s.T.Helper()
	u := domain.User{ID: name, Email: email, Username: name, FullName: name, IsVerified: true, CreatedAt: time.Now()}
	storetest.Must(s.T, s.St.CreateUser(s.T.Context(), u), "create user")
	return apitest.Session(s.T, s.St, s.Tokens, name)
}

type sharedStatus struct {
	freeStatus
	Shared *bool `json:"shared_with_other_accounts"`
}

// An alias of an address whose free uses are spent gets none: it sees how
// many remain and that they are shared, and a claim says why it is refused.
func TestFreeUsesAreSharedByAnAddressesAccounts(t *testing.T) {
	t.Parallel()
	s := newStack(t, 2, fixture("a", "business", 9.99, 0), fixture("b", "writing", 2.99, 1), fixture("c", "writing", 2.99, 2))
	first := s.account("hal", "h.a.l@gmail.com")
	second := s.account("hal2", "hal+farm1@googlemail.com")
	for _, pid := range []string{"a", "b"} {
		decode[useFreeJSON](t, s.Do("POST", "/api/v1/prompts/use-free-prompt/"+pid, first, ""), http.StatusOK)
	}

	for _, tt := range []struct {
		token      string
		wantIDs    []string
		wantShared bool
	}{
		{first, []string{"a", "b"}, false},
		{second, []string{}, true},
	} {
		got := decode[sharedStatus](t, s.Do("GET", "/api/v1/prompts/free-usage-status", tt.token, ""), http.StatusOK)
		if got.Remaining != 0 || got.Used != 2 || got.TotalAllowed != 2 || !slices.Equal(got.PromptIDs, tt.wantIDs) ||
			got.Shared == nil || *got.Shared != tt.wantShared {
			t.Errorf("status = %+v (shared %v), want 0 of 2 left, ids %v, shared %v", got.freeStatus, got.Shared, tt.wantIDs, tt.wantShared)
		}
	}
	wantError(t, s.Do("POST", "/api/v1/prompts/use-free-prompt/c", second, ""), http.StatusForbidden,
		fmt.Sprintf("All %d free prompts of this email address are used: free uses are shared by all accounts on the same email address. Purchase this prompt to use it.", 2))
	// The first account's prompts stay its own.
	list := listed(t, s.Do("GET", "/api/v1/prompts/", second, ""))
	if len(list) != 3 {
		t.Fatalf("the alias's listing has %d prompts, want 3", len(list))
	}
	for _, p := range list {
		if p.Content != nil {
			t.Errorf("the alias's account reads %s", p.ID)
		}
	}
}
