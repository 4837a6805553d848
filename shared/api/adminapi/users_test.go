package adminapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

// act runs an action on uid as token and answers the response.
func (s *stack) act(token, uid, action string) *httpResponse {
	s.T.Helper()
	w := s.Do("POST", admin+"users/"+uid+"/"+action, token, "")
	return &httpResponse{Code: w.Code, Body: w.Body.Bytes()}
}

type httpResponse struct {
	Code int
	Body []byte
}

// user decodes a 200 answer of an action.
func (r *httpResponse) user(t *testing.T) userJSON {
	t.Helper()
	var u userJSON
	if r.Code != http.StatusOK || json.Unmarshal(r.Body, &u) != nil {
		t.Fatalf("action answered %d %s, want 200 and the account", r.Code, r.Body)
	}
	return u
}

// conflict decodes a 409 answer of an action.
func (r *httpResponse) conflict(t *testing.T) conflictJSON[userJSON] {
	t.Helper()
	var c conflictJSON[userJSON]
	if r.Code != http.StatusConflict || json.Unmarshal(r.Body, &c) != nil || c.Code != "conflict" {
		t.Fatalf("action answered %d %s, want 409 conflict", r.Code, r.Body)
	}
	return c
}

// The listing: newest first, search on the start of the email or the
// username in any case (a whole one too), pages, and what is shown beside
// each account.
func TestAdminUserListing(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t, seeded)
	_, boss := s.admin("boss")
	ctx := context.Background()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, name := range []string{"Alice", "alfred", "Bruno"} {
		storetest.Must(t, s.St.CreateUser(ctx, domain.User{ID: "u-" + strings.ToLower(name), Email: strings.ToLower(name) + "@shop.example",
			Username: name, FullName: name + " Example", IsVerified: i != 1, CreatedAt: base.Add(time.Duration(i) * time.Hour)}), "user")
	}
	search := func(q string) (string, int) {
		t.Helper()
		l := decode[pageJSON[userJSON]](t, s.Do("GET", admin+"users?q="+q, boss, ""), http.StatusOK)
		out := []string{}
		for _, u := range l.Items {
			out = append(out, u.ID)
		}
		return strings.Join(out, " "), l.Total
	}
	for q, want := range map[string]string{
		"al": "u-alfred u-alice", "ALI": "u-alice", "alice@shop.example": "u-alice", "bruno": "u-bruno",
		"BRUNO%40": "u-bruno", "shop": "", "lice": "",
	} {
		if got, total := search(q); got != want || total != len(strings.Fields(want)) {
			t.Errorf("q=%s: [%s] (total %d), want [%s]", q, got, total, want)
		}
	}
	all := decode[pageJSON[userJSON]](t, s.Do("GET", admin+"users", boss, ""), http.StatusOK)
	if all.Total != 4 || all.Items[0].ID != decode[userJSON](t, s.Do("GET", "/api/v1/auth/me", boss, ""), http.StatusOK).ID {
		t.Errorf("all accounts, newest (the admin) first: %+v", all)
	}
	first := decode[pageJSON[userJSON]](t, s.Do("GET", admin+"users?limit=3", boss, ""), http.StatusOK)
	last := decode[pageJSON[userJSON]](t, s.Do("GET", admin+"users?limit=3&cursor="+first.NextCursor, boss, ""), http.StatusOK)
	if len(first.Items) != 3 || len(last.Items) != 1 || last.NextCursor != "" || last.Items[0].ID != "u-alice" {
		t.Errorf("pages %d + %d, last %+v", len(first.Items), len(last.Items), last.Items)
	}

	// What an account shows: a purchase, a connection, today's chat tokens.
	_, buyer := s.User("buyer")
	s.buy(buyer, "seeded")
	me := decode[userJSON](t, s.Do("GET", "/api/v1/auth/me", buyer, ""), http.StatusOK)
	storetest.Must(t, s.St.PutMCPConnection(ctx, me.ID, domain.MCPConnection{ID: "c1", ServerID: "srv"}), "connection")
	storetest.Must(t, s.St.RecordChatUsage(ctx, me.ID, time.Now(), domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 100, OutputTokens: 23}), "usage")
	got := decode[userJSON](t, s.Do("GET", admin+"users/"+me.ID, boss, ""), http.StatusOK)
	if got.Purchases != 1 || got.Connections != 1 || got.ChatTokensToday != 123 || !got.IsVerified || got.IsSuperuser || got.Disabled ||
		got.LockedUntil != "" || got.Email != me.Email || got.CreatedAt == "" || got.FullName != "buyer" {
		t.Errorf("account %+v", got)
	}

	apitest.WantError(t, s.Do("GET", admin+"users/nobody", boss, ""), http.StatusNotFound, "User not found.")
	apitest.WantErrorContaining(t, s.Do("GET", admin+"users?limit=101", boss, ""), http.StatusBadRequest, "limit must be")
	apitest.WantErrorContaining(t, s.Do("GET", admin+"users?cursor=eyJhIjoiYiJ9", boss, ""), http.StatusBadRequest, "cursor is not one this API gave")
}

