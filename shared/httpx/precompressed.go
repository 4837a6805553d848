package httpx

import (
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// precompressedEncodings: the files the web app's build writes beside each
// compressible asset (webapp/vite.config.ts, precompress), best first, with
// the suffix each is stored under.
var precompressedEncodings = []struct{ coding, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// compressibleTypes are the media types worth compressing; images such as
// PNG or WOFF2 fonts are compressed already.
var compressibleTypes = []string{"text/", "application/javascript", "application/json", "application/xml", "image/svg+xml", "application/manifest+json"}

// serveFile answers with the file at full (HEAD, ranges and
// If-Modified-Since as http.ServeContent handles them). For a compressible
// type it sends the precompressed copy (full+".br" or ".gz") that the
// client's Accept-Encoding ranks highest, with Content-Encoding and the
// original's Content-Type, and always Vary: Accept-Encoding, so a cache
// never hands a compressed copy to a client that did not ask for one.
// original is full's FileInfo, as the caller found it.
func serveFile(w http.ResponseWriter, r *http.Request, full string, original os.FileInfo) {
	ctype := mime.TypeByExtension(filepath.Ext(full))
	if ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	path, coding := full, ""
	if compressible(ctype) {
		w.Header().Add("Vary", "Accept-Encoding")
		path, coding = bestVariant(full, r.Header.Get("Accept-Encoding"))
	}
	f, err := os.Open(path)
	if err != nil {
		http.Error(w, "file not readable", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	if coding != "" {
		w.Header().Set("Content-Encoding", coding)
		// http.ServeContent leaves the length out once an encoding is set
		// (it cannot know whether a later writer compresses); a whole
		// copy's is known. A range's stays ServeContent's to frame.
		if info, err := f.Stat(); err == nil && r.Header.Get("Range") == "" {
			w.Header().Set("Content-Length", strconv.FormatInt(info.Size(), 10))
		}
	}
	// The original's name and time whichever copy is sent: one
	// Last-Modified per URL, whatever the encoding.
	http.ServeContent(w, r, filepath.Base(full), original.ModTime(), f)
}

// bestVariant is the precompressed copy of full to send for this
// Accept-Encoding, or full itself with "" when none fits.
func bestVariant(full, acceptEncoding string) (string, string) {
	var available []string
	for _, e := range precompressedEncodings {
		if fileExists(full + e.suffix) {
			available = append(available, e.coding)
		}
	}
	coding := preferredEncoding(acceptEncoding, available)
	for _, e := range precompressedEncodings {
		if e.coding == coding {
			return full + e.suffix, coding
		}
	}
	return full, ""
}

func compressible(ctype string) bool {
	for _, t := range compressibleTypes {
		if strings.HasPrefix(ctype, t) {
			return true
		}
	}
	return false
}

func fileExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}
