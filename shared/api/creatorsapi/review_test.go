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

type reviewJSON struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Content string `json:"content"`
	Version int    `json:"version"`
	Creator struct {
		UserID        string `json:"user_id"`
		DisplayName   string `json:"display_name"`
		PayoutsStatus string `json:"payouts_status"`
	} `json:"creator"`
	Decisions []struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	} `json:"decisions"`
}

type queueJSON struct {
	Items []reviewJSON `json:"items"`
}

type cardJSON struct {
	ID string `json:"id"`
}

func (s *stack) marketplace(token, query string) []string {
	s.T.Helper()
	list := decode[struct {
		Items []cardJSON `json:"items"`
	}](s.T, s.Do("GET", "/api/v1/prompts/"+query, token, ""), http.StatusOK)
	var ids []string
	for _, c := range list.Items {
		ids = append(ids, c.ID)
	}
	return ids
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// A prompt goes draft → in review → rejected (with the reason its creator
// reads) → in review → published, each decision in the audit log; a paid
// prompt of a creator without payouts is not approved; only a prompt in
// review is decided.
func TestReviewFlow(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	uid, token := s.creator("hal", false)
	boss := s.Admin("boss")
	_, buyer := s.User("buyer")
	p := s.draft(token, "Reviewed plan", 7)

	apitest.WantError(t, s.Do("POST", adminAPI+"reviews/"+p.ID, boss, `{"decision":"approve"}`), http.StatusConflict,
		"Only a prompt in review can be approved or rejected; this one is draft.")
	apitest.WantError(t, s.Do("GET", adminAPI+"reviews", token, ""), http.StatusForbidden, "Admin access required.")
	apitest.WantError(t, s.Do("PATCH", adminAPI+"prompts/"+p.ID, boss, `{"version":1,"published":true}`), http.StatusConflict,
		"A creator's prompt is published by approving it in the review queue.")
	decode[promptJSON](t, s.Do("POST", mine+"/"+p.ID+"/submit", token, ""), http.StatusOK)

	q := decode[queueJSON](t, s.Do("GET", adminAPI+"reviews?kind=prompt", boss, ""), http.StatusOK)
	if len(q.Items) != 1 || q.Items[0].ID != p.ID || q.Items[0].Content != secretContent("Reviewed plan") || q.Items[0].Creator.UserID != uid ||
		q.Items[0].Creator.DisplayName != "hal Studio" || q.Items[0].Creator.PayoutsStatus != "none" || len(q.Items[0].Decisions) != 0 {
		t.Fatalf("queue %+v", q)
	}
	if a := decode[queueJSON](t, s.Do("GET", adminAPI+"reviews?kind=agent", boss, ""), http.StatusOK); len(a.Items) != 0 {
		t.Errorf("agents' queue %+v", a)
	}
	apitest.WantError(t, s.Do("GET", adminAPI+"reviews?kind=song", boss, ""), http.StatusBadRequest, "kind must be prompt or agent")
	apitest.WantError(t, s.Do("POST", adminAPI+"reviews/"+p.ID, boss, `{"decision":"reject"}`), http.StatusBadRequest,
		"A rejection needs a reason: the creator reads it.")
	apitest.WantError(t, s.Do("POST", adminAPI+"reviews/"+p.ID, boss, `{"decision":"maybe"}`), http.StatusBadRequest, "decision must be approve or reject")
	apitest.WantError(t, s.Do("POST", adminAPI+"reviews/"+p.ID, boss, `{"decision":"approve"}`), http.StatusConflict,
		"Set up payouts before selling a paid prompt.")

	decode[map[string]any](t, s.Do("POST", adminAPI+"reviews/"+p.ID, boss, `{"decision":"reject","reason":"Too vague."}`), http.StatusOK)
	got := decode[promptJSON](t, s.Do("GET", mine+"/"+p.ID, token, ""), http.StatusOK)
	if got.State != "rejected" || got.ReviewReason == nil || *got.ReviewReason != "Too vague." {
		t.Fatalf("rejected %+v", got)
	}
	if q := decode[queueJSON](t, s.Do("GET", adminAPI+"reviews", boss, ""), http.StatusOK); len(q.Items) != 0 {
		t.Fatalf("queue after the decision %+v", q)
	}
	// Edited and submitted again: the queue shows the earlier decision.
	decode[promptJSON](t, s.Do("PATCH", mine+"/"+p.ID, token, mustJSON(map[string]any{"version": got.Version, "description": "Sharper."})), http.StatusOK)
	decode[promptJSON](t, s.Do("POST", mine+"/"+p.ID+"/submit", token, ""), http.StatusOK)
	q = decode[queueJSON](t, s.Do("GET", adminAPI+"reviews", boss, ""), http.StatusOK)
	if len(q.Items) != 1 || len(q.Items[0].Decisions) != 1 || q.Items[0].Decisions[0].Decision != "reject" || q.Items[0].Decisions[0].Reason != "Too vague." {
		t.Fatalf("queue %+v", q)
	}
	if contains(s.marketplace(buyer, "?limit=60"), p.ID) {
		t.Fatal("a prompt in review is listed")
	}

	s.EnablePayouts(uid)
	decode[map[string]any](t, s.Do("POST", adminAPI+"reviews/"+p.ID, boss, `{"decision":"approve"}`), http.StatusOK)
	got = decode[promptJSON](t, s.Do("GET", mine+"/"+p.ID, token, ""), http.StatusOK)
	if got.State != "published" || got.ReviewReason != nil {
		t.Fatalf("approved %+v", got)
	}
	if !contains(s.marketplace(buyer, "?limit=60"), p.ID) || !contains(s.marketplace("", "?q=reviewed&limit=60"), p.ID) {
		t.Fatal("an approved prompt is not listed")
	}
	apitest.WantError(t, s.Do("POST", adminAPI+"reviews/"+p.ID, boss, `{"decision":"approve"}`), http.StatusConflict,
		"Only a prompt in review can be approved or rejected; this one is published.")

	audit := decode[struct {
		Items []struct {
			Action   string `json:"action"`
			TargetID string `json:"target_id"`
		} `json:"items"`
	}](t, s.Do("GET", adminAPI+"audit", boss, ""), http.StatusOK)
	var actions []string
	for _, a := range audit.Items {
		if a.TargetID == p.ID {
			actions = append(actions, a.Action)
		}
	}
	if strings.Join(actions, ",") != "review.approve,review.reject" {
		t.Errorf("audit of the prompt %v, want the approval then the rejection (newest first)", actions)
	}
}

// A draft, a prompt in review and a rejected one are nowhere in the
// marketplace: not listed, not found by search, not on the prompt page,
// not bought, not used for free; their content is the creator's (and the
// admins') alone.
func TestUnpublishedNeverLeaks(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, token := s.creator("ivy", false)
	boss := s.Admin("boss")
	_, buyer := s.User("buyer")
	draft := s.draft(token, "Hidden draft", 3)
	inReview := s.draft(token, "Hidden review", 3)
	decode[promptJSON](t, s.Do("POST", mine+"/"+inReview.ID+"/submit", token, ""), http.StatusOK)
	rejected := s.draft(token, "Hidden rejected", 3)
	decode[promptJSON](t, s.Do("POST", mine+"/"+rejected.ID+"/submit", token, ""), http.StatusOK)
	decode[map[string]any](t, s.Do("POST", adminAPI+"reviews/"+rejected.ID, boss, `{"decision":"reject","reason":"No."}`), http.StatusOK)

	for _, who := range []string{"", buyer, token} {
		var all strings.Builder
		for _, path := range []string{"/api/v1/prompts/?limit=60", "/api/v1/prompts/featured", "/api/v1/prompts/?q=hidden&limit=60",
			"/api/v1/prompts/?sort=price-high&limit=60", "/api/v1/prompts/?category=business&limit=60"} {
			w := s.Do("GET", path, who, "")
			if w.Code != http.StatusOK {
				t.Fatalf("GET %s = %d", path, w.Code)
			}
			all.WriteString(w.Body.String())
		}
		for _, p := range []promptJSON{draft, inReview, rejected} {
			if strings.Contains(all.String(), p.ID) || strings.Contains(all.String(), "SECRET-TAIL") {
				t.Errorf("%s listed to %q", p.ID, who)
			}
			apitest.WantError(t, s.Do("GET", "/api/v1/prompts/"+p.ID, who, ""), http.StatusNotFound, "Prompt not found")
			if who != "" {
				apitest.WantError(t, s.Do("POST", "/api/v1/payments/create-checkout-session", who, `{"prompt_id":"`+p.ID+`"}`), http.StatusNotFound, "Prompt not found")
				apitest.WantError(t, s.Do("POST", "/api/v1/prompts/use-free-prompt/"+p.ID, who, ""), http.StatusNotFound, "Prompt not found")
			}
		}
	}
}

// A suspended creator's prompts leave the marketplace at once and are not
// sold; their buyers still read them; unsuspending lists them again. A
// creator cannot buy their own prompt.
func TestSuspendCreator(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	uid, token := s.creator("jay", true)
	boss := s.Admin("boss")
	buyerID, buyer := s.User("buyer")
	_, other := s.User("other")
	p := s.published(token, boss, "Suspended plan", 9)
	if !contains(s.marketplace("", "?limit=60"), p.ID) {
		t.Fatal("approved prompt not listed")
	}
	apitest.WantError(t, s.Do("POST", "/api/v1/payments/create-checkout-session", token, `{"prompt_id":"`+p.ID+`"}`), http.StatusForbidden,
		"You cannot buy your own prompt.")
	apitest.WantError(t, s.Do("POST", "/api/v1/prompts/"+p.ID+"/rate", token, `{"rating":5}`), http.StatusForbidden, "You cannot rate your own prompt.")
	apitest.WantError(t, s.Do("POST", "/api/v1/prompts/use-free-prompt/"+p.ID, token, ""), http.StatusForbidden,
		"You cannot use your own prompt for free: it is yours already.")
	_, err := s.St.GrantOwnership(context.Background(), buyerID, domain.Ownership{PromptID: p.ID, Source: domain.SourcePurchase, OrderID: "o-1", Amount: 9, CreatedAt: time.Now()})
	storetest.Must(t, err, "grant")

	creators := decode[struct {
		Items []struct {
			ID        string         `json:"id"`
			Suspended bool           `json:"suspended"`
			Payouts   string         `json:"payouts_status"`
			Prompts   map[string]int `json:"prompts"`
		} `json:"items"`
		Total int `json:"total"`
	}](t, s.Do("GET", adminAPI+"creators", boss, ""), http.StatusOK)
	if creators.Total != 1 || len(creators.Items) != 1 || creators.Items[0].ID != uid || creators.Items[0].Payouts != "enabled" ||
		creators.Items[0].Prompts["published"] != 1 {
		t.Fatalf("creators %+v", creators)
	}

	decode[map[string]any](t, s.Do("POST", adminAPI+"creators/"+uid+"/suspend", boss, ""), http.StatusOK)
	if contains(s.marketplace("", "?limit=60"), p.ID) || contains(s.marketplace("", "?q=suspended&limit=60"), p.ID) {
		t.Fatal("a suspended creator's prompt is still listed")
	}
	apitest.WantError(t, s.Do("POST", "/api/v1/payments/create-checkout-session", other, `{"prompt_id":"`+p.ID+`"}`), http.StatusConflict,
		"This prompt is not for sale right now.")
	page := decode[struct {
		Content string `json:"content"`
	}](t, s.Do("GET", "/api/v1/prompts/"+p.ID, buyer, ""), http.StatusOK)
	if page.Content != secretContent("Suspended plan") {
		t.Errorf("the buyer lost the content: %q", page.Content)
	}
	apitest.WantError(t, s.Do("GET", "/api/v1/prompts/"+p.ID, other, ""), http.StatusNotFound, "Prompt not found")
	apitest.WantError(t, s.Do("POST", mine, token, promptBody("more", 1)), http.StatusForbidden,
		"Your creator account is suspended: your prompts are off the marketplace.")
	apitest.WantError(t, s.Do("POST", adminAPI+"creators/nobody/suspend", boss, ""), http.StatusNotFound, "Creator not found.")

	decode[map[string]any](t, s.Do("POST", adminAPI+"creators/"+uid+"/unsuspend", boss, ""), http.StatusOK)
	if !contains(s.marketplace("", "?limit=60"), p.ID) {
		t.Fatal("unsuspended creator's prompt not listed again")
	}
	audit := decode[struct {
		Items []struct {
			Action   string `json:"action"`
			TargetID string `json:"target_id"`
		} `json:"items"`
	}](t, s.Do("GET", adminAPI+"audit", boss, ""), http.StatusOK)
	var actions []string
	for _, a := range audit.Items {
		if a.TargetID == uid {
			actions = append(actions, a.Action)
		}
	}
	if strings.Join(actions, ",") != "creator.unsuspend,creator.suspend" {
		t.Errorf("audit of the creator %v", actions)
	}
}
