package routes

import (
	"fmt"
	"net/http"
	"strings"

	"aiwork/shared/httpx"
	"aiwork/shared/lambdas"
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
		handle(mux, g.Prefixes, h)
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

// Function builds the handler of a function that mounts several route
// groups (lambdas.Function.Groups) from theirs, by group name: each group's
// routes go to its handler, any other path gets a JSON 404. The function's
// Lambda serves it, and Mount mounts it under the function's name.
func Function(function string, groups map[string]http.Handler) (http.Handler, error) {
	f, ok := lambdas.Get(function)
	if !ok {
		return nil, fmt.Errorf("mount: no function %q", function)
	}
	mux := http.NewServeMux()
	for name, h := range groups {
		prefixes, ok := f.Groups[name]
		if !ok {
			return nil, fmt.Errorf("mount: %s has no route group %q", function, name)
		}
		handle(mux, prefixes, h)
	}
	// A group the function declares but was given no handler for would
	// answer every one of its routes 404: refuse it at start instead.
	for name := range f.Groups {
		if _, ok := groups[name]; !ok {
			return nil, fmt.Errorf("mount: %s needs a handler for its route group %q", function, name)
		}
	}
	mux.Handle("/", httpx.NotFoundHandler())
	return mux, nil
}

// handle routes each prefix to h (a subtree's with and without its final
// "/").
func handle(mux *http.ServeMux, prefixes []string, h http.Handler) {
	for _, p := range prefixes {
		mux.Handle(p, h)
		if strings.HasSuffix(p, "/") {
			mux.Handle(strings.TrimSuffix(p, "/"), h)
		}
	}
}
