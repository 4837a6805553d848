package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"golang.org/x/sync/errgroup"

	"aiwork/shared/api/mcpapi"
	"aiwork/shared/api/registryapi"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/local/devstack"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/routes"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
)

// The scale part (DESIGN §10, scale): each listing at a small size and
// large ones, seeded straight into their own tables of the local engine
// (the store's batch load, the registry sync, the store's writes; never
// the API), each request timed and metered through the whole stack in
// this process, the sizes interleaved request by request so that all of
// them see the same machine.
const (
	scaleSmall = 100
	// scalePrompts are the large catalogues by default: 30,000 is about
	// what this machine seeds in two minutes (2 cores, one engine);
	// scaleMaxPrompts takes the place of the largest with -scale-max.
	scaleMaxPrompts = 100_000
	scaleServers    = 5_000
	scaleConvs      = 10_000
	// scaleRatio is the budget: a listing's p99 at a large size within
	// this many times its p99 at scaleSmall.
	scaleRatio = 2.0
	// scaleSamples bounds the requests of one listing at one size, and
	// scaleSampleTime the time of one listing's sizes together (a listing
	// that reads its whole catalogue is slow at 5,000 or 10,000).
	scaleSamples    = 300
	scaleMinSamples = 20
	scaleSampleTime = 12 * time.Second
)

var scalePrompts = []int{10_000, 30_000}

func (b *bench) scaleTimeout() time.Duration {
	// Most of it is seeding and the registry's full sync: 5 to 10 minutes
	// here, 100,000 prompts 10 more.
	if b.scaleMax {
		return 30 * time.Minute
	}
	return 15 * time.Minute
}

// scaleStack is the metered stack on one table.
type scaleStack struct {
	st   *store.Store
	base string
	stop func()
}

func (b *bench) startScaleStack(ctx context.Context, m *tableMeter, table string) (*scaleStack, error) {
	sc := config.Store{TableName: table, Endpoint: b.dynamo, Region: "us-east-1"}
	st := m.newStore(sc)
	if err := st.EnsureTable(ctx); err != nil {
		return nil, err
	}
	cfg := devstack.ConfigFor(sc, []byte("bench-jwt-secret-0123456789abcdef0123456789"), 5, "whsec_bench")
	cfg.WrapGroup = m.wrapGroup
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		return nil, err
	}
	srv := httptest.NewServer(h)
	return &scaleStack{st: st, base: srv.URL, stop: func() {
		srv.Close()
		// The engine keeps every table in memory: give it back.
		_, _ = st.DB().DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	}}, nil
}

// scaleListing is one listing at several sizes, the first the reference.
type scaleListing struct {
	name  string
	unit  string // what the sizes count
	sizes []int
	// get answers one request's URL and token at sizes[i].
	get func(i int) (string, string)
	// pageRCU: the listing page budget applies (≤ listingPageRCU).
	pageRCU bool
	note    string
}

// scaleFigures are one size's samples of a listing.
type scaleFigures struct {
	times []time.Duration
	read  float64 // RCU per request, mean
	scans int
}

