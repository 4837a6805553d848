package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) {
	// The package's own (internal) tests cannot import storetest, which
	// imports store; they reach the same dynalite through this hook.
	store.NewStoreForInternalTests = func(t testing.TB) *store.Store { return storetest.New(t) }
	os.Exit(storetest.Main(m))
}

var ctx = context.Background()

func newUser(id, email, username string) domain.User {
	return domain.User{
		ID: id, Email: email, Username: username, FullName: "Full " + username,
		PasswordHash: "hash-" + id, CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

func mustCreate(t *testing.T, st *store.Store, u domain.User) {
	t.Helper()
	storetest.Must(t, st.CreateUser(ctx, u), "create user "+u.ID)
}

func TestCreateUserAndFindByEmail(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	want := newUser("u1", "ada@example.com", "ada")
	want.IsSuperuser = true
	mustCreate(t, st, want)

	for _, email := range []string{"ada@example.com", "ADA@Example.COM", "Ada@example.com"} {
		got, err := st.UserByEmail(ctx, email)
		if err != nil {
			t.Fatalf("UserByEmail(%q): %v", email, err)
		}
		if got.ID != want.ID || got.Email != want.Email || got.Username != want.Username ||
			got.FullName != want.FullName || got.PasswordHash != want.PasswordHash ||
			got.IsSuperuser != want.IsSuperuser || !got.CreatedAt.Equal(want.CreatedAt) {
			t.Errorf("UserByEmail(%q) = %+v, want %+v", email, got, want)
		}
	}
	got, err := st.GetUser(ctx, "u1")
	if err != nil || got.Email != want.Email {
		t.Errorf("GetUser(u1) = %+v, %v; want %s", got, err, want.Email)
	}
	if _, err := st.UserByEmail(ctx, "nobody@example.com"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UserByEmail(unknown) error = %v, want ErrNotFound", err)
	}
	if _, err := st.GetUser(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetUser(unknown) error = %v, want ErrNotFound", err)
	}
}

func TestCreateUserUniqueness(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		second  domain.User
		wantErr error
	}{
		{"same email", newUser("u2", "ada@example.com", "other"), store.ErrEmailTaken},
		{"email in another case", newUser("u2", "ADA@EXAMPLE.com", "other"), store.ErrEmailTaken},
		{"same username", newUser("u2", "bob@example.com", "ada"), store.ErrUsernameTaken},
		{"username in another case", newUser("u2", "bob@example.com", "AdA"), store.ErrUsernameTaken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st := storetest.New(t)
			mustCreate(t, st, newUser("u1", "ada@example.com", "ada"))
			if err := st.CreateUser(ctx, tt.second); !errors.Is(err, tt.wantErr) {
				t.Fatalf("second CreateUser error = %v, want %v", err, tt.wantErr)
			}
			// The failed attempt leaves no profile behind, and the first account is intact.
			if _, err := st.GetUser(ctx, tt.second.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("GetUser(%s) after failed create: error = %v, want ErrNotFound", tt.second.ID, err)
			}
			got, err := st.UserByEmail(ctx, "ada@example.com")
			if err != nil || got.ID != "u1" {
				t.Errorf("UserByEmail(first) = %q, %v; want u1", got.ID, err)
			}
		})
	}
}

func TestFailedUsernameDoesNotReserveEmail(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("u1", "ada@example.com", "ada"))
	if err := st.CreateUser(ctx, newUser("u2", "bob@example.com", "ADA")); !errors.Is(err, store.ErrUsernameTaken) {
		t.Fatalf("CreateUser with taken username: error = %v, want ErrUsernameTaken", err)
	}
	if _, err := st.UserByEmail(ctx, "bob@example.com"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UserByEmail(bob) after failed create: error = %v, want ErrNotFound", err)
	}
	// The email of the failed attempt is free right away.
	mustCreate(t, st, newUser("u3", "Bob@Example.com", "bob"))
	got, err := st.UserByEmail(ctx, "bob@example.com")
	if err != nil || got.ID != "u3" {
		t.Errorf("UserByEmail(bob) = %q, %v; want u3", got.ID, err)
	}
}

