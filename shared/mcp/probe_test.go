package mcp_test

import (
	"context"
	"net/http"
	"os"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/domain"
	"aiwork/shared/mcp"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// The real store is what the prober runs against.
var _ mcp.ProbeStore = (*store.Store)(nil)

// noCredentials fails the test if any request carries a credential header.
func noCredentials(t *testing.T) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for _, h := range []string{"Authorization", "X-Api-Key", "Cookie"} {
				if r.Header.Get(h) != "" {
					t.Errorf("probe sent %s", h)
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

type clock struct{ now atomic.Int64 }

func (c *clock) Now() time.Time          { return time.Unix(c.now.Load(), 0) }
func (c *clock) Advance(d time.Duration) { c.now.Add(int64(d / time.Second)) }

func listed(id, endpoint string, active bool) domain.MCPServer {
	return domain.MCPServer{
		ID: id, Name: "test/" + id, Title: id, EndpointURL: endpoint, Transport: domain.TransportStreamableHTTP,
		ModelType: "reference", IsActive: active, APIKeyRequired: true, APIKeyHeader: "X-API-Key", Source: "seed",
	}
}

func TestProbeAll(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := storetest.New(t)

	// A server whose tool list the test changes between probes.
	changing := sdk.NewServer(&sdk.Implementation{Name: "changing", Version: "1"}, nil)
	changing.AddTool(&sdk.Tool{Name: "first", InputSchema: map[string]any{"type": "object"}}, okTool)
	changingSrv := sdkServer(t, 0, nil, func(http.Handler) http.Handler {
		return noCredentials(t)(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return changing }, nil))
	})
	const oauth = `Bearer resource_metadata="https://auth.example.com/.well-known/oauth-protected-resource"`
	servers := []domain.MCPServer{
		listed("up", sdkServer(t, 3, nil, noCredentials(t)), true),
		listed("changing", changingSrv, true),
		listed("needs-key", sdkServer(t, 1, nil, func(http.Handler) http.Handler {
			return noCredentials(t)(answer(401, nil, "")(nil))
		}), true),
		listed("needs-oauth", sdkServer(t, 1, nil, func(http.Handler) http.Handler {
			return noCredentials(t)(answer(401, map[string]string{"WWW-Authenticate": oauth}, "")(nil))
		}), true),
		listed("dead", deadPort(t), true),
		listed("inactive", sdkServer(t, 1, nil, noCredentials(t)), false),
	}
	for _, s := range servers {
		storetest.Must(t, st.UpsertMCPServer(ctx, s), "upsert "+s.ID)
	}
	// What the dead server offered when it was last up.
	oldTools := []domain.MCPTool{{Name: "old-tool", Description: "From last week."}}
	storetest.Must(t, st.SaveMCPHealth(ctx, "dead", domain.MCPHealth{
		Status: domain.HealthUp, ToolsCount: 1, ToolsHash: "feed", Tools: oldTools, ProtocolVersion: "2025-06-18",
	}), "seed dead health")

	clk := &clock{}
	clk.now.Store(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC).Unix())
	p := &mcp.Prober{Store: st, Client: loopback.Client(), Now: clk.Now, Timeout: 10 * time.Second}
	health := func() map[string]domain.MCPHealth {
		t.Helper()
		all, err := st.ListMCPServers(ctx)
		storetest.Must(t, err, "list")
		out := map[string]domain.MCPHealth{}
		for _, s := range all {
			out[s.ID] = s.Health
		}
		return out
	}
	probe := func() map[string]domain.MCPHealth {
		t.Helper()
		n, err := p.ProbeAll(ctx)
		storetest.Must(t, err, "probe all")
		if n != 5 {
			t.Errorf("probed %d servers, want the 5 active ones", n)
		}
		return health()
	}

	first := probe()
	at := clk.Now().UTC().Format(time.RFC3339)
	if h := first["up"]; h.Status != domain.HealthUp || h.ToolsCount != 3 || len(h.Tools) != 3 || h.ToolsHash == "" ||
		h.ProtocolVersion == "" || h.ServerInfo == nil || h.ServerInfo.Name != "test-server" || h.CheckedAt != at || h.Error != "" {
		t.Errorf("up: %+v", h)
	}
	for _, id := range []string{"needs-key", "needs-oauth"} {
		if h := first[id]; h.Status != domain.HealthAuthRequired || h.Error == "" || h.CheckedAt != at {
			t.Errorf("%s: %+v, want auth_required with a reason", id, h)
		}
	}
	if h := first["dead"]; h.Status != domain.HealthDown || h.Error == "" || h.ToolsHash != "feed" ||
		len(h.Tools) != 1 || !reflect.DeepEqual(h.Tools[0], oldTools[0]) || h.ToolsChangedAt != "" {
		t.Errorf("dead: %+v, want down keeping its last tools", h)
	}
	if h := first["inactive"]; h.Status != domain.HealthUnknown || h.CheckedAt != "" {
		t.Errorf("inactive: %+v, want never probed", h)
	}
	if h := first["changing"]; h.Status != domain.HealthUp || h.ToolsChangedAt != "" {
		t.Errorf("changing, first probe: %+v, want up with no change recorded", h)
	}

	// Same tools: no change recorded.
	clk.Advance(time.Hour)
	if h := probe()["changing"]; h.ToolsChangedAt != "" || h.ToolsHash != first["changing"].ToolsHash {
		t.Errorf("changing, unchanged: %+v", h)
	}

	// A new tool: the hash moves and the change is stamped now.
	changing.AddTool(&sdk.Tool{Name: "second", InputSchema: map[string]any{"type": "object"}}, okTool)
	clk.Advance(time.Hour)
	changedAt := clk.Now().UTC().Format(time.RFC3339)
	third := probe()["changing"]
	if third.ToolsChangedAt != changedAt || third.ToolsHash == first["changing"].ToolsHash || third.ToolsCount != 2 {
		t.Errorf("changing, after a new tool: %+v, want ToolsChangedAt %s", third, changedAt)
	}

	// Later probes keep the stamp until the tools change again.
	clk.Advance(time.Hour)
	if h := probe()["changing"]; h.ToolsChangedAt != changedAt {
		t.Errorf("changing, later: ToolsChangedAt = %q, want %q kept", h.ToolsChangedAt, changedAt)
	}
}

