package httpx_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"aiwork/shared/httpx"
)

// builtApp writes a tiny build: a stylesheet with its .br and .gz copies
// (distinct bytes, so the test sees which one went out), a script with a
// .gz copy only, an image, and index.html with both copies.
func builtApp(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html":           "<!doctype html><title>app</title>",
		"index.html.br":        "index-br",
		"index.html.gz":        "index-gz",
		"assets/app-1.css":     "body{color:red}",
		"assets/app-1.css.br":  "css-br",
		"assets/app-1.css.gz":  "css-gz",
		"assets/app-1.js":      "console.log(1)",
		"assets/app-1.js.gz":   "js-gz",
		"assets/photo.png":     "\x89PNG",
		"assets/plain-2.js":    "export{}",
		"assets/photo.png.gz":  "never sent: an image is not compressible",
		"assets/lone-3.css.br": "a copy without its original",
	}
	for name, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func get(t *testing.T, h http.Handler, method, path string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSPANegotiatesPrecompressedCopies(t *testing.T) {
	h := httpx.SPA(builtApp(t))
	cases := []struct {
		path, acceptEncoding   string
		wantEncoding, wantBody string
	}{
		{"/assets/app-1.css", "", "", "body{color:red}"},
		{"/assets/app-1.css", "gzip", "gzip", "css-gz"},
		{"/assets/app-1.css", "gzip, deflate, br, zstd", "br", "css-br"},
		{"/assets/app-1.css", "br;q=0.5, gzip", "gzip", "css-gz"},
		{"/assets/app-1.css", "gzip;q=0.8, br;q=0.9", "br", "css-br"},
		{"/assets/app-1.css", "br;q=0, gzip;q=0", "", "body{color:red}"},
		{"/assets/app-1.css", "identity", "", "body{color:red}"},
		{"/assets/app-1.css", "*", "br", "css-br"},
		{"/assets/app-1.css", "br;q=0, *;q=0.1", "gzip", "css-gz"},
		{"/assets/app-1.css", "*;q=0", "", "body{color:red}"},
		{"/assets/app-1.css", "x-gzip", "gzip", "css-gz"},
		{"/assets/app-1.css", "BR", "br", "css-br"},
		{"/assets/app-1.css", "br;q=high, gzip;q=0.1", "gzip", "css-gz"},
		{"/assets/app-1.css", "deflate", "", "body{color:red}"},
		{"/assets/app-1.js", "br, gzip", "gzip", "js-gz"},
		{"/assets/app-1.js", "br", "", "console.log(1)"},
		{"/assets/plain-2.js", "br, gzip", "", "export{}"},
		{"/marketplace", "br, gzip", "br", "index-br"},
		{"/", "gzip", "gzip", "index-gz"},
	}
	for _, c := range cases {
		res := get(t, h, http.MethodGet, c.path, map[string]string{"Accept-Encoding": c.acceptEncoding})
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s with Accept-Encoding %q: status %d, want 200", c.path, c.acceptEncoding, res.StatusCode)
			continue
		}
		if got := res.Header.Get("Content-Encoding"); got != c.wantEncoding {
			t.Errorf("%s with Accept-Encoding %q: Content-Encoding %q, want %q", c.path, c.acceptEncoding, got, c.wantEncoding)
		}
		if got := body(t, res); got != c.wantBody {
			t.Errorf("%s with Accept-Encoding %q: body %q, want %q", c.path, c.acceptEncoding, got, c.wantBody)
		}
		// Every answer for a compressible file varies by Accept-Encoding, the uncompressed ones too.
		if got := res.Header.Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
			t.Errorf("%s with Accept-Encoding %q: Vary %q, want [Accept-Encoding]", c.path, c.acceptEncoding, got)
		}
	}
}

func TestSPAKeepsTypesAndCachingOfCompressedCopies(t *testing.T) {
	h := httpx.SPA(builtApp(t))
	cases := []struct{ path, wantType, wantCache string }{
		{"/assets/app-1.css", "text/css; charset=utf-8", "public, max-age=31536000, immutable"},
		{"/assets/app-1.js", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
		{"/registry", "text/html; charset=utf-8", "no-cache"},
	}
	for _, c := range cases {
		res := get(t, h, http.MethodGet, c.path, map[string]string{"Accept-Encoding": "gzip"})
		if got := res.Header.Get("Content-Type"); got != c.wantType {
			t.Errorf("%s: Content-Type %q, want %q", c.path, got, c.wantType)
		}
		if got := res.Header.Get("Cache-Control"); got != c.wantCache {
			t.Errorf("%s: Cache-Control %q, want %q", c.path, got, c.wantCache)
		}
	}
}

func TestSPASendsImagesAsTheyAre(t *testing.T) {
	res := get(t, httpx.SPA(builtApp(t)), http.MethodGet, "/assets/photo.png", map[string]string{"Accept-Encoding": "gzip, br"})
	if got := res.Header.Get("Content-Encoding"); got != "" {
		t.Errorf("png: Content-Encoding %q, want none", got)
	}
	if got := res.Header.Get("Vary"); got != "" {
		t.Errorf("png: Vary %q, want none", got)
	}
	if got := body(t, res); got != "\x89PNG" {
		t.Errorf("png: body %q", got)
	}
}

func TestSPAHeadAndRangeOnCompressedCopy(t *testing.T) {
	h := httpx.SPA(builtApp(t))
	head := get(t, h, http.MethodHead, "/assets/app-1.css", map[string]string{"Accept-Encoding": "br"})
	if head.StatusCode != http.StatusOK || head.Header.Get("Content-Encoding") != "br" || head.Header.Get("Content-Length") != "6" {
		t.Errorf("HEAD: status %d, Content-Encoding %q, Content-Length %q; want 200, br, 6 (the .br copy's)",
			head.StatusCode, head.Header.Get("Content-Encoding"), head.Header.Get("Content-Length"))
	}
	if got := body(t, head); got != "" {
		t.Errorf("HEAD: body %q, want none", got)
	}
	// A range is of the bytes sent: the compressed copy's.
	part := get(t, h, http.MethodGet, "/assets/app-1.css", map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=0-2"})
	if part.StatusCode != http.StatusPartialContent || part.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("Range: status %d, Content-Encoding %q; want 206, gzip", part.StatusCode, part.Header.Get("Content-Encoding"))
	}
	if got := body(t, part); got != "css" {
		t.Errorf("Range: body %q, want %q", got, "css")
	}
}

func TestSPAConditionalRequest(t *testing.T) {
	h := httpx.SPA(builtApp(t))
	first := get(t, h, http.MethodGet, "/assets/app-1.css", map[string]string{"Accept-Encoding": "br"})
	again := get(t, h, http.MethodGet, "/assets/app-1.css", map[string]string{"Accept-Encoding": "br", "If-Modified-Since": first.Header.Get("Last-Modified")})
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("If-Modified-Since its Last-Modified: status %d, want 304", again.StatusCode)
	}
}