func TestConcurrentCreateUserOneEmail(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	const n = 30
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = st.CreateUser(ctx, newUser(fmt.Sprintf("u%02d", i), "race@example.com", fmt.Sprintf("racer%02d", i)))
		}()
	}
	close(start)
	wg.Wait()

	winner := ""
	for i, err := range errs {
		switch {
		case err == nil:
			if winner != "" {
				t.Errorf("both %s and u%02d were created with one email", winner, i)
			}
			winner = fmt.Sprintf("u%02d", i)
		case !errors.Is(err, store.ErrEmailTaken):
			t.Errorf("u%02d: error = %v, want nil or ErrEmailTaken", i, err)
		}
	}
	if winner == "" {
		t.Fatal("no registration succeeded")
	}
	got, err := st.UserByEmail(ctx, "RACE@example.com")
	if err != nil || got.ID != winner {
		t.Errorf("UserByEmail = %q, %v; want the winner %s", got.ID, err, winner)
	}
	for i := range n {
		id := fmt.Sprintf("u%02d", i)
		if id == winner {
			continue
		}
		if _, err := st.GetUser(ctx, id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("loser %s left a profile behind (error %v)", id, err)
		}
	}
}

func TestLinkGoogle(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("u1", "ada@example.com", "ada"))
	mustCreate(t, st, newUser("u2", "bob@example.com", "bob"))

	if _, err := st.UserByGoogleSub(ctx, "sub-1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("UserByGoogleSub before linking: error = %v, want ErrNotFound", err)
	}
	storetest.Must(t, st.LinkGoogle(ctx, "sub-1", "u1"), "link")
	got, err := st.UserByGoogleSub(ctx, "sub-1")
	if err != nil || got.ID != "u1" || got.GoogleSub != "sub-1" {
		t.Fatalf("UserByGoogleSub = %+v, %v; want u1 with GoogleSub sub-1", got, err)
	}
	if err := st.LinkGoogle(ctx, "sub-1", "u1"); err != nil {
		t.Errorf("relinking the same pair: %v, want nil", err)
	}
	if err := st.LinkGoogle(ctx, "sub-1", "u2"); err == nil {
		t.Error("linking a linked subject to another account succeeded")
	}
	got, err = st.UserByGoogleSub(ctx, "sub-1")
	if err != nil || got.ID != "u1" {
		t.Errorf("after refused relink UserByGoogleSub = %q, %v; want u1", got.ID, err)
	}
	if u2, _ := st.GetUser(ctx, "u2"); u2.GoogleSub != "" {
		t.Errorf("u2.GoogleSub = %q after a refused link, want empty", u2.GoogleSub)
	}
}

