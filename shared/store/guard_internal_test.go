package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"aiwork/shared/domain"
)

// NewStoreForInternalTests answers a store on a fresh table of the test
// binary's dynalite. store_test's TestMain sets it to storetest.New, which
// these in-package tests cannot import (storetest imports store).
var NewStoreForInternalTests func(testing.TB) *Store

func newInternalStore(t *testing.T) *Store {
	t.Helper()
	if NewStoreForInternalTests == nil {
		t.Fatal("NewStoreForInternalTests is not set: store_test's TestMain must set it")
	}
	return NewStoreForInternalTests(t)
}

// putGuard writes a guard as a registration that died half-way would leave it.
func putGuard(t *testing.T, s *Store, pk, uid string, age time.Duration) {
	t.Helper()
	g := guardItem{PK: pk, SK: skGuard, UserID: uid, CreatedAt: time.Now().UTC().Add(-age).Format(time.RFC3339Nano)}
	if err := s.put(context.Background(), g); err != nil {
		t.Fatalf("put guard %s: %v", pk, err)
	}
}

func guardOwner(t *testing.T, s *Store, pk string) string {
	t.Helper()
	var g guardItem
	if err := s.getItem(context.Background(), pk, skGuard, &g); err != nil {
		t.Fatalf("read guard %s: %v", pk, err)
	}
	return g.UserID
}

func TestOrphanGuardReclaim(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	old := orphanGuardAge + 5*time.Second
	young := orphanGuardAge / 2
	tests := []struct {
		name       string
		guardPK    string
		age        time.Duration
		liveOwner  bool // the guard's user profile exists
		wantErr    error
		wantWinner string // who holds the guard afterwards
	}{
		{"old orphan email guard is reclaimed", emailGuardPK("ada@example.com"), old, false, nil, "new"},
		{"old orphan username guard is reclaimed", usernameGuardPK("ada"), old, false, nil, "new"},
		{"young orphan email guard is kept", emailGuardPK("ada@example.com"), young, false, ErrEmailTaken, "ghost"},
		{"young orphan username guard is kept", usernameGuardPK("ada"), young, false, ErrUsernameTaken, "ghost"},
		{"old email guard of a live account is kept", emailGuardPK("ada@example.com"), old, true, ErrEmailTaken, "ghost"},
		{"old username guard of a live account is kept", usernameGuardPK("ada"), old, true, ErrUsernameTaken, "ghost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newInternalStore(t)
			if tt.liveOwner {
				// A real profile for the guard's owner, written directly so
				// that only this one guard exists.
				if err := s.put(ctx, userItem{PK: userPK("ghost"), SK: skProfile, ID: "ghost", Email: "ghost@example.com", Username: "ghost"}); err != nil {
					t.Fatal(err)
				}
			}
			putGuard(t, s, tt.guardPK, "ghost", tt.age)

			err := s.CreateUser(ctx, domain.User{ID: "new", Email: "Ada@Example.com", Username: "Ada", FullName: "Ada", CreatedAt: time.Now()})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("CreateUser error = %v, want %v", err, tt.wantErr)
			}
			if got := guardOwner(t, s, tt.guardPK); got != tt.wantWinner {
				t.Errorf("guard %s owner = %q, want %q", tt.guardPK, got, tt.wantWinner)
			}
			_, gerr := s.GetUser(ctx, "new")
			if tt.wantErr == nil {
				if gerr != nil {
					t.Errorf("GetUser(new) = %v, want the new profile", gerr)
				}
				u, err := s.UserByEmail(ctx, "ada@example.com")
				if err != nil || u.ID != "new" {
					t.Errorf("UserByEmail = %q, %v; want new", u.ID, err)
				}
			} else if !errors.Is(gerr, ErrNotFound) {
				t.Errorf("GetUser(new) after refused registration = %v, want ErrNotFound", gerr)
			}
		})
	}
}

func TestOrphanGoogleGuardReclaim(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newInternalStore(t)
	if err := s.CreateUser(ctx, domain.User{ID: "u1", Email: "ada@example.com", Username: "ada", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	putGuard(t, s, googleGuardPK("young"), "ghost", orphanGuardAge/2)
	putGuard(t, s, googleGuardPK("old"), "ghost", orphanGuardAge+time.Second)

	if err := s.LinkGoogle(ctx, "young", "u1"); err == nil {
		t.Error("LinkGoogle took over a young guard")
	}
	if err := s.LinkGoogle(ctx, "old", "u1"); err != nil {
		t.Fatalf("LinkGoogle over an old orphan guard: %v", err)
	}
	u, err := s.UserByGoogleSub(ctx, "old")
	if err != nil || u.ID != "u1" || u.GoogleSub != "old" {
		t.Errorf("UserByGoogleSub(old) = %+v, %v; want u1 linked", u, err)
	}
}
