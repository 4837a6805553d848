package creatorsapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/api/creatorsapi"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

type listJSON struct {
	Items []promptJSON `json:"items"`
}

func TestPromptsLifecycle(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, token := s.creator("cleo", false)

	p := s.draft(token, "Launch plan", 4.5)
	if p.State != "draft" || p.Version != 1 || p.Price != 4.5 || p.ReviewReason != nil || !strings.HasSuffix(p.Content, "SECRET-TAIL-Launch plan") {
		t.Fatalf("created %+v", p)
	}
	list := decode[listJSON](t, s.Do("GET", mine, token, ""), http.StatusOK)
	if len(list.Items) != 1 || list.Items[0].ID != p.ID {
		t.Fatalf("list %+v", list)
	}
	p = decode[promptJSON](t, s.Do("PATCH", mine+"/"+p.ID, token, `{"version":1,"title":"Launch plan v2","price":5}`), http.StatusOK)
	if p.Title != "Launch plan v2" || p.Price != 5 || p.Version != 2 || p.State != "draft" {
		t.Fatalf("patched %+v", p)
	}
	// Creators set neither featured nor published: those are the review's.
	p = decode[promptJSON](t, s.Do("PATCH", mine+"/"+p.ID, token, `{"version":2,"published":true,"featured":true}`), http.StatusOK)
	if p.State != "draft" {
		t.Fatalf("published by its creator: %+v", p)
	}
	got := decode[promptJSON](t, s.Do("GET", mine+"/"+p.ID, token, ""), http.StatusOK)
	if got.Version != 3 || got.State != "draft" {
		t.Fatalf("GET %+v", got)
	}
	p = decode[promptJSON](t, s.Do("POST", mine+"/"+p.ID+"/submit", token, ""), http.StatusOK)
	if p.State != "in_review" || p.Version != 4 {
		t.Fatalf("submitted %+v", p)
	}
	apitest.WantError(t, s.Do("POST", mine+"/"+p.ID+"/submit", token, ""), http.StatusConflict, "This prompt is already in review.")
	apitest.WantError(t, s.Do("PATCH", mine+"/"+p.ID, token, `{"version":4,"title":"x"}`), http.StatusConflict,
		"This prompt is in review: you can edit it once it is approved or rejected.")

	// Deleted: a draft nobody bought.
	d := s.draft(token, "Throwaway", 1)
	if w := s.Do("DELETE", mine+"/"+d.ID, token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("DELETE = %d %s", w.Code, w.Body)
	}
	apitest.WantError(t, s.Do("GET", mine+"/"+d.ID, token, ""), http.StatusNotFound, "Prompt not found.")
}

func TestPromptsBadInput(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, token := s.creator("dora", false)
	_, plain := s.User("plain")
	apitest.WantError(t, s.Do("POST", mine, "", promptBody("x", 1)), http.StatusUnauthorized, "")
	apitest.WantError(t, s.Do("POST", mine, plain, promptBody("x", 1)), http.StatusForbidden, "You are not a creator yet: save your creator profile first.")
	body := func(change map[string]any) string {
		m := map[string]any{"title": "T", "description": "D", "content": "C", "price": 1.5, "category_id": "business"}
		for k, v := range change {
			m[k] = v
		}
		return mustJSON(m)
	}
	for _, c := range []struct{ body, want string }{
		{body(map[string]any{"price": 1.234}), "price must have at most two decimals"},
		{body(map[string]any{"price": 0}), "price must be more than 0 and at most 999.99"},
		{body(map[string]any{"price": 1000}), "price must be more than 0 and at most 999.99"},
		{body(map[string]any{"content": strings.Repeat("a", 50_001)}), "content must be at most 50000 characters (it has 50001)"},
		{body(map[string]any{"title": ""}), "title is required"},
		{body(map[string]any{"category_id": "nope"}), `category "nope" does not exist`},
		{body(map[string]any{"price": "1"}), "Field 'price' must be a number, not string."},
		{`{"title":`, "Malformed JSON in request body."},
	} {
		apitest.WantError(t, s.Do("POST", mine, token, c.body), http.StatusBadRequest, c.want)
	}
	p := s.draft(token, "Fine", 2)
	apitest.WantError(t, s.Do("PATCH", mine+"/"+p.ID, token, `{"title":"x"}`), http.StatusBadRequest, "version is required (the version you read)")
	apitest.WantError(t, s.Do("PATCH", mine+"/"+p.ID, token, `{"version":1,"price":2.345}`), http.StatusBadRequest, "price must have at most two decimals")
}