func (b *bench) scale(ctx context.Context) error {
	m := &tableMeter{}
	client := &http.Client{Timeout: time.Minute}
	var listings []scaleListing

	sizes := append([]int{scaleSmall}, scalePrompts...)
	if b.scaleMax {
		sizes[len(sizes)-1] = scaleMaxPrompts
	}
	markets, seedNote, err := b.scaleMarketplace(ctx, m, client, sizes)
	for _, mk := range markets {
		defer mk.stack.stop()
	}
	if err != nil {
		return fmt.Errorf("marketplace: %w", err)
	}
	word := scaleVocabulary[7]
	for _, l := range []struct {
		name, query string
		last        bool
	}{{"marketplace first page", "", false}, {"marketplace search q=" + word, "?q=" + word, false}, {"marketplace last page", "", true}} {
		listings = append(listings, scaleListing{name: l.name, unit: "prompts", sizes: sizes, pageRCU: true, note: seedNote,
			get: func(i int) (string, string) {
				if l.last {
					return markets[i].stack.base + "/api/v1/prompts/?cursor=" + url.QueryEscape(markets[i].lastCursor), ""
				}
				return markets[i].stack.base + "/api/v1/prompts/" + l.query, ""
			}})
	}

	regs, syncRows, err := b.scaleRegistry(ctx, m)
	for _, r := range regs {
		defer r.stop()
	}
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	for _, l := range []struct{ name, path string }{
		{"registry page (GET /mcp-servers/)", "/api/v1/mcp-servers/"},
		{"registry API page (/api/registry/v0.1/servers)", routes.RegistryPrefix + "v0.1/servers"},
	} {
		listings = append(listings, scaleListing{name: l.name, unit: "servers", sizes: []int{scaleSmall, scaleServers}, pageRCU: true,
			get: func(i int) (string, string) { return regs[i].base + l.path, "" }})
	}

	conv, err := b.scaleHistory(ctx, m, client)
	if conv.stack != nil {
		defer conv.stack.stop()
	}
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	for _, l := range []struct{ name, query string }{
		{"History first page", ""}, {"History search q=" + word, "?q=" + word},
	} {
		listings = append(listings, scaleListing{name: l.name, unit: "conversations", sizes: []int{scaleSmall, scaleConvs}, pageRCU: l.query == "",
			get: func(i int) (string, string) {
				return conv.stack.base + routes.ChatConversationsPath + l.query, conv.tokens[i]
			}})
	}

	for _, l := range listings {
		figs, err := sampleScale(ctx, m, client, l)
		if err != nil {
			return fmt.Errorf("%s: %w", l.name, err)
		}
		var at []string
		for i, f := range figs {
			at = append(at, fmt.Sprintf("%s %s: p50 %.2f ms, %.1f RCU (%d requests)", grouped(l.sizes[i]), l.unit, ms(percentile(f.times, 50)), f.read, len(f.times)))
		}
		for i := 1; i < len(figs); i++ {
			b.rows = append(b.rows, scaleRow(l, i, figs[0], figs[i]))
		}
		note := l.note
		if last := figs[len(figs)-1]; last.read > 4*max(figs[0].read, 1) {
			// A request that reads more as the list grows reads it whole.
			note = fmt.Sprintf("its reads grow with the list (%.0f× the items, %.0f× the units): it reads the whole list on every request",
				float64(l.sizes[len(l.sizes)-1])/float64(l.sizes[0]), last.read/figs[0].read)
		}
		b.note("scale %s, interleaved: %s%s", l.name, strings.Join(at, "; "), noteSuffix(note))
	}
	b.rows = append(b.rows, syncRows...)
	return nil
}

func noteSuffix(n string) string {
	if n == "" {
		return ""
	}
	return "; " + n
}

// scaleRow is a listing's p99 at sizes[i] against its first size, with
// the read units of a request at each beside them.
func scaleRow(l scaleListing, i int, small, large scaleFigures) row {
	p99l, p99s := ms(percentile(large.times, 99)), ms(percentile(small.times, 99))
	ok := p99s > 0 && p99l/p99s <= scaleRatio && large.scans == 0 && small.scans == 0
	budget := fmt.Sprintf("p99 ratio ≤ %.0f", scaleRatio)
	if l.pageRCU {
		budget += fmt.Sprintf(", ≤ %s RCU", num(listingPageRCU))
		ok = ok && large.read <= listingPageRCU && small.read <= listingPageRCU
	}
	if large.scans+small.scans > 0 {
		budget += fmt.Sprintf(", no Scan (got %d)", large.scans+small.scans)
	}
	return row{name: fmt.Sprintf("scale %s, %s %s", l.name, grouped(l.sizes[i]), l.unit), ours: p99l, ref: p99s,
		oursText: fmt.Sprintf("%s ms  %s RCU", num(p99l), num(large.read)),
		refText:  fmt.Sprintf("%s ms  %s RCU (%s)", num(p99s), num(small.read), grouped(l.sizes[0])),
		budget:   budget, ok: ok}
}

