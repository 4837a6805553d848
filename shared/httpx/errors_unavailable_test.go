package httpx_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"aiwork/shared/httpx"
)

type downErr struct{}

func (downErr) Error() string     { return "table down" }
func (downErr) Unavailable() bool { return true }

// An error that says the service cannot serve now, however deep in the
// chain, is a 503 with the busy message and a Retry-After; the cause is
// not shown.
func TestUnavailableIsA503(t *testing.T) {
	w := httptest.NewRecorder()
	httpx.WriteError(w, httptest.NewRequest("GET", "/x", nil), fmt.Errorf("login: %w", errors.Join(errors.New("other"), downErr{})))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "2" ||
		w.Body.String() != `{"detail":"The service is busy; try again in a moment.","code":"unavailable"}`+"\n" {
		t.Fatalf("%d %q %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if strings.Contains(w.Body.String(), "table down") {
		t.Error("the cause leaked")
	}
}
