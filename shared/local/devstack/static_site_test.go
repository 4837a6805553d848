package devstack_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aiwork/shared/local/devstack"
)

// The devserver serves the built app's robots.txt and sitemap for its
// public URL (not the app's index.html, which Lighthouse found invalid),
// and the app's precompressed copies.
func TestDevserverServesSiteFilesAndPrecompressedAssets(t *testing.T) {
	static := t.TempDir()
	for name, body := range map[string]string{
		"index.html":        "<!doctype html><title>app</title>",
		"assets/a-1.css":    "body{}",
		"assets/a-1.css.gz": "gzipped",
	} {
		path := filepath.Join(static, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, _ := newDevstack(t, static, func(c *devstack.Config) { c.DefaultPublicURL("https://aiwork.example") })

	get := func(path, acceptEncoding string) (*http.Response, string) {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", acceptEncoding)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		b, _ := io.ReadAll(rec.Result().Body)
		return rec.Result(), string(b)
	}
	res, robots := get("/robots.txt", "")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
		t.Errorf("/robots.txt: %d %q, want 200 text/plain", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, line := range []string{"Disallow: /api/", "Disallow: /dashboard", "Disallow: /admin", "Disallow: /dev/", "Sitemap: https://aiwork.example/sitemap.xml"} {
		if !strings.Contains(robots, line+"\n") {
			t.Errorf("/robots.txt lacks %q:\n%s", line, robots)
		}
	}
	res, sitemap := get("/sitemap.xml", "")
	if res.StatusCode != 200 || !strings.Contains(sitemap, "<loc>https://aiwork.example/marketplace</loc>") {
		t.Errorf("/sitemap.xml: %d\n%s", res.StatusCode, sitemap)
	}
	res, css := get("/assets/a-1.css", "gzip, br")
	if res.Header.Get("Content-Encoding") != "gzip" || css != "gzipped" || res.Header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("/assets/a-1.css: Content-Encoding %q, Vary %q, body %q; want the .gz copy", res.Header.Get("Content-Encoding"), res.Header.Get("Vary"), css)
	}
}