// sampleScale times and meters l's requests at each size in turn, until
// scaleSamples each or scaleSampleTime (and at least scaleMinSamples
// each).
func sampleScale(ctx context.Context, m *tableMeter, client *http.Client, l scaleListing) ([]scaleFigures, error) {
	one := func(i int) (time.Duration, actionCost, error) {
		u, token := l.get(i)
		var took time.Duration
		c, err := m.measure(func() error {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			start := time.Now()
			res, err := client.Do(req)
			if err != nil {
				return err
			}
			defer res.Body.Close()
			var body json.RawMessage
			err = json.NewDecoder(res.Body).Decode(&body)
			took = time.Since(start)
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("GET %s: HTTP %d: %.200s", u, res.StatusCode, body)
			}
			return err
		})
		return took, c, err
	}
	// A warm-up of each: the first request dials and fills caches.
	for i := range l.sizes {
		if _, _, err := one(i); err != nil {
			return nil, err
		}
	}
	figs := make([]scaleFigures, len(l.sizes))
	start := time.Now()
	for n := 0; n < scaleSamples && (n < scaleMinSamples || time.Since(start) < scaleSampleTime); n++ {
		for i := range l.sizes {
			took, c, err := one(i)
			if err != nil {
				return nil, err
			}
			figs[i].times = append(figs[i].times, took)
			figs[i].read += c.read
			figs[i].scans += c.scans
		}
	}
	for i := range figs {
		figs[i].read /= float64(len(figs[i].times))
	}
	return figs, nil
}

// scaleVocabulary are the words the scale catalogue's titles are made of:
// each prompt has two, so a one-word search finds one prompt in 25.
var scaleVocabulary = []string{
	"budget", "email", "report", "slogan", "recipe", "summary", "outline", "pitch", "resume", "lesson",
	"poem", "story", "review", "agenda", "survey", "brief", "speech", "caption", "headline", "proposal",
	"memo", "invoice", "checklist", "roadmap", "tagline", "essay", "script", "newsletter", "abstract", "critique",
	"timeline", "glossary", "interview", "dialogue", "tutorial", "playbook", "persona", "forecast", "contract", "estimate",
	"profile", "bulletin", "campaign", "digest", "briefing", "manual", "letter", "sonnet", "limerick", "haiku",
}

// scaleCatalogue is n prompts for a benchmark catalogue: the sample
// prompts' content (so each card's preview has its real size), two words
// of scaleVocabulary as title, a description of those words as long as
// the sample's (so a card keeps its size while each prompt is listed
// under few words: few items to write), prices and times spread out.
func scaleCatalogue(n int) ([]domain.Prompt, error) {
	seed, err := seeddata.Prompts()
	if err != nil {
		return nil, err
	}
	v := len(scaleVocabulary)
	out := make([]domain.Prompt, n)
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range out {
		p := seed[i%len(seed)]
		p.ID = fmt.Sprintf("scale-%06d", i)
		p.Title = scaleVocabulary[i%v] + " " + scaleVocabulary[(i/v+i+1)%v]
		p.Description = strings.TrimSpace(strings.Repeat(p.Title+" ", len(p.Description)/(len(p.Title)+1)+1))
		p.CategoryID = seeddata.Categories[i%len(seeddata.Categories)].ID
		p.Price = float64(i%20) * 0.99
		p.CreatedAt = start.Add(time.Duration(i) * time.Minute)
		p.UpdatedAt = time.Time{}
		p.Unpublished, p.Featured, p.RatingSum, p.RatingCount = false, false, i%5*(i%7), i%7
		out[i] = p
	}
	return out, nil
}

// scaleMarket is a seeded catalogue and the cursor of its last page.
type scaleMarket struct {
	stack      *scaleStack
	lastCursor string
}

