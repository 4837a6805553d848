package authapi_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// Wrong passwords from one source lock that source out, not the account:
// five from an attacker's address, and the owner's right password from
// another address still signs in, while the attacker's address stays
// refused (the right password included).
func TestWrongPasswordsFromOneSourceDoNotLockTheOwnerOut(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	const attacker, owner = "198.51.100.66:4000", "203.0.113.5:5000"
	for i := range 5 {
		wantError(t, s.do(loginReq("ada@example.com", "guess-"+strconv.Itoa(i), attacker)), http.StatusUnauthorized, "unauthorized", "")
	}
	wantThrottled(t, s.do(loginReq("ada@example.com", "guess-5", attacker)), 15*time.Minute)

	decodeAs[tokenJSON](t, s.do(loginReq("ada@example.com", "s3cret!", owner)), http.StatusOK)
	// The owner's own typos have a budget of their own.
	wantError(t, s.do(loginReq("ada@example.com", "typo", owner)), http.StatusUnauthorized, "unauthorized", "")

	wantThrottled(t, s.do(loginReq("ada@example.com", "guess-6", attacker)), 15*time.Minute)
	wantThrottled(t, s.do(loginReq("ada@example.com", "s3cret!", attacker)), 15*time.Minute)
}

// The addresses of one IPv6 /64 (one subscriber's block) are one source:
// stepping to the next address of the block does not buy more guesses.
func TestAnIPv6BlockIsOneSource(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	for i := range 5 {
		remote := fmt.Sprintf("[2001:db8:1:2::%x]:4000", i+1)
		wantError(t, s.do(loginReq("ada@example.com", "guess", remote)), http.StatusUnauthorized, "unauthorized", "")
	}
	wantThrottled(t, s.do(loginReq("ada@example.com", "guess", "[2001:db8:1:2:ffff::9]:4000")), 15*time.Minute)
	decodeAs[tokenJSON](t, s.do(loginReq("ada@example.com", "s3cret!", "[2001:db8:1:3::1]:4000")), http.StatusOK)
}

// The account's ceiling: 100 wrong passwords within the window from any
// number of sources close the account to every source, the owner's right
// password from a fresh one included, until the window ends.
func TestTheAccountsCeilingHolds(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	var reqs []req
	for i := range 20 {
		for j := range 5 {
			reqs = append(reqs, loginReq("ada@example.com", fmt.Sprintf("guess-%d-%d", i, j), fmt.Sprintf("198.51.100.%d:4000", i+1)))
		}
	}
	if n := statusCounts(s.burst(reqs)); n[http.StatusUnauthorized] != 100 {
		t.Fatalf("statuses %v, want 100 × 401 (5 from each of 20 sources)", n)
	}
	wantThrottled(t, s.do(loginReq("ada@example.com", "s3cret!", "203.0.113.5:5000")), 15*time.Minute)
	wantThrottled(t, s.do(loginReq("ada@example.com", "guess", "203.0.113.6:5000")), 15*time.Minute)

	// Another account is not touched.
	s.register(registration{Email: "bob@example.com", Username: "bob", FullName: "Bob", Password: "s3cret!"})
	decodeAs[tokenJSON](t, s.do(loginReq("bob@example.com", "s3cret!", "203.0.113.5:5000")), http.StatusOK)
}

// A success is no failure: the owner signing in again and again never
// fills the account's ceiling. More sign-ins than the ceiling, ten at a
// time: at most ten are counted at once, until each is taken back.
func TestSuccessesDoNotFillTheCeiling(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	s.register(validRegistration())
	for wave := range 11 {
		reqs := make([]req, 10)
		for i := range reqs {
			reqs[i] = loginReq("ada@example.com", "s3cret!", fmt.Sprintf("198.51.%d.1:4000", wave*10+i))
		}
		if n := statusCounts(s.burst(reqs)); n[http.StatusOK] != len(reqs) {
			t.Fatalf("sign-ins %d to %d: statuses %v, want all 200", wave*10+1, wave*10+10, n)
		}
	}
}
