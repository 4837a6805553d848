package creatorsapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"aiwork/shared/api/apitest"
	"aiwork/shared/domain"
	"aiwork/shared/store/storetest"
)

type pagedPrompt struct {
	Content        *string `json:"content"`
	Price          float64 `json:"price"`
	CurrentVersion int     `json:"current_version"`
	Versions       []struct {
		Number     int    `json:"number"`
		ChangeNote string `json:"change_note"`
	} `json:"versions"`
}

type versionContent struct {
	Number     int    `json:"number"`
	Content    string `json:"content"`
	ChangeNote string `json:"change_note"`
}

// Editing a published prompt makes its next version: pending (the live one
// unchanged) until approved, with a "what changed" note; then the buyer
// reads the new one, lists both with their notes and reads each.
func TestVersions(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, token := s.creator("lou", true)
	boss := s.Admin("boss")
	buyerID, buyer := s.User("buyer")
	_, stranger := s.User("stranger")
	p := s.published(token, boss, "Versioned", 6)
	_, err := s.St.GrantOwnership(context.Background(), buyerID, domain.Ownership{PromptID: p.ID, Source: domain.SourcePurchase, OrderID: "o-v", Amount: 6, CreatedAt: time.Now()})
	storetest.Must(t, err, "grant")
	cur := decode[promptJSON](t, s.Do("GET", mine+"/"+p.ID, token, ""), http.StatusOK)

	v2 := "Version two: " + secretContent("v2")
	edit := func(extra map[string]any) string {
		m := map[string]any{"version": cur.Version, "content": v2, "price": 8}
		for k, v := range extra {
			m[k] = v
		}
		return mustJSON(m)
	}
	apitest.WantError(t, s.Do("PATCH", mine+"/"+p.ID, token, edit(nil)), http.StatusBadRequest, "change_note is required: say what changed, for your buyers.")
	apitest.WantError(t, s.Do("PATCH", mine+"/"+p.ID, token, edit(map[string]any{"change_note": strings.Repeat("n", 301)})), http.StatusBadRequest,
		"change_note must be at most 300 characters")
	apitest.WantError(t, s.Do("PATCH", mine+"/"+p.ID, token, edit(map[string]any{"change_note": "x", "price": 8.001})), http.StatusBadRequest,
		"price must have at most two decimals")
	got := decode[struct {
		State   string `json:"state"`
		Version int    `json:"version"`
		Pending *struct {
			Content    string  `json:"content"`
			Price      float64 `json:"price"`
			ChangeNote string  `json:"change_note"`
			State      string  `json:"state"`
		} `json:"pending"`
	}](t, s.Do("PATCH", mine+"/"+p.ID, token, edit(map[string]any{"change_note": "Sharper steps."})), http.StatusOK)
	if got.State != "published" || got.Pending == nil || got.Pending.State != "draft" || got.Pending.Content != v2 || got.Pending.Price != 8 ||
		got.Pending.ChangeNote != "Sharper steps." {
		t.Fatalf("pending %+v", got)
	}
	// The live version is unchanged while the next one waits.
	page := decode[pagedPrompt](t, s.Do("GET", "/api/v1/prompts/"+p.ID, buyer, ""), http.StatusOK)
	if page.Content == nil || *page.Content != secretContent("Versioned") || page.Price != 6 || page.CurrentVersion != 1 || len(page.Versions) != 1 {
		t.Fatalf("page while pending %+v", page)
	}
	decode[promptJSON](t, s.Do("POST", mine+"/"+p.ID+"/submit", token, ""), http.StatusOK)
	apitest.WantError(t, s.Do("PATCH", mine+"/"+p.ID, token, mustJSON(map[string]any{"version": got.Version + 1, "title": "x"})), http.StatusConflict,
		"The next version of this prompt is in review: you can edit it once it is approved or rejected.")
	q := decode[struct {
		Items []struct {
			ID          string `json:"id"`
			Content     string `json:"content"`
			ChangeNote  string `json:"change_note"`
			LiveVersion int    `json:"live_version"`
		} `json:"items"`
	}](t, s.Do("GET", adminAPI+"reviews", boss, ""), http.StatusOK)
	if len(q.Items) != 1 || q.Items[0].Content != v2 || q.Items[0].ChangeNote != "Sharper steps." || q.Items[0].LiveVersion != 1 {
		t.Fatalf("queue %+v", q)
	}
	// The decision is the next version's: the live one keeps no reason;
	// approved, no version is pending any more.
	if d := decode[map[string]any](t, s.Do("POST", adminAPI+"reviews/"+p.ID, boss, `{"decision":"approve"}`), http.StatusOK); d["state"] != "published" ||
		d["review_reason"] != nil || !hasNull(d, "pending_state") || d["version"] != float64(got.Version+2) {
		t.Errorf("approval of the next version answered %v", d)
	}

	page = decode[pagedPrompt](t, s.Do("GET", "/api/v1/prompts/"+p.ID, buyer, ""), http.StatusOK)
	if page.Content == nil || *page.Content != v2 || page.Price != 8 || page.CurrentVersion != 2 || len(page.Versions) != 2 ||
		page.Versions[0].ChangeNote != "" || page.Versions[1].ChangeNote != "Sharper steps." {
		t.Fatalf("page after approval %+v", page)
	}
	for n, want := range map[string]string{"1": secretContent("Versioned"), "2": v2} {
		if v := decode[versionContent](t, s.Do("GET", "/api/v1/prompts/"+p.ID+"/versions/"+n, buyer, ""), http.StatusOK); v.Content != want {
			t.Errorf("version %s: %q", n, v.Content)
		}
	}
	apitest.WantError(t, s.Do("GET", "/api/v1/prompts/"+p.ID+"/versions/1", stranger, ""), http.StatusNotFound, "Prompt not found")
	apitest.WantError(t, s.Do("GET", "/api/v1/prompts/"+p.ID+"/versions/3", buyer, ""), http.StatusNotFound, "Version not found")
	strangerPage := decode[pagedPrompt](t, s.Do("GET", "/api/v1/prompts/"+p.ID, stranger, ""), http.StatusOK)
	if strangerPage.Content != nil || strings.Contains(mustJSON(strangerPage), "SECRET-TAIL") {
		t.Errorf("a stranger reads a version: %+v", strangerPage)
	}
	c := decode[promptJSON](t, s.Do("GET", mine+"/"+p.ID, token, ""), http.StatusOK)
	if c.Content != v2 || c.Price != 8 {
		t.Errorf("creator's view after approval %+v", c)
	}

	// A third version rejected: the reason is the creator's, version 2
	// stays live.
	decode[map[string]any](t, s.Do("PATCH", mine+"/"+p.ID, token, mustJSON(map[string]any{"version": c.Version, "content": "Three", "change_note": "Shorter."})), http.StatusOK)
	decode[map[string]any](t, s.Do("POST", mine+"/"+p.ID+"/submit", token, ""), http.StatusOK)
	apitest.WantError(t, s.Do("POST", mine+"/"+p.ID+"/submit", token, ""), http.StatusConflict, "The next version of this prompt is already in review.")
	if d := decode[map[string]any](t, s.Do("POST", adminAPI+"reviews/"+p.ID, boss, `{"decision":"reject","reason":"Too short."}`), http.StatusOK); d["state"] != "published" ||
		d["review_reason"] != nil || d["pending_state"] != "rejected" || d["pending_review_reason"] != "Too short." {
		t.Errorf("rejection of the next version answered %v", d)
	}
	rejected := decode[struct {
		Pending *struct {
			State        string  `json:"state"`
			ReviewReason *string `json:"review_reason"`
		} `json:"pending"`
		Content string `json:"content"`
	}](t, s.Do("GET", mine+"/"+p.ID, token, ""), http.StatusOK)
	if rejected.Pending == nil || rejected.Pending.State != "rejected" || rejected.Pending.ReviewReason == nil || *rejected.Pending.ReviewReason != "Too short." ||
		rejected.Content != v2 {
		t.Errorf("after the rejection %+v", rejected)
	}
	if page := decode[pagedPrompt](t, s.Do("GET", "/api/v1/prompts/"+p.ID, buyer, ""), http.StatusOK); *page.Content != v2 || page.CurrentVersion != 2 {
		t.Errorf("a rejected version went live: %+v", page)
	}
}

// hasNull: m has key, and it is null.
func hasNull(m map[string]any, key string) bool {
	v, ok := m[key]
	return ok && v == nil
}