// scaleMarketplace seeds a catalogue of each size and finds each one's
// last page.
func (b *bench) scaleMarketplace(ctx context.Context, m *tableMeter, client *http.Client, sizes []int) (out []scaleMarket, seedNote string, err error) {
	var seeded []string
	var rate float64 // prompts a second, the last catalogue's
	for _, n := range sizes {
		s, err := b.startScaleStack(ctx, m, fmt.Sprintf("aiwork-bench-scale-prompts-%d", n))
		if err != nil {
			return out, "", err
		}
		out = append(out, scaleMarket{stack: s})
		start := time.Now()
		for _, c := range seeddata.Categories {
			if err := s.st.PutCategory(ctx, c); err != nil {
				return out, "", err
			}
		}
		ps, err := scaleCatalogue(n)
		if err != nil {
			return out, "", err
		}
		// In parts: a load holds its items in memory until written.
		for part := range slices.Chunk(ps, 10_000) {
			if err := s.st.BulkLoadPrompts(ctx, part); err != nil {
				return out, "", err
			}
		}
		took := time.Since(start)
		seeded = append(seeded, fmt.Sprintf("%s in %.1f s", grouped(n), took.Seconds()))
		rate = float64(n) / took.Seconds()
		// The last page: the cursor the page before it gave, walking the
		// list as a visitor does (24 cards a page).
		next := ""
		for {
			u := s.base + "/api/v1/prompts/"
			if next != "" {
				u += "?cursor=" + url.QueryEscape(next)
			}
			var page struct {
				NextCursor *string `json:"next_cursor"`
			}
			if err := getJSON(ctx, client, u, "", &page); err != nil {
				return out, "", err
			}
			if page.NextCursor == nil {
				break
			}
			next = *page.NextCursor
		}
		out[len(out)-1].lastCursor = next
	}
	seedNote = fmt.Sprintf("the catalogues seeded by the store's batch load (each prompt with its %d listing items): %s", 3*(2+2), strings.Join(seeded, ", "))
	if sizes[len(sizes)-1] < scaleMaxPrompts {
		seedNote += fmt.Sprintf("; %s prompts (-scale-max) would take about %.0f minutes to seed at this rate", grouped(scaleMaxPrompts), scaleMaxPrompts/rate/60)
	}
	return out, seedNote, nil
}

