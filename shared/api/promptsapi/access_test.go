package promptsapi_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"aiwork/shared/domain"
)

func TestFreeUseClaim(t *testing.T) {
	t.Parallel()
	s := newStack(t, 5, fixture("a", "business", 9.99, 0), fixture("b", "writing", 2.99, 1))
	uid, token := s.User("ann")

	wantError(t, s.Do("POST", "/api/v1/prompts/use-free-prompt/a", "", ""), http.StatusUnauthorized, "")
	wantError(t, s.Do("GET", "/api/v1/prompts/free-usage-status", "", ""), http.StatusUnauthorized, "")
	wantError(t, s.Do("POST", "/api/v1/prompts/use-free-prompt/nope", token, ""), http.StatusNotFound, "Prompt not found")

	st := decode[freeStatus](t, s.Do("GET", "/api/v1/prompts/free-usage-status", token, ""), http.StatusOK)
	if st.Remaining != 5 || st.TotalAllowed != 5 || st.Used != 0 || st.PromptIDs == nil || len(st.PromptIDs) != 0 {
		t.Errorf("initial status = %+v", st)
	}

	got := decode[useFreeJSON](t, s.Do("POST", "/api/v1/prompts/use-free-prompt/a", token, ""), http.StatusOK)
	if got.AlreadyClaimed || got.Prompt.Content == nil || !strings.Contains(*got.Prompt.Content, "SECRET-TAIL-a") {
		t.Errorf("claim answer = %+v", got)
	}
	if got.Status.Remaining != 4 || got.Status.Used != 1 || !slices.Equal(got.Status.PromptIDs, []string{"a"}) {
		t.Errorf("status after claim = %+v", got.Status)
	}
	if got.Prompt.IsPurchased {
		t.Error("a free claim is not a purchase")
	}

	// Claiming again succeeds and spends nothing.
	again := decode[useFreeJSON](t, s.Do("POST", "/api/v1/prompts/use-free-prompt/a", token, ""), http.StatusOK)
	if !again.AlreadyClaimed || again.Status.Remaining != 4 || again.Prompt.Content == nil {
		t.Errorf("second claim = %+v", again)
	}

	// The list now shows content for a only.
	list := listed(t, s.Do("GET", "/api/v1/prompts/", token, ""))
	for _, p := range list {
		if (p.Content != nil) != (p.ID == "a") {
			t.Errorf("%s content present = %v", p.ID, p.Content != nil)
		}
	}

	// One activity for the claim, however often it is repeated.
	acts, err := s.St.Activities(t.Context(), uid)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range acts {
		if a.Type == domain.ActivityFreePromptUsed && a.PromptTitle == "Title a" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d free_prompt_used activities, want 1", n)
	}

	// Another user sees none of it.
	_, other := s.User("bob")
	for _, p := range listed(t, s.Do("GET", "/api/v1/prompts/", other, "")) {
		if p.Content != nil {
			t.Errorf("another user sees content of %s", p.ID)
		}
	}
	if st := decode[freeStatus](t, s.Do("GET", "/api/v1/prompts/free-usage-status", other, ""), http.StatusOK); st.Used != 0 {
		t.Errorf("another user's status = %+v", st)
	}
}

// 50 concurrent claims by one user for 50 prompts grant exactly the quota.
func TestConcurrentClaimsNeverExceedQuota(t *testing.T) {
	t.Parallel()
	var prompts []domain.Prompt
	for i := range 50 {
		prompts = append(prompts, fixture(fmt.Sprintf("p%02d", i), "business", 4.99, i))
	}
	s := newStack(t, 5, prompts...)
	_, token := s.User("greedy")
	var wg sync.WaitGroup
	codes := make([]int, 50)
	for i := range 50 {
		wg.Go(func() {
			codes[i] = s.Do("POST", fmt.Sprintf("/api/v1/prompts/use-free-prompt/p%02d", i), token, "").Code
		})
	}
	wg.Wait()
	granted, refused := 0, 0
	for _, c := range codes {
		switch c {
		case http.StatusOK:
			granted++
		case http.StatusForbidden:
			refused++
		default:
			t.Errorf("unexpected status %d", c)
		}
	}
	if granted != 5 || refused != 45 {
		t.Errorf("granted %d, refused %d; want 5 and 45", granted, refused)
	}
	st := decode[freeStatus](t, s.Do("GET", "/api/v1/prompts/free-usage-status", token, ""), http.StatusOK)
	if st.Used != 5 || st.Remaining != 0 || len(st.PromptIDs) != 5 {
		t.Errorf("status = %+v", st)
	}
	w := s.Do("POST", "/api/v1/prompts/use-free-prompt/p49", token, "")
	if slices.Contains(st.PromptIDs, "p49") {
		w = s.Do("POST", "/api/v1/prompts/use-free-prompt/p00", token, "")
	}
	if w.Code == http.StatusForbidden {
		wantError(t, w, http.StatusForbidden, "You have used all 5 of your free prompts. Purchase this prompt to use it.")
	}
}

