package promptsapi_test

import (
	"net/http"
	"strings"
	"testing"

	"aiwork/shared/seeddata"
)

// Paid content never leaves the API except to a caller with access: checked
// for every seeded prompt, on every endpoint that answers prompts.
func TestSeededContentNeverLeaks(t *testing.T) {
	t.Parallel()
	s := newStack(t, 5)
	prompts, err := seeddata.Prompts()
	if err != nil {
		t.Fatal(err)
	}
	buyerID, buyer := s.User("buyer")
	_, stranger := s.User("stranger")
	_, claimer := s.User("claimer")
	owned, claimed := prompts[0].ID, prompts[1].ID
	s.buy(buyerID, owned)
	decode[useFreeJSON](t, s.Do("POST", "/api/v1/prompts/use-free-prompt/"+claimed, claimer, ""), http.StatusOK)

	type view struct{ who, token string }
	views := []view{{"visitor", ""}, {"stranger", stranger}, {"buyer", buyer}, {"claimer", claimer}}
	bodies := map[string]string{}
	for _, v := range views {
		var all strings.Builder
		for _, path := range []string{"/api/v1/prompts/", "/api/v1/prompts/featured", "/api/v1/prompts/?sort=price-high&limit=60", "/api/v1/prompts/?filter=mine", "/api/v1/prompts/?q=plan&limit=60"} {
			w := s.Do("GET", path, v.token, "")
			if w.Code != http.StatusOK {
				t.Fatalf("%s GET %s = %d", v.who, path, w.Code)
			}
			all.WriteString(w.Body.String())
		}
		for _, p := range prompts {
			w := s.Do("GET", "/api/v1/prompts/"+p.ID, v.token, "")
			if w.Code != http.StatusOK {
				t.Fatalf("%s GET %s = %d", v.who, p.ID, w.Code)
			}
			all.WriteString(w.Body.String())
		}
		bodies[v.who] = all.String()
	}
	for _, p := range prompts {
		if len([]rune(p.Content)) <= 260 {
			t.Fatalf("%s: content too short to tell preview from content", p.ID)
		}
		// A piece of the content well past the preview, JSON-escaped as the API writes it.
		tail := jsonEscaped(string([]rune(p.Content)[220:250]))
		for who, body := range bodies {
			allowed := (who == "buyer" && p.ID == owned) || (who == "claimer" && p.ID == claimed)
			if got := strings.Contains(body, tail); got != allowed {
				t.Errorf("%s sees the content of %s: %v, want %v", who, p.ID, got, allowed)
			}
		}
	}
}

func jsonEscaped(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "<", `\u003c`, ">", `\u003e`, "&", `\u0026`)
	return r.Replace(s)
}
