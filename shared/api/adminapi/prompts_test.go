package adminapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
)

var seeded = domain.Prompt{ID: "seeded", Title: "Seeded prompt", Description: "From the seed", Content: "Write about {{topic}}.", Price: 9.99,
	CategoryID: "writing", CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}

func newPromptBody(title string, price float64) string {
	return mustJSON(map[string]any{"title": title, "description": "What it does", "content": "Draft a plan for {{goal}}.", "price": price, "category_id": "business"})
}

// An admin creates a prompt: users see it; edits are versioned and
// audited; unpublished, it is gone for users but stays for its owner.
func TestAdminPromptLifecycle(t *testing.T) {
	t.Parallel()
	s := newStack(t, seeded)
	adminID, boss := s.admin("boss")
	_, buyer := s.User("buyer")
	_, other := s.User("other")

	p := decode[promptJSON](t, s.Do("POST", admin+"prompts", boss, newPromptBody("Launch plan", 4.5)), http.StatusCreated)
	if p.Version != 1 || !p.Published || p.CategoryName != "Business" || p.Price != 4.5 {
		t.Fatalf("created %+v", p)
	}
	if w := s.Do("GET", "/api/v1/prompts/"+p.ID, other, ""); w.Code != http.StatusOK {
		t.Fatalf("a user reads the new prompt: %d %s", w.Code, w.Body)
	}

	// The buyer gets it free (a use counted), then it is unpublished.
	if w := s.Do("POST", "/api/v1/prompts/use-free-prompt/"+p.ID, buyer, ""); w.Code != http.StatusOK {
		t.Fatalf("free use: %d %s", w.Code, w.Body)
	}
	edited := decode[promptJSON](t, s.Do("PATCH", admin+"prompts/"+p.ID, boss, `{"version":1,"published":false,"price":5}`), http.StatusOK)
	if edited.Version != 2 || edited.Published || edited.Price != 5 || edited.Stats.FreeUses != 1 {
		t.Fatalf("edited %+v", edited)
	}
	list := decode[struct{ Items []struct{ ID string } }](t, s.Do("GET", "/api/v1/prompts/", other, ""), http.StatusOK)
	for _, l := range list.Items {
		if l.ID == p.ID {
			t.Errorf("an unpublished prompt is listed to a user")
		}
	}
	apitest.WantError(t, s.Do("GET", "/api/v1/prompts/"+p.ID, other, ""), http.StatusNotFound, "")
	apitest.WantError(t, s.Do("POST", "/api/v1/prompts/use-free-prompt/"+p.ID, other, ""), http.StatusNotFound, "")
	apitest.WantError(t, s.Do("POST", "/api/v1/payments/create-checkout-session", other, `{"prompt_id":"`+p.ID+`"}`), http.StatusNotFound, "")
	mine := decode[struct{ Content string }](t, s.Do("GET", "/api/v1/prompts/"+p.ID, buyer, ""), http.StatusOK)
	if mine.Content != "Draft a plan for {{goal}}." {
		t.Errorf("the owner of an unpublished prompt reads %q", mine.Content)
	}

	// A stale version: 409 with the prompt as it is now; nothing changed.
	conflict := s.Do("PATCH", admin+"prompts/"+p.ID, boss, `{"version":1,"title":"Old view"}`)
	var body struct {
		Code    string     `json:"code"`
		Current promptJSON `json:"current"`
	}
	if conflict.Code != http.StatusConflict || json.Unmarshal(conflict.Body.Bytes(), &body) != nil || body.Code != "conflict" || body.Current.Version != 2 || body.Current.Title != "Launch plan" {
		t.Fatalf("stale edit: %d %s", conflict.Code, conflict.Body)
	}
	// Used for free: not deleted (unpublish instead).
	apitest.WantErrorContaining(t, s.Do("DELETE", admin+"prompts/"+p.ID, boss, ""), http.StatusConflict, "unpublish it instead")

	other2 := decode[promptJSON](t, s.Do("POST", admin+"prompts", boss, newPromptBody("Scratch", 1)), http.StatusCreated)
	if w := s.Do("DELETE", admin+"prompts/"+other2.ID, boss, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete an unused prompt: %d %s", w.Code, w.Body)
	}
	apitest.WantError(t, s.Do("PATCH", admin+"prompts/"+other2.ID, boss, `{"version":1}`), http.StatusNotFound, "Prompt not found.")

	// Every change has its audit line, newest first, with before and after.
	audit := decode[pageJSON[auditJSON]](t, s.Do("GET", admin+"audit", boss, ""), http.StatusOK)
	actions := []string{}
	for _, a := range audit.Items {
		actions = append(actions, a.Action)
		if a.ActorID != adminID || !strings.HasSuffix(a.ActorEmail, "@example.com") {
			t.Errorf("audit actor %q %q", a.ActorID, a.ActorEmail)
		}
	}
	if strings.Join(actions, ",") != "prompt.delete,prompt.create,prompt.update,prompt.create" {
		t.Fatalf("audit actions %v", actions)
	}
	update := audit.Items[2]
	if !strings.Contains(string(update.Before), `"published":true`) || !strings.Contains(string(update.After), `"published":false`) || update.TargetID != p.ID {
		t.Errorf("update line before %s after %s", update.Before, update.After)
	}
	if string(audit.Items[0].After) != "null" || string(audit.Items[1].Before) != "null" {
		t.Errorf("a delete has no after, a create no before: %s / %s", audit.Items[0].After, audit.Items[1].Before)
	}
	byTarget := decode[pageJSON[auditJSON]](t, s.Do("GET", admin+"audit?target="+p.ID+"&limit=1", boss, ""), http.StatusOK)
	if len(byTarget.Items) != 1 || byTarget.Items[0].Action != "prompt.update" || byTarget.NextCursor == "" {
		t.Fatalf("audit by target, first page %+v", byTarget)
	}
	second := decode[pageJSON[auditJSON]](t, s.Do("GET", admin+"audit?target="+p.ID+"&limit=1&cursor="+byTarget.NextCursor, boss, ""), http.StatusOK)
	if len(second.Items) != 1 || second.Items[0].Action != "prompt.create" {
		t.Fatalf("audit by target, second page %+v", second)
	}
}