// A creator never reaches another creator's prompt: every route answers
// 404, as for no prompt at all.
func TestAnotherCreatorsPromptIsNotFound(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, owner := s.creator("eve", false)
	_, other := s.creator("fay", false)
	p := s.draft(owner, "Mine", 3)
	for _, c := range []struct{ method, path, body string }{
		{"GET", mine + "/" + p.ID, ""},
		{"PATCH", mine + "/" + p.ID, `{"version":1,"title":"stolen"}`},
		{"DELETE", mine + "/" + p.ID, ""},
		{"POST", mine + "/" + p.ID + "/submit", ""},
		{"GET", mine + "/nope", ""},
	} {
		apitest.WantError(t, s.Do(c.method, c.path, other, c.body), http.StatusNotFound, "Prompt not found.")
	}
	if list := decode[listJSON](t, s.Do("GET", mine, other, ""), http.StatusOK); len(list.Items) != 0 {
		t.Errorf("other's list %+v", list)
	}
	if got := decode[promptJSON](t, s.Do("GET", mine+"/"+p.ID, owner, ""), http.StatusOK); got.Title != "Mine" || got.Version != 1 {
		t.Errorf("owner's prompt changed: %+v", got)
	}
}

// Two edits from the same version: one is saved, the other is told the
// prompt changed (409 with the prompt as it now is).
func TestConcurrentEditsOneConflict(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, token := s.creator("gus", false)
	p := s.draft(token, "Race", 3)
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Go(func() {
			codes[i] = s.Do("PATCH", mine+"/"+p.ID, token, fmt.Sprintf(`{"version":1,"title":"Edit %d"}`, i)).Code
		})
	}
	wg.Wait()
	ok, conflict := 0, 0
	for _, c := range codes {
		switch c {
		case http.StatusOK:
			ok++
		case http.StatusConflict:
			conflict++
		}
	}
	if ok != 1 || conflict != 1 {
		t.Fatalf("codes %v, want one 200 and one 409", codes)
	}
	w := s.Do("PATCH", mine+"/"+p.ID, token, `{"version":1,"title":"late"}`)
	c := decode[struct {
		Detail  string     `json:"detail"`
		Current promptJSON `json:"current"`
	}](t, w, http.StatusConflict)
	if c.Current.Version != 2 || !strings.HasPrefix(c.Current.Title, "Edit ") {
		t.Errorf("conflict %+v", c)
	}
}

// Deleting a published prompt that sold withdraws it: it leaves the
// marketplace, its buyer still reads it, and its creator sees it withdrawn
// and can no longer edit or submit it.
func TestDeleteASoldPromptWithdrawsIt(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, token := s.creator("wyn", true)
	p := s.published(token, s.Admin("boss"), "Sold once", 4)
	buyerID, buyer := s.User("buyer")
	_, err := s.St.GrantOwnership(context.Background(), buyerID, domain.Ownership{PromptID: p.ID, Source: domain.SourcePurchase, OrderID: "o-w", Amount: 4, CreatedAt: time.Now()})
	storetest.Must(t, err, "grant")

	if w := s.Do("DELETE", mine+"/"+p.ID, token, ""); w.Code != http.StatusNoContent {
		t.Fatalf("DELETE = %d %s", w.Code, w.Body)
	}
	got := decode[struct {
		State     string `json:"state"`
		Withdrawn bool   `json:"withdrawn"`
		Version   int    `json:"version"`
	}](t, s.Do("GET", mine+"/"+p.ID, token, ""), http.StatusOK)
	if !got.Withdrawn || got.State != "published" {
		t.Errorf("after delete: %+v; want withdrawn", got)
	}
	if contains(s.marketplace(buyer, ""), p.ID) {
		t.Error("a withdrawn prompt is still listed")
	}
	if w := s.Do("GET", "/api/v1/prompts/"+p.ID, buyer, ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "SECRET-TAIL-Sold once") {
		t.Errorf("the buyer reads it: %d %s", w.Code, w.Body)
	}
	edit := mustJSON(map[string]any{"version": got.Version, "title": "Back again", "change_note": "Relist"})
	apitest.WantError(t, s.Do("PATCH", mine+"/"+p.ID, token, edit), http.StatusConflict, creatorsapi.MsgWithdrawn)
	apitest.WantError(t, s.Do("POST", mine+"/"+p.ID+"/submit", token, ""), http.StatusConflict, creatorsapi.MsgWithdrawn)
}
