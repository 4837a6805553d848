package creatorsapi

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// Limits of a creator's profile, in characters.
const (
	MaxDisplayName = 60
	MaxBio         = 500
)

// StripeConnectCountries are the countries a creator may sell from: those
// where Stripe lets a platform create a connected (Express) account, as
// https://stripe.com/global lists them (ISO 3166-1 alpha-2; India is by
// invitation only there, so it is left out).
var StripeConnectCountries = []string{
	"AE", "AT", "AU", "BE", "BG", "BR", "CA", "CH", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GB", "GI", "GR",
	"HK", "HR", "HU", "IE", "IT", "JP", "LI", "LT", "LU", "LV", "MT", "MX", "MY", "NL", "NO", "NZ", "PL", "PT", "RO",
	"SE", "SG", "SI", "SK", "TH", "US",
}

type profileInput struct {
	DisplayName *string `json:"display_name"`
	Bio         *string `json:"bio"`
	Country     *string `json:"country"`
}

type payoutsView struct {
	Status         string `json:"status"`
	ChargesEnabled bool   `json:"charges_enabled"`
	PayoutsEnabled bool   `json:"payouts_enabled"`
}

type profileView struct {
	Username    string      `json:"username"`
	DisplayName string      `json:"display_name"`
	Bio         string      `json:"bio"`
	Country     string      `json:"country"`
	Suspended   bool        `json:"suspended"`
	Payouts     payoutsView `json:"payouts"`
}

func presentProfile(c domain.Creator) profileView {
	return profileView{Username: c.Username, DisplayName: c.DisplayName, Bio: c.Bio, Country: c.Country, Suspended: c.Suspended,
		Payouts: payoutsView{Status: c.PayoutsStatus, ChargesEnabled: c.ChargesEnabled, PayoutsEnabled: c.PayoutsEnabled}}
}

// msgNotCreator is what a user who has no creator profile yet is told.
const msgNotCreator = "You are not a creator yet: save your creator profile first."

// getProfile answers the caller's creator profile (404 until the first
// PUT).
func (s *Service) getProfile(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	c, err := s.st.GetCreator(r.Context(), uid)
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound(msgNotCreator)
	}
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, presentProfile(c))
	return nil
}

// putProfile replaces the caller's display name, bio and country (the
// first makes them a creator). Every field is required: a field left out
// is refused rather than cleared.
func (s *Service) putProfile(w http.ResponseWriter, r *http.Request) error {
	var in profileInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	c, err := checkProfile(in)
	if err != nil {
		return err
	}
	uid, _ := auth.UserID(r.Context())
	u, err := s.st.GetUser(r.Context(), uid)
	if err != nil {
		return err
	}
	c.UserID, c.Username = uid, u.Username
	c, err = s.st.PutCreator(r.Context(), c, s.opts.Now())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, presentProfile(c))
	return nil
}

// checkProfile holds a profile to its rules: the first broken one as a 400.
func checkProfile(in profileInput) (domain.Creator, error) {
	if in.DisplayName == nil || in.Bio == nil || in.Country == nil {
		return domain.Creator{}, httpx.Invalid("display_name, bio and country are required (bio may be empty).")
	}
	name, bio, country := strings.TrimSpace(*in.DisplayName), strings.TrimSpace(*in.Bio), strings.ToUpper(strings.TrimSpace(*in.Country))
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return domain.Creator{}, httpx.Invalid("Display name is required.")
	case n > MaxDisplayName:
		return domain.Creator{}, httpx.Invalid("Display name must be at most 60 characters.")
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return domain.Creator{}, httpx.Invalid("Display name must not contain control characters.")
	}
	if utf8.RuneCountInString(bio) > MaxBio {
		return domain.Creator{}, httpx.Invalid("Bio must be at most 500 characters.")
	}
	if !slices.Contains(StripeConnectCountries, country) {
		return domain.Creator{}, httpx.Invalid("Country must be a two-letter country code where Stripe pays creators (for example US, GB or DE).")
	}
	return domain.Creator{DisplayName: name, Bio: bio, Country: country}, nil
}
