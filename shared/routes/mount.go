package routes

import (
	"fmt"
	"net/http"
	"strings"

	"aiwork/shared/httpx"
)

// Mount builds one handler the way API Gateway routes: each group's prefixes
// go to its function's handler, other /api/ paths get a JSON 404, and the
// rest goes to app (the web app), when given.
func Mount(handlers map[string]http.Handler, app http.Handler) (http.Handler, error) {
	mux := http.NewServeMux()
	for _, g := range Groups {
		h, ok := handlers[g.Function]
		if !ok {
			continue // not built yet in this run
		}
		for _, p := range g.Prefixes {
			mux.Handle(p, h)
			if strings.HasSuffix(p, "/") {
				mux.Handle(strings.TrimSuffix(p, "/"), h)
			}
		}
	}
	for name := range handlers {
		if !known(name) {
			return nil, fmt.Errorf("mount: no route group %q", name)
		}
	}
	mux.Handle("/api/", httpx.NotFoundHandler())
	if app != nil {
		mux.Handle("/", app)
	}
	return mux, nil
}

func known(function string) bool {
	for _, g := range Groups {
		if g.Function == function {
			return true
		}
	}
	return false
}