func TestConcurrentClaimsOfOnePromptSpendOne(t *testing.T) {
	t.Parallel()
	s := newStack(t, 5, fixture("a", "business", 9.99, 0))
	_, token := s.User("twice")
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if c := s.Do("POST", "/api/v1/prompts/use-free-prompt/a", token, "").Code; c != http.StatusOK {
				t.Errorf("status %d", c)
			}
		})
	}
	wg.Wait()
	if st := decode[freeStatus](t, s.Do("GET", "/api/v1/prompts/free-usage-status", token, ""), http.StatusOK); st.Used != 1 || st.Remaining != 4 {
		t.Errorf("status = %+v, want one use spent", st)
	}
}

func TestConfiguredQuotaAndPurchasedClaim(t *testing.T) {
	t.Parallel()
	s := newStack(t, 2, fixture("a", "business", 9.99, 0))
	uid, token := s.User("buyer")
	if st := decode[freeStatus](t, s.Do("GET", "/api/v1/prompts/free-usage-status", token, ""), http.StatusOK); st.TotalAllowed != 2 || st.Remaining != 2 {
		t.Errorf("status = %+v, want 2 allowed", st)
	}
	s.buy(uid, "a")
	got := decode[useFreeJSON](t, s.Do("POST", "/api/v1/prompts/use-free-prompt/a", token, ""), http.StatusOK)
	if got.Status.Used != 0 || got.Prompt.Content == nil || !got.Prompt.IsPurchased {
		t.Errorf("claiming a bought prompt = %+v, want content and nothing spent", got)
	}
}

func TestOwnedPrompts(t *testing.T) {
	t.Parallel()
	s := newStack(t, 5, fixture("a", "business", 9.99, 0), fixture("b", "writing", 2.99, 1))
	uid, token := s.User("owner")
	wantError(t, s.Do("GET", "/api/v1/payments/owned-prompts", "", ""), http.StatusUnauthorized, "")
	got := decode[map[string][]string](t, s.Do("GET", "/api/v1/payments/owned-prompts", token, ""), http.StatusOK)
	if ids, ok := got["owned_prompt_ids"]; !ok || ids == nil || len(ids) != 0 {
		t.Errorf("owned before buying = %v", got)
	}
	s.buy(uid, "b")
	got = decode[map[string][]string](t, s.Do("GET", "/api/v1/payments/owned-prompts", token, ""), http.StatusOK)
	if !slices.Equal(got["owned_prompt_ids"], []string{"b"}) {
		t.Errorf("owned = %v, want [b]", got)
	}
	for _, p := range listed(t, s.Do("GET", "/api/v1/prompts/", token, "")) {
		if p.IsPurchased != (p.ID == "b") || (p.Content != nil) != (p.ID == "b") {
			t.Errorf("%s: is_purchased=%v content=%v", p.ID, p.IsPurchased, p.Content != nil)
		}
	}
}

type rateJSON struct {
	RatingAvg   float64 `json:"rating_avg"`
	RatingCount int     `json:"rating_count"`
	UserRating  int     `json:"user_rating"`
}

