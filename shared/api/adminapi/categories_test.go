package adminapi_test

import (
	"net/http"
	"strings"
	"testing"

	"aiwork/shared/api/apitest"
)

type categoryJSON struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	PromptCount int    `json:"prompt_count"`
}

// Categories: create, a name taken (ignoring case) refused, rename, delete
// only when empty; users see the change; every change audited.
func TestAdminCategories(t *testing.T) {
	t.Parallel()
	s := newStack(t, seeded)
	_, boss := s.admin("boss")

	list := decode[struct{ Items []categoryJSON }](t, s.Do("GET", admin+"categories", boss, ""), http.StatusOK).Items
	if len(list) != 4 {
		t.Fatalf("categories %+v", list)
	}
	c := decode[categoryJSON](t, s.Do("POST", admin+"categories", boss, `{"name":"  Data   Science "}`), http.StatusCreated)
	if c.Name != "Data Science" || !strings.HasPrefix(c.ID, "data-science-") {
		t.Fatalf("created %+v", c)
	}
	apitest.WantErrorContaining(t, s.Do("POST", admin+"categories", boss, `{"name":"data science"}`), http.StatusConflict, "exists already")
	apitest.WantErrorContaining(t, s.Do("POST", admin+"categories", boss, `{"name":"writing"}`), http.StatusConflict, "exists already")
	apitest.WantErrorContaining(t, s.Do("POST", admin+"categories", boss, `{"name":"   "}`), http.StatusBadRequest, "name is required")
	apitest.WantErrorContaining(t, s.Do("POST", admin+"categories", boss, `{"name":"`+strings.Repeat("n", 61)+`"}`), http.StatusBadRequest, "at most 60")
	apitest.WantErrorContaining(t, s.Do("POST", admin+"categories", boss, `{"name":5}`), http.StatusBadRequest, "'name' must be")

	renamed := decode[categoryJSON](t, s.Do("PATCH", admin+"categories/"+c.ID, boss, `{"name":"Data"}`), http.StatusOK)
	if renamed.Name != "Data" {
		t.Fatalf("renamed %+v", renamed)
	}
	// The old name is free again; the new one is taken.
	apitest.WantErrorContaining(t, s.Do("PATCH", admin+"categories/writing", boss, `{"name":"DATA"}`), http.StatusConflict, "exists already")
	cats := decode[[]struct{ ID, Name string }](t, s.Do("GET", "/api/v1/prompts/categories", "", ""), http.StatusOK)
	found := false
	for _, x := range cats {
		found = found || (x.ID == c.ID && x.Name == "Data")
	}
	if !found {
		t.Errorf("users' categories %+v lack the renamed one", cats)
	}

	apitest.WantErrorContaining(t, s.Do("DELETE", admin+"categories/writing", boss, ""), http.StatusConflict, "has 1 prompts")
	if w := s.Do("DELETE", admin+"categories/"+c.ID, boss, ""); w.Code != http.StatusNoContent {
		t.Fatalf("delete an empty category: %d %s", w.Code, w.Body)
	}
	apitest.WantError(t, s.Do("DELETE", admin+"categories/"+c.ID, boss, ""), http.StatusNotFound, "Category not found.")
	decode[categoryJSON](t, s.Do("POST", admin+"categories", boss, `{"name":"Data Science"}`), http.StatusCreated)

	audit := decode[pageJSON[auditJSON]](t, s.Do("GET", admin+"audit", boss, ""), http.StatusOK)
	actions := []string{}
	for _, a := range audit.Items {
		actions = append(actions, a.Action)
	}
	if strings.Join(actions, ",") != "category.create,category.delete,category.rename,category.create" {
		t.Errorf("audit %v (refused changes leave no line)", actions)
	}
}
