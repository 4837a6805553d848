package agentsapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

type cardJSON struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Creator *struct {
		Username    string `json:"username"`
		DisplayName string `json:"display_name"`
	} `json:"creator"`
	Servers []struct {
		ServerID string `json:"server_id"`
		Name     string `json:"name"`
		Auth     string `json:"auth"`
	} `json:"servers"`
	Price  float64 `json:"price"`
	IsFree bool    `json:"is_free"`
}

type listJSON struct {
	Items      []cardJSON `json:"items"`
	NextCursor string     `json:"next_cursor"`
	Total      int        `json:"total"`
}

type detailJSON struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Servers []struct {
		ServerID     string   `json:"server_id"`
		Name         string   `json:"name"`
		Auth         string   `json:"auth"`
		Tools        []string `json:"tools"`
		ConnectionID *string  `json:"connection_id"`
	} `json:"servers"`
	Starters     []string `json:"starters"`
	IsFree       bool     `json:"is_free"`
	Owned        bool     `json:"owned"`
	Version      int      `json:"version"`
	RatingAvg    float64  `json:"rating_avg"`
	RatingCount  int      `json:"rating_count"`
	Instructions *string  `json:"instructions"`
}

func ids(l listJSON) []string {
	out := []string{}
	for _, c := range l.Items {
		out = append(out, c.ID)
	}
	return out
}

// A free agent, once approved, is on the marketplace: its card, its page
// with its instructions, starters and tools, its file; anyone signed in
// rates it, its creator does not.
func TestFreeAgentOnTheMarketplace(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	admin := s.Admin("root")
	annID, ann := s.creator("ann", false)
	a := s.published(ann, admin, "Echoer", "Repeat what the user says.", 0)

	list := decode[listJSON](t, s.Do("GET", public, "", ""), http.StatusOK)
	if len(list.Items) != 1 || list.Total != 1 || list.Items[0].ID != a.ID || !list.Items[0].IsFree || list.Items[0].Creator == nil ||
		list.Items[0].Creator.Username != annID || list.Items[0].Creator.DisplayName != "ann Studio" || len(list.Items[0].Servers) != 1 || list.Items[0].Servers[0].Auth != "key" ||
		list.Items[0].Servers[0].Name != "Reference" {
		t.Fatalf("list %+v", list)
	}
	d := decode[detailJSON](t, s.Do("GET", public+a.ID, "", ""), http.StatusOK)
	if d.Instructions == nil || *d.Instructions != "Repeat what the user says." || d.Owned || d.Version != 1 ||
		len(d.Servers) != 1 || d.Servers[0].ConnectionID != nil || strings.Join(d.Servers[0].Tools, ",") != "echo" ||
		strings.Join(d.Starters, ",") != "Say hi" {
		t.Errorf("visitor's page %+v", d)
	}
	if d := decode[detailJSON](t, s.Do("GET", public+a.ID, ann, ""), http.StatusOK); !d.Owned {
		t.Errorf("the creator's page is not owned: %+v", d)
	}

	// The caller's connection to a server is on the page.
	bobID, bob := s.User("bob")
	storetest.Must(t, s.St.PutMCPConnection(context.Background(), bobID, domain.MCPConnection{ID: "c-bob-ref", ServerID: "ref",
		ServerName: "Reference", EndpointURL: "https://ref.example/mcp", ConnectedAt: time.Now().UTC().Format(time.RFC3339)}), "connect")
	d = decode[detailJSON](t, s.Do("GET", public+a.ID, bob, ""), http.StatusOK)
	if d.Servers[0].ConnectionID == nil || *d.Servers[0].ConnectionID != "c-bob-ref" {
		t.Errorf("bob's connection not on the page: %+v", d.Servers)
	}

	w := s.Do("GET", public+a.ID+"/export", "", "")
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Disposition"), "attachment") ||
		!strings.Contains(w.Body.String(), `"format": "aiwork.agent"`) || !strings.Contains(w.Body.String(), "Repeat what the user says.") {
		t.Errorf("export %d %v %s", w.Code, w.Header(), w.Body.String())
	}

	r := decode[map[string]any](t, s.Do("POST", public+a.ID+"/rate", bob, `{"rating":4}`), http.StatusOK)
	if r["rating_avg"] != 4.0 || r["rating_count"] != 1.0 {
		t.Errorf("rate %v", r)
	}
	apitest.WantError(t, s.Do("POST", public+a.ID+"/rate", ann, `{"rating":5}`), http.StatusForbidden, "You cannot rate your own agent.")
	apitest.WantError(t, s.Do("POST", public+a.ID+"/rate", bob, `{"rating":6}`), http.StatusBadRequest, "rating must be a whole number from 1 to 5")
	if w := s.Do("POST", public+a.ID+"/rate", "", `{"rating":5}`); w.Code != http.StatusUnauthorized {
		t.Errorf("a visitor's rating: %d", w.Code)
	}
}