// countingStore is the real store, noting when each probe ends (its save).
type countingStore struct {
	*store.Store
	saved func()
}

func (c countingStore) SaveMCPHealth(ctx context.Context, id string, h domain.MCPHealth) error {
	c.saved()
	return c.Store.SaveMCPHealth(ctx, id, h)
}

// firstRequest calls start on the first request to each host, before it goes out.
type firstRequest struct {
	base  http.RoundTripper
	seen  sync.Map
	start func()
}

func (f *firstRequest) RoundTrip(r *http.Request) (*http.Response, error) {
	if _, dup := f.seen.LoadOrStore(r.URL.Host, true); !dup {
		f.start()
	}
	return f.base.RoundTrip(r)
}

// TestProbeAllConcurrency: probes overlap, but never more than Concurrency.
// A probe runs from its first request to its save, both inside its slot.
func TestProbeAllConcurrency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const limit = 2
	var (
		mu       sync.Mutex
		active   int
		most     int
		paired   = make(chan struct{})
		pairOnce sync.Once
	)
	start := func() {
		mu.Lock()
		active++
		most = max(most, active)
		if active == limit {
			pairOnce.Do(func() { close(paired) })
		}
		mu.Unlock()
		// Hold the first probes until they overlap, so the bound is exercised.
		select {
		case <-paired:
		case <-time.After(5 * time.Second):
		}
	}
	st := countingStore{Store: storetest.New(t), saved: func() { mu.Lock(); active--; mu.Unlock() }}
	for i := range 6 {
		id := string(rune('a' + i))
		storetest.Must(t, st.UpsertMCPServer(ctx, listed(id, sdkServer(t, 1, nil, nil), true)), "upsert")
	}
	hc := loopback.Client()
	hc.Transport = &firstRequest{base: hc.Transport, start: start}
	p := &mcp.Prober{Store: st, Client: hc, Concurrency: limit}
	n, err := p.ProbeAll(ctx)
	storetest.Must(t, err, "probe all")
	if n != 6 {
		t.Errorf("probed %d, want 6", n)
	}
	select {
	case <-paired:
	default:
		t.Error("probes never overlapped")
	}
	mu.Lock()
	defer mu.Unlock()
	if most > limit {
		t.Errorf("%d probes at once, want at most %d", most, limit)
	}
	all, err := st.ListMCPServers(ctx)
	storetest.Must(t, err, "list")
	for _, s := range all {
		if s.Health.Status != domain.HealthUp {
			t.Errorf("%s: %s (%s)", s.ID, s.Health.Status, s.Health.Error)
		}
	}
}
