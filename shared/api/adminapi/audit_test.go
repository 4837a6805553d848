package adminapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The audit log answers total, as every admin list does: the lines that
// match its filters, whatever page is asked for.
func TestAuditTotal(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, boss := s.admin("boss")
	_, ann := s.admin("ann")
	raw := s.Do("GET", admin+"audit", boss, "")
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw.Body.Bytes(), &keys); err != nil || string(keys["total"]) != "0" {
		t.Fatalf("an empty audit log: %s, want total 0", raw.Body)
	}
	for i := range 3 {
		decode[categoryJSON](t, s.Do("POST", admin+"categories", boss, fmt.Sprintf(`{"name":"Boss %d"}`, i)), http.StatusCreated)
	}
	mine := decode[categoryJSON](t, s.Do("POST", admin+"categories", ann, `{"name":"Ann's"}`), http.StatusCreated)
	decode[categoryJSON](t, s.Do("PATCH", admin+"categories/"+mine.ID, ann, `{"name":"Ann's own"}`), http.StatusOK)

	all := decode[pageJSON[auditJSON]](t, s.Do("GET", admin+"audit?limit=2", boss, ""), http.StatusOK)
	if len(all.Items) != 2 || all.Total != 5 || all.NextCursor == "" {
		t.Fatalf("first page of 2: %d items, total %d, next %q; want 2 of 5", len(all.Items), all.Total, all.NextCursor)
	}
	next := decode[pageJSON[auditJSON]](t, s.Do("GET", admin+"audit?limit=2&cursor="+url.QueryEscape(all.NextCursor), boss, ""), http.StatusOK)
	if next.Total != 5 {
		t.Errorf("second page: total %d, want 5", next.Total)
	}
	annEmail := all.Items[0].ActorEmail // Ann's rename is the newest line
	for _, tc := range []struct {
		query string
		want  int
	}{
		{"actor=" + url.QueryEscape(strings.ToUpper(annEmail)), 2},
		{"target=" + mine.ID, 2},
		{"target=nothing-of-that-name", 0},
	} {
		if got := decode[pageJSON[auditJSON]](t, s.Do("GET", admin+"audit?limit=1&"+tc.query, boss, ""), http.StatusOK); got.Total != tc.want {
			t.Errorf("%s: total %d, want %d", tc.query, got.Total, tc.want)
		}
	}
}