func TestActivities(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	base := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	// Written in shuffled order: the listing sorts by time, not by write order.
	const n = 60
	for k := range n {
		i := (k * 7) % n // a permutation of 0..59
		amount := float64(i)
		storetest.Must(t, st.AddActivity(ctx, "u1", domain.Activity{
			ID: fmt.Sprintf("a%02d", i), Type: domain.ActivityPurchase, Title: fmt.Sprintf("t%02d", i),
			Description: "d", CreatedAt: base.Add(time.Duration(i) * time.Second), Amount: &amount, PromptTitle: "p",
		}), "add activity")
	}
	storetest.Must(t, st.AddActivity(ctx, "u2", domain.Activity{ID: "other", Type: domain.ActivityLogin, CreatedAt: base}), "add other")

	got, err := st.Activities(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != store.MaxActivities || store.MaxActivities != 50 {
		t.Fatalf("len = %d (MaxActivities %d), want 50", len(got), store.MaxActivities)
	}
	for k, a := range got {
		i := n - 1 - k
		wantID := fmt.Sprintf("a%02d", i)
		if a.ID != wantID || !a.CreatedAt.Equal(base.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("activity %d = %s at %v, want %s (newest first)", k, a.ID, a.CreatedAt, wantID)
		}
		if a.Type != domain.ActivityPurchase || a.Title != fmt.Sprintf("t%02d", i) || a.Amount == nil || *a.Amount != float64(i) || a.PromptTitle != "p" {
			t.Fatalf("activity %d = %+v: fields not kept", k, a)
		}
	}
	other, err := st.Activities(ctx, "u2")
	if err != nil || len(other) != 1 || other[0].ID != "other" {
		t.Errorf("u2 activities = %+v, %v; want only its own", other, err)
	}
	none, err := st.Activities(ctx, "u3")
	if err != nil || len(none) != 0 {
		t.Errorf("u3 activities = %+v, %v; want none", none, err)
	}
}

func TestAddActivityIdempotent(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	at := time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC)
	a := domain.Activity{ID: "order-1", Type: domain.ActivityPurchase, Title: "Bought", CreatedAt: at}
	storetest.Must(t, st.AddActivity(ctx, "u1", a), "first add")
	a.Title = "Bought again"
	storetest.Must(t, st.AddActivity(ctx, "u1", a), "replayed add")

	got, err := st.Activities(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Title != "Bought" || !got[0].CreatedAt.Equal(at) {
		t.Errorf("activities = %+v, want the first write only", got)
	}
}

func TestRecordFailureCounts(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	const length = 15 * time.Minute

	w, err := st.FailureWindow(ctx, "email", "ada@example.com", length, now)
	if err != nil || w.Count != 0 {
		t.Fatalf("empty FailureWindow = %+v, %v; want count 0", w, err)
	}
	for i := 1; i <= 3; i++ {
		at := now.Add(time.Duration(i) * time.Minute)
		w, err := st.RecordFailure(ctx, "email", "ada@example.com", length, at)
		if err != nil {
			t.Fatal(err)
		}
		if w.Count != i || !w.Start.Equal(now.Add(time.Minute)) {
			t.Errorf("RecordFailure #%d = %+v, want count %d from %v", i, w, i, now.Add(time.Minute))
		}
	}
	// Keys are case-insensitive; scopes are separate.
	w, err = st.FailureWindow(ctx, "email", "ADA@example.com", length, now.Add(5*time.Minute))
	if err != nil || w.Count != 3 {
		t.Errorf("FailureWindow = %+v, %v; want count 3", w, err)
	}
	if got := w.Ends(length); !got.Equal(now.Add(16 * time.Minute)) {
		t.Errorf("Ends = %v, want %v", got, now.Add(16*time.Minute))
	}
	if w, _ := st.FailureWindow(ctx, "remote", "ada@example.com", length, now.Add(5*time.Minute)); w.Count != 0 {
		t.Errorf("other scope count = %d, want 0", w.Count)
	}

	storetest.Must(t, st.ClearFailures(ctx, "email", "Ada@Example.com"), "clear")
	if w, _ := st.FailureWindow(ctx, "email", "ada@example.com", length, now.Add(5*time.Minute)); w.Count != 0 {
		t.Errorf("after ClearFailures count = %d, want 0", w.Count)
	}
	w, err = st.RecordFailure(ctx, "email", "ada@example.com", length, now.Add(6*time.Minute))
	if err != nil || w.Count != 1 {
		t.Errorf("RecordFailure after clear = %+v, %v; want count 1", w, err)
	}
}

func TestRecordFailureWindowExpires(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	const length = 15 * time.Minute
	for range 4 {
		if _, err := st.RecordFailure(ctx, "email", "k", length, start); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		at   time.Time
		want int
	}{
		{"just before the end", start.Add(length - time.Millisecond), 4},
		{"at the end", start.Add(length), 0},
		{"long after", start.Add(3 * length), 0},
	}
	for _, tt := range tests {
		w, err := st.FailureWindow(ctx, "email", "k", length, tt.at)
		if err != nil || w.Count != tt.want {
			t.Errorf("%s: FailureWindow = %+v, %v; want count %d", tt.name, w, err, tt.want)
		}
	}
	later := start.Add(length + time.Second)
	w, err := st.RecordFailure(ctx, "email", "k", length, later)
	if err != nil || w.Count != 1 || !w.Start.Equal(later) {
		t.Fatalf("RecordFailure after the window = %+v, %v; want a new window at 1 from %v", w, err, later)
	}
	w, err = st.RecordFailure(ctx, "email", "k", length, later.Add(time.Second))
	if err != nil || w.Count != 2 || !w.Start.Equal(later) {
		t.Errorf("next RecordFailure = %+v, %v; want count 2 in the new window", w, err)
	}
	if w, _ := st.FailureWindow(ctx, "email", "k", length, later.Add(time.Minute)); w.Count != 2 {
		t.Errorf("FailureWindow in the new window = %d, want 2", w.Count)
	}
}

func TestRecordFailureConcurrent(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	now := time.Now()
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := st.RecordFailure(ctx, "remote", "192.0.2.1", time.Minute, now)
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("RecordFailure: %v", err)
		}
	}
	w, err := st.FailureWindow(ctx, "remote", "192.0.2.1", time.Minute, now)
	if err != nil || w.Count != n {
		t.Errorf("FailureWindow after %d concurrent failures = %+v, %v; want count %d", n, w, err, n)
	}
}