func TestRating(t *testing.T) {
	t.Parallel()
	s := newStack(t, 5, fixture("a", "business", 9.99, 0), fixture("b", "writing", 2.99, 1))
	u1, t1 := s.User("one")
	u2, t2 := s.User("two")
	u3, t3 := s.User("three")
	_, freeOnly := s.User("free")
	s.buy(u1, "a")
	s.buy(u2, "a")
	s.buy(u3, "a")
	decode[useFreeJSON](t, s.Do("POST", "/api/v1/prompts/use-free-prompt/a", freeOnly, ""), http.StatusOK)

	wantError(t, s.Do("POST", "/api/v1/prompts/a/rate", "", `{"rating":5}`), http.StatusUnauthorized, "")
	wantError(t, s.Do("POST", "/api/v1/prompts/nope/rate", t1, `{"rating":5}`), http.StatusNotFound, "Prompt not found")
	wantError(t, s.Do("POST", "/api/v1/prompts/b/rate", t1, `{"rating":5}`), http.StatusForbidden, "You can only rate prompts you have purchased")
	wantError(t, s.Do("POST", "/api/v1/prompts/a/rate", freeOnly, `{"rating":5}`), http.StatusForbidden, "You can only rate prompts you have purchased")
	for _, bad := range []string{`{"rating":0}`, `{"rating":6}`, `{"rating":4.5}`, `{"rating":"5"}`, `{}`, `{"rating":null}`, `[5]`, `{"rating":`} {
		wantError(t, s.Do("POST", "/api/v1/prompts/a/rate", t1, bad), http.StatusBadRequest, "")
	}
	wantError(t, s.Do("POST", "/api/v1/prompts/a/nonsense", t1, `{"rating":5}`), http.StatusNotFound, "")

	steps := []struct {
		token  string
		rating int
		want   rateJSON
	}{
		{t1, 4, rateJSON{4, 1, 4}},
		{t1, 2, rateJSON{2, 1, 2}}, // a change replaces the old rating
		{t2, 5, rateJSON{3.5, 2, 5}},
		{t3, 5, rateJSON{4, 3, 5}},
		{t1, 4, rateJSON{4.7, 3, 4}}, // 14/3 = 4.666… → 4.7
	}
	for _, st := range steps {
		got := decode[rateJSON](t, s.Do("POST", "/api/v1/prompts/a/rate", st.token, fmt.Sprintf(`{"rating":%d}`, st.rating)), http.StatusOK)
		if got != st.want {
			t.Errorf("rate %d: got %+v, want %+v", st.rating, got, st.want)
		}
	}
	// Each caller reads their own rating back; visitors none.
	for token, want := range map[string]int{t1: 4, t2: 5, t3: 5} {
		p := decode[promptJSON](t, s.Do("GET", "/api/v1/prompts/a", token, ""), http.StatusOK)
		if p.UserRating == nil || *p.UserRating != want || p.RatingAvg != 4.7 || p.RatingCount != 3 {
			t.Errorf("GET as rater: user_rating=%v avg=%v count=%d, want %d 4.7 3", p.UserRating, p.RatingAvg, p.RatingCount, want)
		}
	}
	if p := decode[promptJSON](t, s.Do("GET", "/api/v1/prompts/a", "", ""), http.StatusOK); p.UserRating != nil {
		t.Errorf("visitor user_rating = %v", *p.UserRating)
	}
}

// Many buyers rating at once, some changing their minds concurrently: the
// aggregate equals the final ratings exactly.
func TestConcurrentRatingsAggregateExactly(t *testing.T) {
	t.Parallel()
	s := newStack(t, 5, fixture("a", "business", 9.99, 0))
	const raters = 40
	tokens := make([]string, raters)
	for i := range raters {
		uid, token := s.User(fmt.Sprintf("r%d", i))
		s.buy(uid, "a")
		tokens[i] = token
	}
	final := make([]int, raters)
	var wg sync.WaitGroup
	for i := range raters {
		wg.Go(func() {
			// Each rater sends 1–3 ratings in a row; the last one counts.
			for range 1 + rand.IntN(3) {
				r := 1 + rand.IntN(5)
				if c := s.Do("POST", "/api/v1/prompts/a/rate", tokens[i], fmt.Sprintf(`{"rating":%d}`, r)).Code; c != http.StatusOK {
					t.Errorf("rate status %d", c)
				}
				final[i] = r
			}
		})
	}
	// Meanwhile one rater races against themself.
	for range 10 {
		wg.Go(func() { s.Do("POST", "/api/v1/prompts/a/rate", tokens[0], `{"rating":3}`) })
	}
	wg.Wait()
	p := decode[promptJSON](t, s.Do("GET", "/api/v1/prompts/a", tokens[0], ""), http.StatusOK)
	final[0] = *p.UserRating // whichever of rater 0's writes landed last
	sum := 0
	for _, r := range final {
		sum += r
	}
	want := math.Round(float64(sum)/raters*10) / 10
	if p.RatingCount != raters || p.RatingAvg != want {
		t.Errorf("aggregate = %v over %d, want %v over %d", p.RatingAvg, p.RatingCount, want, raters)
	}
}
