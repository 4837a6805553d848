package store_test

import (
	"errors"
	"testing"
	"time"

	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
	"aiwork/shared/testbed/faultproxy"
)

// A create whose first attempt reached the table but whose answer was lost
// (the attempt timed out; the SDK sent it again) finds its own item there.
// That is the create done, not "already exists": a registration on a slow
// table must not fail with an internal error after it succeeded.
func TestCreateWhoseAnswerWasLostCountsAsDone(t *testing.T) {
	st, proxy, _ := storetest.ViaFaultProxy(t, time.Second)

	proxy.Set(faultproxy.LoseAnswer)
	if err := st.CreateUser(ctx, newUser("u-lost", "lost@example.com", "lostanswer")); err != nil {
		t.Fatalf("create user whose first answer was lost: %v", err)
	}
	got, err := st.UserByEmail(ctx, "lost@example.com")
	if err != nil || got.ID != "u-lost" {
		t.Fatalf("the account after the lost answer: %+v, %v", got, err)
	}

	// Another account's item at the key is still "taken".
	if err := st.CreateUser(ctx, newUser("u-other", "lost@example.com", "otheruser")); !errors.Is(err, store.ErrEmailTaken) {
		t.Fatalf("a second account on the address: %v, want ErrEmailTaken", err)
	}
	proxy.Set(faultproxy.LoseAnswer)
	if err := st.CreateUser(ctx, newUser("u-third", "lost@example.com", "thirduser")); !errors.Is(err, store.ErrEmailTaken) {
		t.Fatalf("a second account on the address, its first answer lost: %v, want ErrEmailTaken", err)
	}
}