func TestOAuthState(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	storetest.Must(t, st.SaveOAuthState(ctx, "n1", "verifier-1", now.Add(10*time.Minute)), "save n1")
	storetest.Must(t, st.SaveOAuthState(ctx, "n2", "verifier-2", now.Add(time.Minute)), "save n2")

	got, err := st.TakeOAuthState(ctx, "n1", now.Add(time.Minute))
	if err != nil || got != "verifier-1" {
		t.Fatalf("first TakeOAuthState = %q, %v; want verifier-1", got, err)
	}
	tests := []struct {
		name  string
		nonce string
		at    time.Time
	}{
		{"second take", "n1", now.Add(time.Minute)},
		{"expired", "n2", now.Add(2 * time.Minute)},
		{"expired, taken again", "n2", now},
		{"unknown", "nope", now},
	}
	for _, tt := range tests {
		if v, err := st.TakeOAuthState(ctx, tt.nonce, tt.at); !errors.Is(err, store.ErrNotFound) || v != "" {
			t.Errorf("%s: TakeOAuthState = %q, %v; want ErrNotFound", tt.name, v, err)
		}
	}
	if err := st.SaveOAuthState(ctx, "n3", "v", now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveOAuthState(ctx, "n3", "other", now.Add(time.Minute)); err == nil {
		t.Error("saving a nonce twice succeeded; a state must not be overwritten")
	}
	if v, err := st.TakeOAuthState(ctx, "n3", now); err != nil || v != "v" {
		t.Errorf("TakeOAuthState(n3) = %q, %v; want the first verifier", v, err)
	}
}

func TestCategories(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	for _, c := range []domain.Category{
		{ID: "writing", Name: "Writing"},
		{ID: "business", Name: "Business"},
		{ID: "writing", Name: "Writing"},
	} {
		storetest.Must(t, st.PutCategory(ctx, c), "put "+c.ID)
	}
	got, err := st.Categories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Category{{ID: "business", Name: "Business"}, {ID: "writing", Name: "Writing"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Categories = %v, want %v", got, want)
	}
}

func TestEnsureTableExisting(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, st.PutCategory(ctx, domain.Category{ID: "c", Name: "C"}), "put")
	for i := range 2 {
		if err := st.EnsureTable(ctx); err != nil {
			t.Fatalf("EnsureTable on existing table (#%d): %v", i+1, err)
		}
	}
	got, err := st.Categories(ctx)
	if err != nil || len(got) != 1 {
		t.Errorf("Categories after EnsureTable = %v, %v; want the data kept", got, err)
	}
}