// Unlock: an email the sign-in throttle closed to every source (the
// account's ceiling, reached from many) shows locked_until; Unlock clears it
// (audit: locked → not) and the owner signs in at once.
func TestUnlockClearsTheSignInThrottle(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t)
	_, boss := s.admin("boss")
	uid, email := s.passwordUser("locked", "right-pass-1", true)
	// The ceiling's failures, as many sources would leave them.
	for range auth.LoginLimitPerEmail {
		_, _, err := s.St.Admit(t.Context(), auth.LoginThrottleScope, email, auth.LoginLimitPerEmail, auth.LoginWindow, time.Now())
		storetest.Must(t, err, "count a failure")
	}
	apitest.WantErrorContaining(t, s.login(email, "right-pass-1"), http.StatusTooManyRequests, "Too many login attempts")
	locked := decode[userJSON](t, s.Do("GET", admin+"users/"+uid, boss, ""), http.StatusOK)
	until, err := time.Parse(time.RFC3339, locked.LockedUntil)
	if err != nil || until.Before(time.Now()) {
		t.Fatalf("locked_until %q, want a time to come", locked.LockedUntil)
	}

	if u := s.act(boss, uid, "unlock").user(t); u.LockedUntil != "" {
		t.Errorf("after unlock: %+v", u)
	}
	if w := s.login(email, "right-pass-1"); w.Code != http.StatusOK {
		t.Fatalf("sign-in after unlock: %d %s", w.Code, w.Body)
	}
	lines := s.auditOf(boss, uid)
	if len(lines) != 1 || lines[0].Action != "user.unlock" || field(t, lines[0].Before, "locked_until") != locked.LockedUntil ||
		field(t, lines[0].After, "locked_until") != nil {
		t.Errorf("audit %+v", lines)
	}
}

// End sessions: every token of the account stops working at once; audit
// sessions n → 0.
func TestEndSessions(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t)
	_, boss := s.admin("boss")
	uid, token := s.User("user")
	other := apitest.Session(t, s.St, s.Tokens, uid)
	for _, tok := range []string{token, other} {
		if w := s.Do("GET", "/api/v1/auth/me", tok, ""); w.Code != http.StatusOK {
			t.Fatalf("before: %d", w.Code)
		}
	}
	s.act(boss, uid, "end-sessions").user(t)
	for _, tok := range []string{token, other} {
		apitest.WantError(t, s.Do("GET", "/api/v1/auth/me", tok, ""), http.StatusUnauthorized, "")
		apitest.WantError(t, s.Do("GET", "/api/v1/users/activities", tok, ""), http.StatusUnauthorized, "")
	}
	lines := s.auditOf(boss, uid)
	if len(lines) != 1 || lines[0].Action != "user.end_sessions" || field(t, lines[0].Before, "sessions") != 2.0 || field(t, lines[0].After, "sessions") != 0.0 {
		t.Errorf("audit %+v", lines)
	}
}

