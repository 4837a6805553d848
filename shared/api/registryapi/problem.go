package registryapi

import (
	"encoding/json"
	"net/http"
)

// problem is an error answer in the official registry's shape: RFC 9457
// problem details (title, status, detail) as its server answers, with
// "error" repeating the detail as its OpenAPI document describes errors.
type problem struct {
	Title   string `json:"title"`
	Status  int    `json:"status"`
	Detail  string `json:"detail"`
	Message string `json:"error"`
}

func (p *problem) Error() string { return p.Detail }

func problemf(status int, detail string) *problem {
	return &problem{Title: http.StatusText(status), Status: status, Detail: detail, Message: detail}
}

func badRequest(detail string) *problem { return problemf(http.StatusBadRequest, detail) }

// serverNotFound is the official answer for an unknown server or version.
func serverNotFound() *problem { return problemf(http.StatusNotFound, "Server not found") }

func endpointNotFound() *problem {
	return problemf(http.StatusNotFound, "Endpoint not found. The registry answers GET "+ServersPath+
		", "+ServersPath+"/{serverName}/versions and "+ServersPath+"/{serverName}/versions/{version}.")
}

// writeProblem answers p. Errors are not cached: a server enabled again
// shows at once.
func writeProblem(w http.ResponseWriter, p *problem) {
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}
