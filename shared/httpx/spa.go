package httpx

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// SPA serves a built single-page app from dir: existing files as they are
// (hashed assets cached for a year), and index.html for any other path so the
// client router can take it. Compressible files go out precompressed when
// the build wrote a .br or .gz copy the client accepts (serveFile).
func SPA(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		clean := path.Clean("/" + r.URL.Path)
		full := filepath.Join(dir, filepath.FromSlash(clean))
		if info, err := os.Stat(full); err == nil && !info.IsDir() {
			if strings.HasPrefix(clean, "/assets/") {
				w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			}
			serveFile(w, r, full, info)
			return
		}
		index := filepath.Join(dir, "index.html")
		info, err := os.Stat(index)
		if err != nil {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("The web app is not built yet: run `make run` (or `npm run build` in webapp/).\n"))
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		serveFile(w, r, index, info)
	})
}
