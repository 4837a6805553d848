package httpx_test

import (
	"encoding/xml"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"aiwork/shared/httpx"
)

func TestSiteServesRobotsTxt(t *testing.T) {
	h := httpx.Site(builtApp(t), "https://app.example.com/")
	res := get(t, h, http.MethodGet, "/robots.txt", nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200", res.StatusCode)
	}
	if got := res.Header.Get("Content-Type"); got != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type %q, want text/plain", got)
	}
	got := body(t, res)
	for _, line := range []string{"User-agent: *", "Allow: /", "Disallow: /api/", "Disallow: /dashboard", "Disallow: /admin", "Disallow: /dev/",
		"Sitemap: https://app.example.com/sitemap.xml"} {
		if !slices.Contains(strings.Split(got, "\n"), line) {
			t.Errorf("robots.txt has no line %q:\n%s", line, got)
		}
	}
}

func TestSiteServesSitemapOfPublicPages(t *testing.T) {
	h := httpx.Site(builtApp(t), "")
	req := get(t, h, http.MethodGet, "/sitemap.xml", nil)
	if got := req.Header.Get("Content-Type"); got != "application/xml; charset=utf-8" {
		t.Errorf("Content-Type %q, want application/xml", got)
	}
	var set struct {
		XMLName xml.Name
		URLs    []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal([]byte(body(t, req)), &set); err != nil {
		t.Fatal(err)
	}
	if set.XMLName.Space != "http://www.sitemaps.org/schemas/sitemap/0.9" || set.XMLName.Local != "urlset" {
		t.Errorf("root %v, want sitemaps.org 0.9 urlset", set.XMLName)
	}
	var locs []string
	for _, u := range set.URLs {
		locs = append(locs, u.Loc)
	}
	// No PUBLIC_URL: the request's own address (httptest's example.com).
	want := []string{"http://example.com/", "http://example.com/marketplace", "http://example.com/registry", "http://example.com/agents",
		"http://example.com/user-guide", "http://example.com/privacy-policy", "http://example.com/login", "http://example.com/register"}
	if !slices.Equal(locs, want) {
		t.Errorf("sitemap lists %q, want %q", locs, want)
	}
}

// The sitemap names only pages the web app shows a visitor.
func TestPublicPagesArePublicInTheApp(t *testing.T) {
	src, err := os.ReadFile("../../webapp/src/app/route-guard.ts")
	if err != nil {
		t.Fatal(err)
	}
	list := regexp.MustCompile(`(?s)PUBLIC_PATHS[^=]*=\s*\[(.*?)\]`).FindSubmatch(src)
	if list == nil {
		t.Fatal("no PUBLIC_PATHS in route-guard.ts")
	}
	for _, p := range httpx.PublicPages {
		if !strings.Contains(string(list[1]), "'"+p+"'") {
			t.Errorf("sitemap page %s is not in the web app's PUBLIC_PATHS", p)
		}
	}
}

func TestSiteLeavesOtherPathsToTheApp(t *testing.T) {
	res := get(t, httpx.Site(builtApp(t), ""), http.MethodGet, "/marketplace", nil)
	if got := body(t, res); got != "<!doctype html><title>app</title>" {
		t.Errorf("/marketplace: %q, want index.html", got)
	}
}