// Bad prompts are refused with a clear detail and store nothing: a broken
// prompt rule (each is tested in shared/prompts) is a 400 with the rule's
// words, as is a body that is not a prompt.
func TestAdminPromptRules(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, boss := s.admin("boss")
	body := func(change map[string]any) string {
		m := map[string]any{"title": "T", "description": "D", "content": "C", "price": 1.5, "category_id": "business"}
		for k, v := range change {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		return mustJSON(m)
	}
	for _, tc := range []struct {
		body, detail string
		status       int
	}{
		{body(map[string]any{"price": 1000}), "price must be more than 0 and at most 999.99", http.StatusBadRequest},
		{strings.Replace(body(nil), `"price":1.5`, `"price":1e300`, 1), "price must be more than 0 and at most 999.99", http.StatusBadRequest},
		// Less than a cent is a price of no cents, however small (1e-200 is
		// a number the table cannot even hold).
		{strings.Replace(body(nil), `"price":1.5`, `"price":1e-200`, 1), "price must have at most two decimals", http.StatusBadRequest},
		{strings.Replace(body(nil), `"price":1.5`, `"price":0.000000001`, 1), "price must have at most two decimals", http.StatusBadRequest},
		{body(map[string]any{"title": "   "}), "title is required", http.StatusBadRequest},
		{body(map[string]any{"title": nil}), "title is required", http.StatusBadRequest},
		{body(map[string]any{"content": strings.Repeat("x", 100_000)}), "content must be at most 50000 characters (it has 100000)", http.StatusBadRequest},
		{body(map[string]any{"category_id": "nope"}), `category "nope" does not exist`, http.StatusBadRequest},
		{body(map[string]any{"price": "1"}), "Field 'price' must be a number", http.StatusBadRequest},
		{`{"title":`, "Malformed JSON", http.StatusBadRequest},
		{`{"content":"` + strings.Repeat("x", 600<<10) + `"}`, "larger than", http.StatusRequestEntityTooLarge},
	} {
		apitest.WantErrorContaining(t, s.Do("POST", admin+"prompts", boss, tc.body), tc.status, tc.detail)
	}
	if l := decode[pageJSON[promptJSON]](t, s.Do("GET", admin+"prompts", boss, ""), http.StatusOK); l.Total != 0 {
		t.Errorf("bad prompts stored: %d", l.Total)
	}
	apitest.WantErrorContaining(t, s.Do("GET", admin+"prompts?state=weird", boss, ""), http.StatusBadRequest, "state must be")
	apitest.WantErrorContaining(t, s.Do("GET", admin+"prompts?limit=0", boss, ""), http.StatusBadRequest, "limit must be")
	apitest.WantErrorContaining(t, s.Do("GET", admin+"prompts?cursor=%25%25", boss, ""), http.StatusBadRequest, "cursor")
	apitest.WantErrorContaining(t, s.Do("PATCH", admin+"prompts/seeded", boss, `{"title":"x"}`), http.StatusBadRequest, "version is required")
}

// Two admins edit one prompt at once from the same version: one wins, the
// other gets 409 with the winner's prompt; one audit line.
func TestTwoAdminsEditingOnePrompt(t *testing.T) {
	t.Parallel()
	s := newStack(t, seeded)
	_, a := s.admin("ann")
	_, b := s.admin("bob")
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for i, tok := range []string{a, b} {
		wg.Go(func() {
			codes[i] = s.Do("PATCH", admin+"prompts/seeded", tok, `{"version":0,"title":"Edited by `+tok[:4]+`"}`).Code
		})
	}
	wg.Wait()
	if !(codes[0] == http.StatusOK && codes[1] == http.StatusConflict) && !(codes[1] == http.StatusOK && codes[0] == http.StatusConflict) {
		t.Fatalf("two edits at version 0 answered %v, want one 200 and one 409", codes)
	}
	if l := decode[pageJSON[auditJSON]](t, s.Do("GET", admin+"audit", a, ""), http.StatusOK); len(l.Items) != 1 {
		t.Errorf("%d audit lines, want 1 (the losing edit changed nothing)", len(l.Items))
	}
}

// Listing: search, category and state filters, pages.
func TestAdminPromptListing(t *testing.T) {
	t.Parallel()
	s := newStack(t, seeded)
	_, boss := s.admin("boss")
	for i, title := range []string{"Alpha plan", "Beta plan", "Gamma memo"} {
		decode[promptJSON](t, s.Do("POST", admin+"prompts", boss, newPromptBody(title, float64(i+1))), http.StatusCreated)
	}
	hidden := decode[promptJSON](t, s.Do("POST", admin+"prompts", boss, mustJSON(map[string]any{"title": "Hidden plan", "content": "c", "price": 2, "category_id": "business", "published": false})), http.StatusCreated)
	if hidden.Published {
		t.Fatal("created unpublished, answered published")
	}
	titles := func(path string) []string {
		l := decode[pageJSON[promptJSON]](t, s.Do("GET", path, boss, ""), http.StatusOK)
		out := []string{}
		for _, p := range l.Items {
			out = append(out, p.Title)
		}
		return out
	}
	if got := titles(admin + "prompts?q=PLAN"); strings.Join(got, ",") != "Hidden plan,Beta plan,Alpha plan" {
		t.Errorf("q=PLAN: %v", got)
	}
	if got := titles(admin + "prompts?category=writing"); strings.Join(got, ",") != "Seeded prompt" {
		t.Errorf("category=writing: %v", got)
	}
	if got := titles(admin + "prompts?state=unpublished"); strings.Join(got, ",") != "Hidden plan" {
		t.Errorf("state=unpublished: %v", got)
	}
	first := decode[pageJSON[promptJSON]](t, s.Do("GET", admin+"prompts?limit=2", boss, ""), http.StatusOK)
	next := decode[pageJSON[promptJSON]](t, s.Do("GET", admin+"prompts?limit=2&cursor="+first.NextCursor, boss, ""), http.StatusOK)
	last := decode[pageJSON[promptJSON]](t, s.Do("GET", admin+"prompts?limit=2&cursor="+next.NextCursor, boss, ""), http.StatusOK)
	if first.Total != 5 || len(first.Items) != 2 || len(next.Items) != 2 || len(last.Items) != 1 || last.NextCursor != "" || first.Items[0].ID == next.Items[0].ID {
		t.Fatalf("pages %d/%d/%d of %d, last cursor %q", len(first.Items), len(next.Items), len(last.Items), first.Total, last.NextCursor)
	}
}

// A price edit never changes an open checkout: the same checkout is
// answered again, at the amount it was opened with; a new buyer pays the
// new price.
func TestPriceEditKeepsOpenCheckouts(t *testing.T) {
	t.Parallel()
	s := newStackFree(t, 0, seeded)
	_, boss := s.admin("boss")
	_, buyer := s.User("buyer")
	_, later := s.User("later")
	type checkout struct {
		CheckoutURL string `json:"checkout_url"`
		SessionID   string `json:"session_id"`
	}
	open := func(token string) checkout {
		return decode[checkout](t, s.Do("POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"seeded"}`), http.StatusOK)
	}
	first := open(buyer)
	decode[promptJSON](t, s.Do("PATCH", admin+"prompts/seeded", boss, `{"version":0,"price":19.5}`), http.StatusOK)
	again := open(buyer)
	if again.CheckoutURL != first.CheckoutURL {
		t.Fatalf("the open checkout changed after a price edit: %s, then %s", first.CheckoutURL, again.CheckoutURL)
	}
	order, err := s.St.GetOrder(t.Context(), first.SessionID)
	if err != nil || order.Amount != 9.99 {
		t.Fatalf("the open checkout's order: %+v, %v; want 9.99", order, err)
	}
	fresh, err := s.St.GetOrder(t.Context(), open(later).SessionID)
	if err != nil || fresh.Amount != 19.5 {
		t.Fatalf("a checkout opened after the edit: %+v, %v; want 19.50", fresh, err)
	}
}

// The list is read from the table a page at a time: a search that spans
// pages does not know its total (null) until its first page is its last;
// without a search the total counts drafts too; walking a search's pages
// finds every match once.
func TestAdminPromptListPagesASearch(t *testing.T) {
	t.Parallel()
	s := newStack(t, seeded)
	_, boss := s.admin("boss")
	var want []string
	for i := range 5 {
		body := mustJSON(map[string]any{"title": fmt.Sprintf("Plan %d", i), "content": "c", "price": 2, "category_id": "business", "published": i%2 == 0})
		want = append([]string{decode[promptJSON](t, s.Do("POST", admin+"prompts", boss, body), http.StatusCreated).ID}, want...)
	}
	var raw struct {
		Total *int `json:"total"`
	}
	first := s.Do("GET", admin+"prompts?q=plan&limit=2", boss, "")
	if err := json.Unmarshal(first.Body.Bytes(), &raw); err != nil || raw.Total != nil {
		t.Errorf("a search spanning pages: total %v (%s), want null", raw.Total, first.Body)
	}
	var got []string
	for cursor, pages := "", 0; ; pages++ {
		page := decode[pageJSON[promptJSON]](t, s.Do("GET", admin+"prompts?q=plan&limit=2&cursor="+cursor, boss, ""), http.StatusOK)
		for _, p := range page.Items {
			got = append(got, p.ID)
		}
		if cursor = page.NextCursor; cursor == "" || pages > 10 {
			break
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the search's pages: %v, want %v", got, want)
	}
	one := decode[pageJSON[promptJSON]](t, s.Do("GET", admin+"prompts?q=plan%203", boss, ""), http.StatusOK)
	if len(one.Items) != 1 || one.Total != 1 {
		t.Errorf("a search on one page: %d items, total %d", len(one.Items), one.Total)
	}
	all := decode[pageJSON[promptJSON]](t, s.Do("GET", admin+"prompts?limit=1", boss, ""), http.StatusOK)
	if all.Total != 6 { // the seeded prompt and the five, two of them drafts
		t.Errorf("total %d, want 6", all.Total)
	}
	apitest.WantError(t, s.Do("GET", admin+"prompts?cursor="+all.NextCursor+"&q=plan", boss, ""), http.StatusBadRequest, "")
}

// A category holding only a draft counts it, and is not deleted.
func TestCategoryCountsDrafts(t *testing.T) {
	t.Parallel()
	s := newStack(t, seeded)
	_, boss := s.admin("boss")
	c := decode[categoryJSON](t, s.Do("POST", admin+"categories", boss, `{"name":"Drafts only"}`), http.StatusCreated)
	decode[promptJSON](t, s.Do("POST", admin+"prompts", boss, mustJSON(map[string]any{"title": "Draft", "content": "c", "price": 2, "category_id": c.ID, "published": false})), http.StatusCreated)
	list := decode[struct{ Items []categoryJSON }](t, s.Do("GET", admin+"categories", boss, ""), http.StatusOK).Items
	for _, x := range list {
		if x.ID == c.ID && x.PromptCount != 1 {
			t.Errorf("%s holds %d prompts, want its draft", x.ID, x.PromptCount)
		}
	}
	apitest.WantErrorContaining(t, s.Do("DELETE", admin+"categories/"+c.ID, boss, ""), http.StatusConflict, "has 1 prompts")
}
