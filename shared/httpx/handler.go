package httpx

import (
	"log/slog"
	"net/http"
	"runtime/debug"
)

// HandlerFunc is an http handler that returns its error instead of writing it.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Handle adapts h to http.Handler: a returned error becomes the JSON error
// answer, and a panic becomes a logged 500 instead of a dropped connection.
func Handle(h HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				slog.ErrorContext(r.Context(), "panic", "panic", p, "stack", string(debug.Stack()))
				WriteError(w, r, Errorf(CodeInternal, "Internal error."))
			}
		}()
		if err := h(w, r); err != nil {
			WriteError(w, r, err)
		}
	})
}

// NotFoundHandler answers every request with the JSON 404 used for unknown API paths.
func NotFoundHandler() http.Handler {
	return Handle(func(w http.ResponseWriter, r *http.Request) error {
		return NotFound("Not found: " + r.Method + " " + r.URL.Path)
	})
}

// WithNotFound wraps a ServeMux so paths it has no route for get the JSON 404
// (and wrong methods a JSON 405) rather than the mux's plain-text answers.
func WithNotFound(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern == "" {
			// The mux's own answer: 404 or 405 in plain text. Replace it.
			rec := &statusProbe{header: http.Header{}}
			h.ServeHTTP(rec, r)
			if rec.status == http.StatusMethodNotAllowed {
				w.Header().Set("Allow", rec.header.Get("Allow"))
				WriteJSON(w, http.StatusMethodNotAllowed, errorBody{Detail: "Method " + r.Method + " is not allowed here.", Code: CodeInvalid})
				return
			}
			NotFoundHandler().ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// statusProbe records what the mux's fallback handler would answer.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header         { return p.header }
func (p *statusProbe) Write(b []byte) (int, error) { return len(b), nil }
func (p *statusProbe) WriteHeader(s int)           { p.status = s }
