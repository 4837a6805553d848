package adminapi_test

import (
	"net/http"
	"testing"

	"aiwork/shared/api/adminapi"
	"aiwork/shared/api/apitest"
)

// Every admin route: 401 without a token, 403 for a user who is not an
// admin, and 403 at once for an admin whose right was revoked (the stored
// user decides, not the token).
func TestAdminRoutesAreForAdminsOnly(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, user := s.User("plain")
	revokedID, revoked := s.admin("revoked")
	_, boss := s.admin("boss")
	routes := [][2]string{
		{"GET", admin + "prompts"}, {"POST", admin + "prompts"}, {"PATCH", admin + "prompts/x"}, {"DELETE", admin + "prompts/x"},
		{"GET", admin + "categories"}, {"POST", admin + "categories"}, {"PATCH", admin + "categories/x"}, {"DELETE", admin + "categories/x"},
		{"GET", admin + "audit"},
		{"GET", admin + "orders"}, {"GET", admin + "orders/x"}, {"POST", admin + "orders/x/refund"},
		{"GET", admin + "users"}, {"GET", admin + "users/x"}, {"POST", admin + "users/x/unlock"}, {"POST", admin + "users/x/nope"},
	}
	if w := s.Do("GET", admin+"prompts", revoked, ""); w.Code != http.StatusOK {
		t.Fatalf("an admin lists prompts: %d %s", w.Code, w.Body)
	}
	s.setAdmin(revokedID, false)
	for _, r := range routes {
		apitest.WantError(t, s.Do(r[0], r[1], "", `{}`), http.StatusUnauthorized, "")
		apitest.WantError(t, s.Do(r[0], r[1], user, `{}`), http.StatusForbidden, adminapi.MsgForbidden)
		apitest.WantError(t, s.Do(r[0], r[1], revoked, `{}`), http.StatusForbidden, adminapi.MsgForbidden)
	}
	if w := s.Do("GET", admin+"audit", boss, ""); w.Code != http.StatusOK {
		t.Errorf("another admin still reads the audit log: %d", w.Code)
	}
}