// A paid agent's instructions are in no answer of the public routes, to
// anyone: a visitor, a user, a buyer, its creator.
func TestPaidInstructionsNeverLeave(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	admin := s.Admin("root")
	_, ann := s.creator("ann", true)
	const marker = "PAID-MARKER-7f3a"
	a := s.published(ann, admin, "Seller", "Secret method: "+marker, 4.99)
	buyerID, buyer := s.User("buyer")
	_, err := s.St.GrantOwnership(context.Background(), buyerID, domain.Ownership{PromptID: a.ID, Source: domain.SourcePurchase, Amount: 4.99, CreatedAt: time.Now()})
	storetest.Must(t, err, "own")
	_, other := s.User("other")
	for who, token := range map[string]string{"visitor": "", "user": other, "buyer": buyer, "creator": ann} {
		for _, path := range []string{public, public + "?search=seller", public + "?sort=rating", public + a.ID} {
			w := s.Do("GET", path, token, "")
			if w.Code != http.StatusOK {
				t.Errorf("%s GET %s: %d", who, path, w.Code)
			}
			noMarker(t, who+" GET "+path, w, marker)
		}
		if d := decode[detailJSON](t, s.Do("GET", public+a.ID, token, ""), http.StatusOK); d.Instructions != nil || d.IsFree {
			t.Errorf("%s: %+v", who, d)
		}
		if who != "creator" {
			w := s.Do("GET", public+a.ID+"/export", token, "")
			apitest.WantError(t, w, http.StatusForbidden, "A paid agent's instructions are not exported.")
			noMarker(t, who+" export", w, marker)
		}
		if token != "" {
			noMarker(t, who+" rate", s.Do("POST", public+a.ID+"/rate", token, `{"rating":3}`), marker)
		}
	}
	if d := decode[detailJSON](t, s.Do("GET", public+a.ID, buyer, ""), http.StatusOK); !d.Owned {
		t.Error("the buyer's page is not owned")
	}
	apitest.WantError(t, s.Do("POST", public+a.ID+"/rate", other, `{"rating":3}`), http.StatusForbidden, "Buy this agent to rate it.")
	// Its creator exports their own file.
	if w := s.Do("GET", public+a.ID+"/export", ann, ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), marker) {
		t.Errorf("creator's export %d", w.Code)
	}
}

