package promptsapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/local/devstack"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var secret = []byte(strings.Repeat("s", 32))

type stack struct{ *apitest.Stack }

// newStack is the whole API on a fresh table with the categories and the
// given prompts (none: the real seed catalogue).
func newStack(t *testing.T, freeLimit int, prompts ...domain.Prompt) *stack {
	t.Helper()
	st, storeCfg := storetest.NewWithConfig(t)
	if len(prompts) == 0 {
		storetest.Must(t, seeddata.Seed(context.Background(), st), "seed")
	} else {
		apitest.PutCatalogue(t, st, prompts...)
	}
	cfg := devstack.Config{
		Auth:    config.Auth{Base: config.Base{Store: storeCfg, JWTSecret: secret}, TokenTTL: time.Hour},
		Prompts: config.Prompts{Base: config.Base{Store: storeCfg, JWTSecret: secret}, FreePromptsPerUser: freeLimit},
	}
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	return &stack{&apitest.Stack{T: t, H: h, St: st, Tokens: auth.NewTokens(secret, time.Hour)}}
}

// buy records a purchase the way fulfilment does.
func (s *stack) buy(uid, pid string) {
	s.T.Helper()
	_, err := s.St.GrantOwnership(context.Background(), uid, domain.Ownership{PromptID: pid, Source: domain.SourcePurchase, OrderID: "order-" + pid, Amount: 9.99, CreatedAt: time.Now()})
	storetest.Must(s.T, err, "grant")
}

func decode[T any](t *testing.T, w *httptest.ResponseRecorder, wantStatus int) T {
	t.Helper()
	return apitest.Decode[T](t, w, wantStatus)
}

func wantError(t *testing.T, w *httptest.ResponseRecorder, status int, detail string) {
	t.Helper()
	apitest.WantError(t, w, status, detail)
}

type promptJSON struct {
	ID          string  `json:"id"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	Content     *string `json:"content"`
	Preview     string  `json:"preview"`
	Price       float64 `json:"price"`
	RatingAvg   float64 `json:"rating_avg"`
	RatingCount int     `json:"rating_count"`
	UserRating  *int    `json:"user_rating"`
	IsPurchased bool    `json:"is_purchased"`
	Category    struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"category"`
	CreatedAt            time.Time `json:"created_at"`
	PreviewTruncated     bool      `json:"preview_truncated"`
	DescriptionTruncated bool      `json:"description_truncated"`
}

// listJSON is one page of GET /api/v1/prompts/.
type listJSON struct {
	Items      []promptJSON `json:"items"`
	NextCursor *string      `json:"next_cursor"`
	Count      int          `json:"count"`
	CountExact bool         `json:"count_exact"`
}

// listed is the cards of a list page answered 200.
func listed(t *testing.T, w *httptest.ResponseRecorder) []promptJSON {
	t.Helper()
	return decode[listJSON](t, w, http.StatusOK).Items
}

type freeStatus struct {
	Remaining    int      `json:"remaining"`
	TotalAllowed int      `json:"total_allowed"`
	Used         int      `json:"used"`
	PromptIDs    []string `json:"prompt_ids"`
}

type useFreeJSON struct {
	Prompt         promptJSON `json:"prompt"`
	Status         freeStatus `json:"status"`
	AlreadyClaimed bool       `json:"already_claimed"`
}

func ids(ps []promptJSON) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

var base = time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)

// fixture is a prompt with predictable fields; content longer than a preview.
func fixture(id, cat string, price float64, dayOffset int) domain.Prompt {
	return domain.Prompt{
		ID: id, Title: "Title " + id, Description: "Description of " + id, CategoryID: cat, Price: price,
		CreatedAt: base.AddDate(0, 0, dayOffset),
		Content:   "Preview part of " + id + " " + strings.Repeat("x", 220) + " SECRET-TAIL-" + id,
	}
}
