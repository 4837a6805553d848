package creatorsapi_test

import (
	"net/http"
	"testing"

	"aiwork/shared/api/apitest"
)

type creatorRef struct {
	Username    string `json:"username"`
	DisplayName string `json:"display_name"`
}

type marketCard struct {
	ID      string      `json:"id"`
	Creator *creatorRef `json:"creator"`
}

// An approved prompt is sold "by" its creator: the marketplace's cards,
// its search and the prompt page name them (renamed, the cards follow);
// the creator's public page shows their profile and published prompts,
// and is not found for an unknown or suspended creator.
func TestCreatorOnCardsAndPublicPage(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	uid, token := s.creator("kim", true)
	boss := s.Admin("boss")
	live := s.draft(token, "Public plan", 6)
	decode[promptJSON](t, s.Do("POST", mine+"/"+live.ID+"/submit", token, ""), http.StatusOK)
	decode[map[string]any](t, s.Do("POST", adminAPI+"reviews/"+live.ID, boss, `{"decision":"approve"}`), http.StatusOK)
	hidden := s.draft(token, "Private draft", 6)
	stock := decode[marketCard](t, s.Do("POST", adminAPI+"prompts", boss, promptBody("Stock plan", 2)), http.StatusCreated)

	cards := func(path string) map[string]*creatorRef {
		list := decode[struct {
			Items []marketCard `json:"items"`
		}](t, s.Do("GET", path, "", ""), http.StatusOK)
		out := map[string]*creatorRef{}
		for _, c := range list.Items {
			out[c.ID] = c.Creator
		}
		return out
	}
	want := creatorRef{Username: uid, DisplayName: "kim Studio"}
	for _, path := range []string{"/api/v1/prompts/?limit=60", "/api/v1/prompts/?q=plan&limit=60"} {
		got := cards(path)
		if c := got[live.ID]; c == nil || *c != want {
			t.Errorf("%s: creator %+v, want %+v", path, c, want)
		}
		if c, ok := got[stock.ID]; !ok || c != nil {
			t.Errorf("%s: the platform's prompt has creator %+v (listed %v), want null", path, c, ok)
		}
	}
	page := decode[marketCard](t, s.Do("GET", "/api/v1/prompts/"+live.ID, "", ""), http.StatusOK)
	if page.Creator == nil || *page.Creator != want {
		t.Errorf("prompt page creator %+v", page.Creator)
	}

	decode[profileJSON](t, s.Do("PUT", me, token, `{"display_name":"Kim Renamed","bio":"New bio.","country":"US"}`), http.StatusOK)
	if c := cards("/api/v1/prompts/?limit=60")[live.ID]; c == nil || c.DisplayName != "Kim Renamed" {
		t.Errorf("after the rename the card names %+v", c)
	}

	pub := decode[struct {
		Username    string `json:"username"`
		DisplayName string `json:"display_name"`
		Bio         string `json:"bio"`
		Country     string `json:"country"`
		Prompts     []struct {
			ID      string  `json:"id"`
			Content *string `json:"content"`
		} `json:"prompts"`
	}](t, s.Do("GET", "/api/v1/creators/"+uid, "", ""), http.StatusOK)
	if pub.Username != uid || pub.DisplayName != "Kim Renamed" || pub.Bio != "New bio." || pub.Country != "US" ||
		len(pub.Prompts) != 1 || pub.Prompts[0].ID != live.ID || pub.Prompts[0].Content != nil {
		t.Fatalf("public page %+v (draft %s must not show)", pub, hidden.ID)
	}
	apitest.WantError(t, s.Do("GET", "/api/v1/creators/nobody-here", "", ""), http.StatusNotFound, "Creator not found.")
	decode[map[string]any](t, s.Do("POST", adminAPI+"creators/"+uid+"/suspend", boss, ""), http.StatusOK)
	apitest.WantError(t, s.Do("GET", "/api/v1/creators/"+uid, "", ""), http.StatusNotFound, "Creator not found.")
}