// Another creator's draft is not found on any route; so is an agent an
// admin suspended, but for its buyers and creator, and it leaves the list.
func TestDraftsAndSuspendedAgentsAreNotFound(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	admin := s.Admin("root")
	_, ann := s.creator("ann", true)
	_, eve := s.creator("eve", true)
	draft := s.draft(ann, "Hidden", "Draft instructions", 0)
	for _, r := range []struct{ method, path, body string }{
		{"GET", public + draft.ID, ""}, {"GET", public + draft.ID + "/export", ""}, {"POST", public + draft.ID + "/rate", `{"rating":5}`},
		{"GET", studio + "/" + draft.ID, ""}, {"PATCH", studio + "/" + draft.ID, `{"version":1,"name":"Mine"}`},
		{"DELETE", studio + "/" + draft.ID, ""}, {"POST", studio + "/" + draft.ID + "/submit", ""},
	} {
		w := s.Do(r.method, r.path, eve, r.body)
		if w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "Draft instructions") {
			t.Errorf("eve %s %s: %d %s", r.method, r.path, w.Code, w.Body.String())
		}
	}
	if got := decode[detailJSON](t, s.Do("GET", public+draft.ID, ann, ""), http.StatusOK); got.ID != draft.ID {
		t.Errorf("the creator's own draft: %+v", got)
	}
	if l := decode[listJSON](t, s.Do("GET", public, ann, ""), http.StatusOK); len(l.Items) != 0 {
		t.Errorf("a draft is listed: %v", ids(l))
	}

	live := s.published(ann, admin, "Live", "Live instructions", 2)
	buyerID, buyer := s.User("buyer")
	_, err := s.St.GrantOwnership(context.Background(), buyerID, domain.Ownership{PromptID: live.ID, Source: domain.SourcePurchase, Amount: 2, CreatedAt: time.Now()})
	storetest.Must(t, err, "own")
	decode[map[string]any](t, s.Do("POST", adminAPI+"agents/"+live.ID+"/suspend", admin, ""), http.StatusOK)
	if l := decode[listJSON](t, s.Do("GET", public, "", ""), http.StatusOK); len(l.Items) != 0 {
		t.Errorf("a suspended agent is listed: %v", ids(l))
	}
	apitest.WantError(t, s.Do("GET", public+live.ID, eve, ""), http.StatusNotFound, "Agent not found.")
	decode[detailJSON](t, s.Do("GET", public+live.ID, buyer, ""), http.StatusOK)
	decode[detailJSON](t, s.Do("GET", public+live.ID, ann, ""), http.StatusOK)
	decode[map[string]any](t, s.Do("POST", adminAPI+"agents/"+live.ID+"/unsuspend", admin, ""), http.StatusOK)
	if l := decode[listJSON](t, s.Do("GET", public, "", ""), http.StatusOK); len(ids(l)) != 1 {
		t.Errorf("unsuspended, not listed: %v", ids(l))
	}
	lines, _, err := s.St.AuditLog(context.Background(), store.AuditQuery{Target: live.ID, Limit: 10})
	storetest.Must(t, err, "audit")
	var actions []string
	for _, l := range lines {
		actions = append(actions, l.Action)
	}
	if strings.Join(actions, ",") != "agent.unsuspend,agent.suspend,review.approve" {
		t.Errorf("audit %v", actions)
	}
	if w := s.Do("POST", adminAPI+"agents/"+live.ID+"/suspend", ann, ""); w.Code != http.StatusForbidden {
		t.Errorf("a creator suspended an agent: %d", w.Code)
	}
	apitest.WantError(t, s.Do("POST", adminAPI+"agents/a-nobody/suspend", admin, ""), http.StatusNotFound, "Agent not found.")
	al := decode[struct {
		Items []struct {
			ID        string `json:"id"`
			Suspended bool   `json:"suspended"`
		} `json:"items"`
		Total int `json:"total"`
	}](t, s.Do("GET", adminAPI+"agents", admin, ""), http.StatusOK)
	if al.Total != 2 {
		t.Errorf("admin list %+v", al)
	}
}

// The list searches, filters by category, sorts and pages.
func TestListSearchSortAndPages(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	admin := s.Admin("root")
	_, ann := s.creator("ann", true)
	cheap := s.published(ann, admin, "Cheap helper", "x", 1)
	dear := s.published(ann, admin, "Dear writer", "x", 9)
	free := s.published(ann, admin, "Free helper", "x", 0)
	if got := ids(decode[listJSON](t, s.Do("GET", public+"?sort=price-low", "", ""), http.StatusOK)); strings.Join(got, ",") != free.ID+","+cheap.ID+","+dear.ID {
		t.Errorf("price-low %v", got)
	}
	if got := ids(decode[listJSON](t, s.Do("GET", public+"?sort=price-high", "", ""), http.StatusOK)); strings.Join(got, ",") != dear.ID+","+cheap.ID+","+free.ID {
		t.Errorf("price-high %v", got)
	}
	if got := ids(decode[listJSON](t, s.Do("GET", public+"?search=HELPER&sort=price-low", "", ""), http.StatusOK)); strings.Join(got, ",") != free.ID+","+cheap.ID {
		t.Errorf("search %v", got)
	}
	if got := decode[listJSON](t, s.Do("GET", public+"?category=nope", "", ""), http.StatusOK); len(got.Items) != 0 {
		t.Errorf("category %v", ids(got))
	}
	first := decode[listJSON](t, s.Do("GET", public+"?sort=price-low&limit=2", "", ""), http.StatusOK)
	second := decode[listJSON](t, s.Do("GET", public+"?sort=price-low&limit=2&cursor="+first.NextCursor, "", ""), http.StatusOK)
	if len(first.Items) != 2 || first.Total != 3 || first.NextCursor == "" || strings.Join(ids(second), ",") != dear.ID || second.NextCursor != "" {
		t.Errorf("pages %+v %+v", first, second)
	}
	apitest.WantError(t, s.Do("GET", public+"?sort=cheapest", "", ""), http.StatusBadRequest, "sort must be one of newest, price-low, price-high, rating")
	apitest.WantError(t, s.Do("GET", public+"?limit=0", "", ""), http.StatusBadRequest, "limit must be a whole number from 1 to 60")
	apitest.WantError(t, s.Do("GET", public+"?cursor=!!", "", ""), http.StatusBadRequest, "cursor is not one this list gave; start again without it")
}

