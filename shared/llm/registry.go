package llm

import "time"

// Registry answers the adapter serving each provider: the real one when it
// is configured, else the demo model.
type Registry struct {
	adapters map[string]Provider
	demo     map[string]bool
}

// NewRegistry starts with every catalogue provider served by the demo model.
func NewRegistry(demoDelay time.Duration) *Registry {
	r := &Registry{adapters: map[string]Provider{}, demo: map[string]bool{}}
	for _, p := range Providers {
		r.adapters[p.ID] = &Demo{Provider: p.Label, Delay: demoDelay}
		r.demo[p.ID] = true
	}
	return r
}

// Use makes adapter serve provider id instead of the demo model.
func (r *Registry) Use(id string, adapter Provider) {
	r.adapters[id] = adapter
	r.demo[id] = false
}

// Adapter answers provider id's adapter and whether it is the demo model.
func (r *Registry) Adapter(id string) (Provider, bool, bool) {
	a, ok := r.adapters[id]
	return a, r.demo[id], ok
}