// Grant and revoke: the right takes effect at once (the admin area opens,
// then refuses); never to an unconfirmed address; never the last admin;
// each change audited, a change that changes nothing not.
func TestGrantAndRevokeAdmin(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t)
	bossID, boss := s.admin("boss")
	uid, token := s.User("helper")
	unconfirmed, _ := s.passwordUser("fresh", "pass-word-1", false)

	apitest.WantError(t, s.Do("GET", admin+"orders", token, ""), http.StatusForbidden, "Admin access required.")
	if u := s.act(boss, uid, "grant-admin").user(t); !u.IsSuperuser {
		t.Fatalf("granted %+v", u)
	}
	if w := s.Do("GET", admin+"orders", token, ""); w.Code != http.StatusOK {
		t.Fatalf("the new admin lists orders: %d %s", w.Code, w.Body)
	}
	s.act(boss, uid, "grant-admin").user(t) // already: nothing to do
	c := s.act(boss, unconfirmed, "grant-admin").conflict(t)
	if !strings.Contains(c.Detail, "not confirmed") || c.Current.IsSuperuser {
		t.Errorf("grant to an unconfirmed address: %+v", c)
	}

	// The helper revokes the boss; then the helper is the last admin.
	if u := s.act(token, bossID, "revoke-admin").user(t); u.IsSuperuser {
		t.Fatalf("revoked %+v", u)
	}
	apitest.WantError(t, s.Do("GET", admin+"users", boss, ""), http.StatusForbidden, "Admin access required.")
	c = s.act(token, uid, "revoke-admin").conflict(t)
	if !strings.Contains(c.Detail, "last admin") || !c.Current.IsSuperuser {
		t.Errorf("revoking the last admin: %+v", c)
	}
	// With a second admin, the helper may step down.
	s.act(token, bossID, "grant-admin").user(t)
	if u := s.act(token, uid, "revoke-admin").user(t); u.IsSuperuser {
		t.Errorf("stepped down %+v", u)
	}
	apitest.WantError(t, s.Do("GET", admin+"users", token, ""), http.StatusForbidden, "Admin access required.")

	got := actions(s.auditOf(boss, uid))
	if strings.Join(got, ",") != "user.revoke_admin,user.grant_admin" {
		t.Errorf("helper's audit %v", got)
	}
	lines := s.auditOf(boss, bossID)
	if strings.Join(actions(lines), ",") != "user.grant_admin,user.revoke_admin" ||
		field(t, lines[1].Before, "is_superuser") != true || field(t, lines[1].After, "is_superuser") != false {
		t.Errorf("boss's audit %+v", lines)
	}
	if lines := s.auditOf(boss, unconfirmed); len(lines) != 0 {
		t.Errorf("a refused grant left %v", actions(lines))
	}
}

// Two admins revoke each other at the same moment: one of them stays an
// admin (the site never ends without one).
func TestTwoAdminsRevokingEachOtherLeaveOne(t *testing.T) {
	t.Parallel()
	for round := range 3 {
		s, _ := newMailStack(t)
		aID, a := s.admin("ann")
		bID, b := s.admin("bob")
		codes := make([]int, 2)
		var wg sync.WaitGroup
		wg.Go(func() { codes[0] = s.act(a, bID, "revoke-admin").Code })
		wg.Go(func() { codes[1] = s.act(b, aID, "revoke-admin").Code })
		wg.Wait()
		admins := 0
		for _, id := range []string{aID, bID} {
			u, err := s.St.GetUser(context.Background(), id)
			storetest.Must(t, err, "user")
			if u.IsSuperuser {
				admins++
			}
		}
		if admins != 1 {
			t.Fatalf("round %d: answers %v, %d admins left; want 1", round, codes, admins)
		}
		if !(codes[0] == http.StatusOK && codes[1] == http.StatusForbidden) && !(codes[1] == http.StatusOK && codes[0] == http.StatusForbidden) {
			t.Errorf("round %d: answers %v, want one 200 and one 403", round, codes)
		}
	}
}

// Disable: sign-in refused with a clear message (after the password, so
// the refusal tells nothing to a guesser), every session ended; never
// yourself; enable lets the account in again. Each change audited.
func TestDisableAndEnable(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t)
	bossID, boss := s.admin("boss")
	uid, email := s.passwordUser("user", "pass-word-1", true)
	token := decode[struct {
		AccessToken string `json:"access_token"`
	}](t, s.login(email, "pass-word-1"), http.StatusOK).AccessToken

	if u := s.act(boss, uid, "disable").user(t); !u.Disabled {
		t.Fatalf("disabled %+v", u)
	}
	apitest.WantError(t, s.Do("GET", "/api/v1/auth/me", token, ""), http.StatusUnauthorized, "")
	e := apitest.WantErrorContaining(t, s.login(email, "pass-word-1"), http.StatusForbidden, "This account has been disabled")
	if e.Code != "account_disabled" {
		t.Errorf("code %q, want account_disabled", e.Code)
	}
	apitest.WantError(t, s.login(email, "wrong-word-1"), http.StatusUnauthorized, "")
	// Disabling again ends sessions again (one opened meanwhile, say).
	s.act(boss, uid, "disable").user(t)

	c := s.act(boss, bossID, "disable").conflict(t)
	if c.Detail != "You cannot disable your own account." {
		t.Errorf("disable yourself: %+v", c)
	}
	if u := s.act(boss, uid, "enable").user(t); u.Disabled {
		t.Fatalf("enabled %+v", u)
	}
	if w := s.login(email, "pass-word-1"); w.Code != http.StatusOK {
		t.Errorf("sign-in after enable: %d %s", w.Code, w.Body)
	}
	s.act(boss, uid, "enable").user(t) // enabled already: nothing to do

	lines := s.auditOf(boss, uid)
	if strings.Join(actions(lines), ",") != "user.enable,user.disable,user.disable" {
		t.Fatalf("audit %v", actions(lines))
	}
	first := lines[2]
	if field(t, first.Before, "disabled") != false || field(t, first.After, "disabled") != true ||
		field(t, first.Before, "sessions") != 1.0 || field(t, first.After, "sessions") != 0.0 {
		t.Errorf("disable line before %s after %s", first.Before, first.After)
	}
	if field(t, lines[0].Before, "disabled") != true || field(t, lines[0].After, "disabled") != false {
		t.Errorf("enable line before %s after %s", lines[0].Before, lines[0].After)
	}
	if lines := s.auditOf(boss, bossID); len(lines) != 0 {
		t.Errorf("the refused self-disable left %v", actions(lines))
	}
	// A disabled admin loses the admin area at once.
	helperID, helper := s.admin("helper")
	s.act(boss, helperID, "grant-admin").user(t)
	s.act(boss, helperID, "disable").user(t)
	apitest.WantError(t, s.Do("GET", admin+"orders", helper, ""), http.StatusUnauthorized, "")
}