// A cursor names a place in the order, not a card: the next page follows
// on when the last card of the page before has left the list (suspended)
// or moved in it (a new price), showing no card twice and skipping none.
func TestListCursorOutlivesItsCard(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	admin := s.Admin("root")
	_, ann := s.creator("ann", true)
	one := s.published(ann, admin, "One", "x", 1)
	two := s.published(ann, admin, "Two", "x", 2)
	three := s.published(ann, admin, "Three", "x", 3)
	four := s.published(ann, admin, "Four", "x", 4)

	first := decode[listJSON](t, s.Do("GET", public+"?sort=price-low&limit=2", "", ""), http.StatusOK)
	if got := strings.Join(ids(first), ","); got != one.ID+","+two.ID || first.NextCursor == "" {
		t.Fatalf("first page %v, cursor %q", got, first.NextCursor)
	}
	decode[map[string]any](t, s.Do("POST", adminAPI+"agents/"+two.ID+"/suspend", admin, ""), http.StatusOK)
	second := decode[listJSON](t, s.Do("GET", public+"?sort=price-low&limit=2&cursor="+first.NextCursor, "", ""), http.StatusOK)
	if got := strings.Join(ids(second), ","); got != three.ID+","+four.ID || second.NextCursor != "" {
		t.Errorf("after the cursor's card left the list: %v, cursor %q", got, second.NextCursor)
	}

	// Newest first pages the same way.
	newest := decode[listJSON](t, s.Do("GET", public+"?limit=1", "", ""), http.StatusOK)
	if got := strings.Join(ids(newest), ","); got != four.ID {
		t.Fatalf("newest first page %v", got)
	}
	rest := decode[listJSON](t, s.Do("GET", public+"?limit=5&cursor="+newest.NextCursor, "", ""), http.StatusOK)
	if got := strings.Join(ids(rest), ","); got != three.ID+","+one.ID {
		t.Errorf("newest, after the first: %v", got)
	}
}

// The admin list's cursor is a place too: approving the last agent of a
// page of those in review does not send the next page back to the start.
func TestAdminListCursorOutlivesItsAgent(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	admin := s.Admin("root")
	_, ann := s.creator("ann", true)
	var inReview []agentJSON
	for _, name := range []string{"One", "Two", "Three", "Four"} {
		a := s.draft(ann, name, "x", 0)
		decode[agentJSON](t, s.Do("POST", studio+"/"+a.ID+"/submit", ann, ""), http.StatusOK)
		inReview = append(inReview, a)
	}
	first := decode[listJSON](t, s.Do("GET", adminAPI+"agents?state=in_review&limit=2", admin, ""), http.StatusOK)
	if got := strings.Join(ids(first), ","); got != inReview[3].ID+","+inReview[2].ID || first.NextCursor == "" {
		t.Fatalf("first page %v, cursor %q", got, first.NextCursor)
	}
	decode[map[string]any](t, s.Do("POST", adminAPI+"reviews/"+inReview[2].ID, admin, `{"decision":"approve"}`), http.StatusOK)
	second := decode[listJSON](t, s.Do("GET", adminAPI+"agents?state=in_review&limit=2&cursor="+first.NextCursor, admin, ""), http.StatusOK)
	if got := strings.Join(ids(second), ","); got != inReview[1].ID+","+inReview[0].ID || second.NextCursor != "" {
		t.Errorf("after the cursor's agent left the list: %v, cursor %q", got, second.NextCursor)
	}
}
