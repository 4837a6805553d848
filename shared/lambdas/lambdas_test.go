package lambdas_test

import (
	"slices"
	"testing"

	"aiwork/shared/config"
	"aiwork/shared/lambdas"
)

// Every entry is complete and consistent: a unique name, a size, secrets
// the loaders know, chat limits the loader reads, and exactly one way of
// being invoked (routes, jobs or a trigger).
func TestTableEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range lambdas.All {
		if f.Name == "" || seen[f.Name] {
			t.Errorf("name %q empty or listed twice", f.Name)
		}
		seen[f.Name] = true
		if f.MemoryMB < 128 || f.Timeout <= 0 {
			t.Errorf("%s: memory %d MB, timeout %v", f.Name, f.MemoryMB, f.Timeout)
		}
		ways := 0
		for _, b := range []bool{f.API(), len(f.Jobs) > 0, f.Trigger != ""} {
			if b {
				ways++
			}
		}
		if ways != 1 {
			t.Errorf("%s: invoked %d ways (routes, jobs, trigger), want 1", f.Name, ways)
		}
		for _, s := range f.Secrets {
			if !slices.Contains(config.SecretNames, s) {
				t.Errorf("%s reads secret %s, which config.SecretNames does not list", f.Name, s)
			}
		}
		for path := range f.Methods {
			if !slices.Contains(f.Routes, path) {
				t.Errorf("%s: a method for %s, which is not one of its routes", f.Name, path)
			}
		}
		if f.API() && len(f.Access.Table) == 0 {
			t.Errorf("%s serves routes but has no table access", f.Name)
		}
	}
	if !slices.Equal(lambdas.ChatLimitSettings, config.ChatLimitVars) {
		t.Errorf("chat limit settings %v, config reads %v", lambdas.ChatLimitSettings, config.ChatLimitVars)
	}
}

// A function that mounts several route groups gives each of its routes to
// exactly one of them.
func TestGroupsSplitRoutes(t *testing.T) {
	for _, f := range lambdas.All {
		if f.Groups == nil {
			continue
		}
		var split []string
		for name, routes := range f.Groups {
			if name == "" || len(routes) == 0 {
				t.Errorf("%s: group %q without routes", f.Name, name)
			}
			split = append(split, routes...)
		}
		slices.Sort(split)
		all := slices.Sorted(slices.Values(f.Routes))
		if !slices.Equal(split, all) {
			t.Errorf("%s: its groups serve %v, its routes are %v", f.Name, split, all)
		}
	}
}