// Resend confirmation: the mail the auth group sends, with a link to the
// site's address whose token confirms the account; refused (409) for a
// confirmed one; audited.
func TestResendConfirmation(t *testing.T) {
	t.Parallel()
	s, mailDir := newMailStack(t)
	_, boss := s.admin("boss")
	uid, email := s.passwordUser("fresh", "pass-word-1", false)

	after := s.act(boss, uid, "resend-confirmation").user(t)
	if after.IsVerified {
		t.Fatalf("answered %+v", after)
	}
	token, link := mailedToken(t, mailDir, "/verify-email")
	if !strings.HasPrefix(link, "https://shop.example/verify-email?token=") {
		t.Errorf("link %q, want the site's address", link)
	}
	if w := s.Do("POST", "/api/v1/auth/verify-email", "", `{"token":"`+token+`"}`); w.Code != http.StatusOK {
		t.Fatalf("the mailed link: %d %s", w.Code, w.Body)
	}
	c := s.act(boss, uid, "resend-confirmation").conflict(t)
	if !strings.Contains(c.Detail, "confirmed already") || !c.Current.IsVerified {
		t.Errorf("resend to a confirmed account: %+v", c)
	}
	lines := s.auditOf(boss, uid)
	if len(lines) != 1 || lines[0].Action != "user.resend_confirmation" || field(t, lines[0].After, "confirmation_sent_to") != email ||
		field(t, lines[0].Before, "confirmation_sent_to") != nil {
		t.Errorf("audit %+v", lines)
	}
}

// Resend confirmation to an address the mailer refuses (an account from
// before the stricter address rule): the admin is told mail cannot go
// there, not to try again later, and nothing is audited as sent.
func TestResendConfirmationToARefusedAddressSaysSo(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t)
	_, boss := s.admin("boss")
	storetest.Must(t, s.St.CreateUser(t.Context(), domain.User{ID: "old", Email: "ada@x.io.", Username: "old", FullName: "Old",
		CreatedAt: time.Now()}), "create user")

	w := s.Do("POST", admin+"users/old/resend-confirmation", boss, "")
	apitest.WantError(t, w, http.StatusBadRequest, "Mail cannot be sent to this address: the mail provider refuses it.")
	if lines := s.auditOf(boss, "old"); len(lines) != 0 {
		t.Errorf("a refused resend left %v", actions(lines))
	}
}

// Bad input on the actions: an unknown account is 404 for every action, an
// unknown action 404 naming the known ones.
func TestUserActionRefusals(t *testing.T) {
	t.Parallel()
	s, _ := newMailStack(t)
	_, boss := s.admin("boss")
	uid, _ := s.User("user")
	for _, action := range []string{"resend-confirmation", "unlock", "end-sessions", "grant-admin", "revoke-admin", "disable", "enable"} {
		apitest.WantError(t, s.Do("POST", admin+"users/nobody/"+action, boss, ""), http.StatusNotFound, "User not found.")
	}
	apitest.WantError(t, s.Do("POST", admin+"users/"+uid+"/promote", boss, ""), http.StatusNotFound,
		`Unknown action "promote": use resend-confirmation, unlock, end-sessions, grant-admin, revoke-admin, disable or enable.`)
	apitest.WantError(t, s.Do("GET", admin+"users/"+uid+"/disable", boss, ""), http.StatusMethodNotAllowed, "")
	if lines := s.auditOf(boss, uid); len(lines) != 0 {
		t.Errorf("refusals left %v", actions(lines))
	}
}
