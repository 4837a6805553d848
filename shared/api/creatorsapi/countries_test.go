package creatorsapi_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"aiwork/shared/api/creatorsapi"
)

// The creator studio's country select offers exactly the countries the
// API accepts, in the same order (one list in each language, compared
// here so they cannot drift).
func TestWebCountriesMatchTheAPI(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "webapp", "src", "features", "creators", "countries.ts"))
	if err != nil {
		t.Fatal(err)
	}
	list := regexp.MustCompile(`(?s)STRIPE_CONNECT_COUNTRIES[^=]*=\s*\[(.*?)\]`).FindSubmatch(src)
	if list == nil {
		t.Fatal("countries.ts has no STRIPE_CONNECT_COUNTRIES array")
	}
	var web []string
	for _, m := range regexp.MustCompile(`'([A-Z]{2})'`).FindAllSubmatch(list[1], -1) {
		web = append(web, string(m[1]))
	}
	if !slices.Equal(web, creatorsapi.StripeConnectCountries) {
		t.Errorf("the web's countries %v\ndiffer from the API's %v", web, creatorsapi.StripeConnectCountries)
	}
}
