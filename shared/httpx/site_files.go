package httpx

import (
	"net/http"
	"strings"
	"time"
)

// PublicPages are the app's pages a visitor can open without signing in
// that are worth a search engine's visit: the sitemap lists them. The
// others a visitor may reach are forms behind a link (password reset, email
// confirmation), hand-offs (auth callback, payment pages, /prompts), the
// /chat placeholder, or redirect to the login page. Each is in the web
// app's PUBLIC_PATHS (webapp/src/app/route-guard.ts; a test checks).
var PublicPages = []string{"/", "/marketplace", "/registry", "/agents", "/user-guide", "/privacy-policy", "/login", "/register"}

// CrawlDisallowed are the paths robots.txt keeps crawlers out of: the API,
// the signed-in areas and the local stack's own pages.
var CrawlDisallowed = []string{"/api/", "/dashboard", "/admin", "/dev/"}

// RobotsTxt is the site's robots.txt for a site at base (its public URL,
// no trailing slash): every page allowed but CrawlDisallowed, and where the
// sitemap is.
func RobotsTxt(base string) string {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\n")
	for _, p := range CrawlDisallowed {
		b.WriteString("Disallow: " + p + "\n")
	}
	b.WriteString("\nSitemap: " + base + "/sitemap.xml\n")
	return b.String()
}

// SitemapXML lists PublicPages at base (the sitemaps.org 0.9 format).
func SitemapXML(base string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, p := range PublicPages {
		b.WriteString("  <url><loc>" + xmlEscape(base+p) + "</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

var xmlEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace

// Site is the built app of dir (SPA) with its robots.txt and sitemap.xml,
// made for the public URL (PublicURL: publicURL when set, else the
// request's own address): they name the site's address, which a file in
// the build cannot know.
func Site(dir, publicURL string) http.Handler {
	app := SPA(dir)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var text, ctype string
		switch r.URL.Path {
		case "/robots.txt":
			text, ctype = RobotsTxt(PublicURL(r, publicURL)), "text/plain; charset=utf-8"
		case "/sitemap.xml":
			text, ctype = SitemapXML(PublicURL(r, publicURL)), "application/xml; charset=utf-8"
		default:
			app.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "", time.Time{}, strings.NewReader(text))
	})
}
