package agentsapi_test

import (
	"net/http"
	"strings"
	"testing"
)

// Over-long ids, in the path or in a body, are unknown or bad input (404
// or 400), never an internal error.
func TestOverLongAgentIDs(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, ann := s.creator("ann", false)
	long := strings.Repeat("a", 3000)
	body := agentBody("Long", "x", 0)
	for _, r := range []struct{ method, path, token, body string }{
		{"GET", public + long, "", ""},
		{"GET", public + long, ann, ""},
		{"GET", public + long + "/export", ann, ""},
		{"POST", public + long + "/rate", ann, `{"rating":3}`},
		{"GET", studio + "/" + long, ann, ""},
		{"PATCH", studio + "/" + long, ann, `{"version":1,"name":"x"}`},
		{"DELETE", studio + "/" + long, ann, ""},
		{"POST", studio + "/" + long + "/submit", ann, ""},
		{"POST", studio, ann, strings.Replace(body, `"server_id":"ref"`, `"server_id":"`+long+`"`, 1)},
		{"POST", adminAPI + "reviews/a-" + long, s.Admin("root"), `{"decision":"approve"}`},
	} {
		w := s.Do(r.method, r.path, r.token, r.body)
		if w.Code != http.StatusNotFound && w.Code != http.StatusBadRequest {
			t.Errorf("%s %.60s… = %d %.200s", r.method, r.path, w.Code, w.Body.String())
		}
	}
}
