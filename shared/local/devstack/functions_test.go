package devstack_test

import (
	"net/http"
	"slices"
	"testing"

	"aiwork/shared/lambdas"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store/storetest"
)

// The devserver mounts a handler for every function of shared/lambdas that
// serves API routes, and no other: the same groups Lambda runs.
func TestHandlerMountsEveryAPIFunction(t *testing.T) {
	st, sc := storetest.NewWithConfig(t)
	cfg := devstack.ConfigFor(sc, []byte("functions-test-secret-0123456789abcdef"), 5, "whsec_functions")
	var mounted []string
	cfg.WrapGroup = func(fn string, h http.Handler) http.Handler {
		mounted = append(mounted, fn)
		return h
	}
	if _, err := devstack.Handler(st, cfg, ""); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range lambdas.All {
		if f.API() {
			want = append(want, f.Name)
		}
	}
	slices.Sort(mounted)
	slices.Sort(want)
	if !slices.Equal(mounted, want) {
		t.Errorf("mounted %v, want the API functions %v", mounted, want)
	}
}