// getJSON reads a 200 answer into out.
func getJSON(ctx context.Context, client *http.Client, u, token string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: HTTP %d", u, res.StatusCode)
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// grouped writes n with thousands separators.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// registrySmallSyncs is how many syncs of scaleSmall servers give the
// reference's page times.
const registrySmallSyncs = 5

// scaleRegistry syncs scaleServers servers from a local registry speaking
// the official API into a fresh table (timed page by page and metered),
// and scaleSmall into others (registrySmallSyncs times: the reference's p99), and
// answers the stacks serving the first small table and the large one.
func (b *bench) scaleRegistry(ctx context.Context, m *tableMeter) (stacks []*scaleStack, rows []row, err error) {
	entries, err := officialEntries(filepath.Join(b.root, "shared", "seeddata", "mcp-servers.json"), scaleServers)
	if err != nil {
		return nil, nil, err
	}
	sync := func(table string, n int) (*scaleStack, []time.Duration, actionCost, error) {
		stub := &registryStub{entries: entries[:n]}
		srv := httptest.NewServer(stub)
		defer srv.Close()
		s, err := b.startScaleStack(ctx, m, table)
		if err != nil {
			return nil, nil, actionCost{}, err
		}
		syncer := &registry.Syncer{BaseURL: srv.URL, HTTP: &http.Client{Timeout: time.Minute}, Store: s.st, MaxPages: n/100 + 10}
		var stats registry.Stats
		var end time.Time
		c, err := m.measure(func() error {
			var err error
			stats, err = syncer.Run(ctx)
			end = time.Now()
			return err
		})
		if err == nil && stats.Upserted != n {
			err = fmt.Errorf("synced %d of %d servers (%d skipped)", stats.Upserted, n, stats.Skipped)
		}
		if err == nil {
			err = listsSynced(ctx, s.st, n)
		}
		return s, stub.pageTimes(end), c, err
	}
	var pagesS []time.Duration
	var costS actionCost
	for i := range registrySmallSyncs {
		s, pages, c, err := sync(fmt.Sprintf("aiwork-bench-scale-registry-%d-%d", scaleSmall, i), scaleSmall)
		if s != nil && i == 0 {
			stacks = append(stacks, s)
		} else if s != nil {
			s.stop()
		}
		if err != nil {
			return stacks, nil, err
		}
		pagesS, costS = append(pagesS, pages...), costS.plus(c)
	}
	costS = costS.times(1.0 / registrySmallSyncs)
	large, pagesL, costL, err := sync(fmt.Sprintf("aiwork-bench-scale-registry-%d", scaleServers), scaleServers)
	if large != nil {
		stacks = append(stacks, large)
	}
	if err != nil {
		return stacks, nil, err
	}
	perPage := func(c actionCost, pages int) (float64, float64) {
		return c.read / float64(pages), c.write / float64(pages)
	}
	rl, wl := perPage(costL, len(pagesL))
	rs, ws := perPage(costS, 1)
	p99l, p99s := ms(percentile(pagesL, 99)), ms(percentile(pagesS, 99))
	rows = append(rows, row{name: fmt.Sprintf("scale registry sync, a page of 100 of %s servers", grouped(scaleServers)),
		ours: p99l, ref: p99s,
		oursText: fmt.Sprintf("%s ms  %s RCU  %s WCU", num(p99l), num(rl), num(wl)),
		refText:  fmt.Sprintf("%s ms  %s RCU  %s WCU (%d)", num(p99s), num(rs), num(ws), scaleSmall),
		budget:   fmt.Sprintf("p99 ratio ≤ %.0f, no Scan", scaleRatio), ok: p99s > 0 && p99l/p99s <= scaleRatio && costL.scans == 0})
	b.note("scale registry sync: %s servers in the official list format (the seed snapshot's entries renamed, with the registry's own _meta) from a local registry, %d pages of 100 in %.1f s: %.0f RCU, %.0f WCU in %d table calls; a page p50 %.1f ms (at %d servers %.1f ms, %d syncs)",
		grouped(scaleServers), len(pagesL), sumDurations(pagesL).Seconds(), costL.read, costL.write, costL.calls,
		ms(percentile(pagesL, 50)), scaleSmall, ms(percentile(pagesS, 50)), len(pagesS))
	return stacks, rows, nil
}

// listsSynced checks that the n servers a sync wrote are in the lists the
// registry rows time (their first pages would be quick and empty
// otherwise): the registry page's count, and a full first page of the
// registry API.
func listsSynced(ctx context.Context, st *store.Store, n int) error {
	page, err := st.ListMCPServerPage(ctx, store.MCPListQuery{Limit: mcpapi.DefaultLimit})
	if err != nil {
		return err
	}
	if page.Count != n || len(page.Servers) != min(n, mcpapi.DefaultLimit) {
		return fmt.Errorf("the registry list has %d of the %d servers synced (%d on its first page)", page.Count, n, len(page.Servers))
	}
	api, err := st.ListMCPAPIPage(ctx, store.MCPAPIQuery{Limit: registryapi.DefaultLimit})
	if err != nil {
		return err
	}
	if len(api.Servers) != min(n, registryapi.DefaultLimit) {
		return fmt.Errorf("the registry API's first page has %d of the %d servers synced", len(api.Servers), n)
	}
	return nil
}

func sumDurations(ds []time.Duration) time.Duration {
	var t time.Duration
	for _, d := range ds {
		t += d
	}
	return t
}

// officialEntries are n registry entries in the official list format
// (GET /v0.1/servers): the seed snapshot's entries, each renamed (name,
// title, remote) and given the official registry's _meta in place of
// this product's own (so the sync classifies them as it does the
// official registry's).
func officialEntries(seedFile string, n int) ([]json.RawMessage, error) {
	raw, err := os.ReadFile(seedFile)
	if err != nil {
		return nil, err
	}
	var page struct {
		Servers []map[string]any `json:"servers"`
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		return nil, err
	}
	if len(page.Servers) == 0 {
		return nil, fmt.Errorf("%s lists no servers", seedFile)
	}
	published := time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC)
	out := make([]json.RawMessage, n)
	for i := range out {
		var e map[string]any
		b, _ := json.Marshal(page.Servers[i%len(page.Servers)])
		_ = json.Unmarshal(b, &e)
		srv, _ := e["server"].(map[string]any)
		if srv == nil {
			return nil, fmt.Errorf("%s: an entry without its server", seedFile)
		}
		name, _ := srv["name"].(string)
		_, short, _ := strings.Cut(name, "/")
		srv["name"] = fmt.Sprintf("io.github.bench-%04d/%s", i, short)
		srv["title"] = fmt.Sprintf("%v %d", srv["title"], i)
		if remotes, ok := srv["remotes"].([]any); ok && len(remotes) > 0 {
			if r, ok := remotes[0].(map[string]any); ok {
				r["url"] = fmt.Sprintf("https://mcp-%04d.example.com/mcp", i)
			}
		}
		at := published.Add(time.Duration(i) * time.Minute).Format(time.RFC3339)
		e["_meta"] = map[string]any{registry.OfficialMetaKey: map[string]any{
			"status": registry.StatusActive, "publishedAt": at, "updatedAt": at, "isLatest": true,
		}}
		if out[i], err = json.Marshal(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// registryStub serves entries as GET /v0.1/servers pages (limit, cursor:
// the index to start at), recording when each page was asked for.
type registryStub struct {
	entries []json.RawMessage
	mu      sync.Mutex
	asked   []time.Time
}

func (s *registryStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v0.1/servers" {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.asked = append(s.asked, time.Now())
	s.mu.Unlock()
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 || limit > 100 {
		limit = 30
	}
	from, _ := strconv.Atoi(q.Get("cursor"))
	to := min(from+limit, len(s.entries))
	page := map[string]any{"servers": s.entries[from:to], "metadata": map[string]any{"count": to - from}}
	if to < len(s.entries) {
		page["metadata"] = map[string]any{"count": to - from, "nextCursor": strconv.Itoa(to)}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(page)
}

// pageTimes are the times from each page asked to the next ask, the last
// page's to end (the sync's end): each page read and imported.
func (s *registryStub) pageTimes(end time.Time) []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []time.Duration
	for i, at := range s.asked {
		next := end
		if i+1 < len(s.asked) {
			next = s.asked[i+1]
		}
		out = append(out, next.Sub(at))
	}
	return out
}

// scaleConversations is the History stack: one user with scaleSmall
// conversations and one with scaleConvs.
type scaleConversations struct {
	stack *scaleStack
	// tokens are the two users' sessions, the small one's first.
	tokens []string
}

func (b *bench) scaleHistory(ctx context.Context, m *tableMeter, client *http.Client) (out scaleConversations, err error) {
	s, err := b.startScaleStack(ctx, m, "aiwork-bench-scale-conversations")
	if err != nil {
		return out, err
	}
	out.stack = s
	cs := &capStack{base: s.base, client: client}
	user := func(n int) (string, error) {
		id := time.Now().UnixNano()
		var reg struct {
			AccessToken string `json:"access_token"`
			User        struct {
				ID string `json:"id"`
			} `json:"user"`
		}
		if err := cs.call(ctx, http.MethodPost, "/api/v1/auth/register", "", map[string]string{
			"email": fmt.Sprintf("history%d@example.com", id), "username": fmt.Sprintf("history%d", id), "full_name": "Bench User", "password": "bench-password-1",
		}, &reg); err != nil {
			return "", err
		}
		return reg.AccessToken, seedConversations(ctx, s.st, reg.User.ID, n)
	}
	for _, n := range []int{scaleSmall, scaleConvs} {
		token, err := user(n)
		if err != nil {
			return out, err
		}
		out.tokens = append(out.tokens, token)
	}
	return out, nil
}

// seedConversations stores n conversations of uid through the store, each
// with the user's first message (what q= finds it by) and a reply, as the
// chat keeps them; a few at once.
func seedConversations(ctx context.Context, st *store.Store, uid string, n int) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	start := time.Now().Add(-time.Duration(n) * time.Minute)
	v := len(scaleVocabulary)
	for i := range n {
		g.Go(func() error {
			at := start.Add(time.Duration(i) * time.Minute)
			cid := fmt.Sprintf("conv-%06d", i)
			a, c := scaleVocabulary[i%v], scaleVocabulary[(i/v+i+1)%v]
			msgs := []domain.ConversationMessage{
				{ID: cid + "-u", ConversationID: cid, Role: domain.RoleUser, CreatedAt: at, UpdatedAt: at, Complete: true,
					Content: fmt.Sprintf("Help me write a %s about the %s for our team, short and in plain words, with a title and three points to discuss.", a, c)},
				{ID: cid + "-a", ConversationID: cid, Role: domain.RoleAssistant, CreatedAt: at, UpdatedAt: at, Complete: true,
					Content: strings.Repeat(fmt.Sprintf("Here is a %s about the %s. ", a, c), 20)},
			}
			return st.CreateConversation(gctx, uid, domain.Conversation{ID: cid, Title: strings.ToUpper(a[:1]) + a[1:] + " about the " + c,
				Provider: "openai", Model: "gpt-4o-mini", CreatedAt: at, UpdatedAt: at}, msgs...)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	// The count's first read counts them once (a new counter): done here,
	// so the rows measure the reads of every later page.
	_, err := st.CountConversations(ctx, uid)
	return err
}
