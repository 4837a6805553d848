package creatorsapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/api/apitest"
)

func TestProfile(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	uid, token := s.User("ada")
	apitest.WantError(t, s.Do("GET", me, "", ""), http.StatusUnauthorized, "")
	apitest.WantError(t, s.Do("GET", me, token, ""), http.StatusNotFound, "You are not a creator yet: save your creator profile first.")

	p := decode[profileJSON](t, s.Do("PUT", me, token, `{"display_name":" Ada Prompts ","bio":"Plans.","country":"gb"}`), http.StatusOK)
	if p.Username != uid || p.DisplayName != "Ada Prompts" || p.Bio != "Plans." || p.Country != "GB" || p.Payouts.Status != "none" ||
		p.Payouts.ChargesEnabled || p.Payouts.PayoutsEnabled {
		t.Errorf("profile %+v", p)
	}
	got := decode[profileJSON](t, s.Do("GET", me, token, ""), http.StatusOK)
	if got != p {
		t.Errorf("GET %+v, PUT answered %+v", got, p)
	}
	// A second PUT replaces the fields and keeps the payout account.
	s.Update("USER#"+uid, "CREATOR", "SET payouts_status = :s", map[string]types.AttributeValue{":s": &types.AttributeValueMemberS{Value: "pending"}})
	p = decode[profileJSON](t, s.Do("PUT", me, token, `{"display_name":"Ada","bio":"","country":"DE"}`), http.StatusOK)
	if p.DisplayName != "Ada" || p.Bio != "" || p.Country != "DE" || p.Payouts.Status != "pending" {
		t.Errorf("second PUT %+v", p)
	}
}

func TestProfileBadInput(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	_, token := s.User("bob")
	for _, c := range []struct{ body, want string }{
		{`{"display_name":"","bio":"","country":"US"}`, "Display name is required."},
		{`{"display_name":"` + strings.Repeat("é", 61) + `","bio":"","country":"US"}`, "Display name must be at most 60 characters."},
		{`{"display_name":"B","bio":"` + strings.Repeat("b", 501) + `","country":"US"}`, "Bio must be at most 500 characters."},
		{`{"display_name":"B","bio":"","country":"XX"}`, "Country must be a two-letter country code where Stripe pays creators (for example US, GB or DE)."},
		{`{"display_name":"B","bio":"","country":"IR"}`, "Country must be a two-letter country code where Stripe pays creators (for example US, GB or DE)."},
		{`{"display_name":"B","country":"US"}`, "display_name, bio and country are required (bio may be empty)."},
		{`{"display_name":1,"bio":"","country":"US"}`, "Field 'display_name' must be a string, not number."},
		{`{"display_name":`, "Malformed JSON in request body."},
	} {
		apitest.WantError(t, s.Do("PUT", me, token, c.body), http.StatusBadRequest, c.want)
	}
	apitest.WantError(t, s.Do("GET", me, token, ""), http.StatusNotFound, "You are not a creator yet: save your creator profile first.")
}
