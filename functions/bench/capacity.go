package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/chat"
	"aiwork/shared/config"
	"aiwork/shared/local/devstack"
	"aiwork/shared/local/localmcp"
	"aiwork/shared/mcpjobs"
	"aiwork/shared/routes"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
)

// The capacity part (DESIGN §10, cost): what each user action costs on
// the table, read from DynamoDB's consumed capacity (the local engine
// reports it as DynamoDB does), with the calls counted and the Scans
// among them. The whole stack runs in this process on its own table
// (devstack.Handler, as the devserver mounts it), each route group
// wrapped by a tableMeter.
const (
	// capacityRounds is how often each quick action is measured (its
	// figures are the mean; a limit's counters make them move a little).
	capacityRounds = 3
	// listingPageRCU is the budget of a listing page of 24 cards.
	listingPageRCU = 4.0
	// keptReplyFactor and keptReplyConstantWCU bound a kept reply's
	// writes: at most keptReplyFactor × its final stored size (in write
	// units of 1 KB) plus keptReplyConstantWCU: the writes any message
	// makes, kept or not (the chat limits' counters and its usage: 2
	// units here), one unit each for the kept message's small writes made
	// once (the user's message, the reply's first save, the
	// conversation's count, its search words, its History list copy) and
	// 2 for a longer user message.
	keptReplyFactor      = 1.5
	keptReplyConstantWCU = 9.0
	// replyTokens is the length of the measured chat reply, streamed at
	// replyTokensPerSecond (a model's pace), replyChunkTokens a chunk.
	replyTokens          = 2000
	replyTokensPerSecond = 100
	replyChunkTokens     = 5
)

// capacityRow is one measured action and its figures, for the cost part.
type capacityRow struct {
	key  string // the action's name in the cost part's usage model
	name string
	cost actionCost
	// rounds is how many times it ran (cost is the mean).
	rounds int
}

// capacityFigures are the capacity part's results, which the cost part
// prices.
type capacityFigures struct {
	rows []capacityRow
	// keptBytes is the kept reply's final stored size.
	keptBytes int
}

func (f *capacityFigures) get(key string) (capacityRow, bool) {
	for _, r := range f.rows {
		if r.key == key {
			return r, true
		}
	}
	return capacityRow{}, false
}

// capStack is the metered stack and a user of it.
type capStack struct {
	st      *store.Store
	meter   *tableMeter
	base    string
	client  *http.Client
	token   string
	uid     string
	email   string
	closers []func()
}

func (s *capStack) close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
}

// startCapStack starts the reference MCP server, a model upstream and our
// whole stack on table, metered, and registers a user.
func (b *bench) startCapStack(ctx context.Context, table string) (s *capStack, err error) {
	s = &capStack{meter: &tableMeter{}, client: &http.Client{Timeout: 2 * time.Minute,
		// The local checkout answers Pay with a redirect to the success
		// page, which is the web app's: not followed.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	upstream := httptest.NewServer(http.HandlerFunc(capUpstream))
	s.closers = append(s.closers, upstream.Close)
	ref, err := localmcp.Start(ctx, localmcp.ModeStreamable)
	if err != nil {
		return s, err
	}
	s.closers = append(s.closers, ref.Stop)
	sc := config.Store{TableName: table, Endpoint: b.dynamo, Region: "us-east-1"}
	s.st = s.meter.newStore(sc)
	if err := devstack.Prepare(ctx, s.st); err != nil {
		return s, err
	}
	if err := seeddata.SetLocalReference(ctx, s.st, ref.Endpoint); err != nil {
		return s, err
	}
	// No free prompts: a checkout is what buying the first prompt takes.
	cfg := devstack.ConfigFor(sc, []byte("bench-jwt-secret-0123456789abcdef0123456789"), 0, "whsec_bench")
	cfg.Chat.OpenAIKey, cfg.Chat.OpenAIBaseURL = "sk-bench", upstream.URL+"/v1/"
	// The product's limits, with room for the bench's pace of messages:
	// the limits' writes are what any user's message makes.
	cfg.Chat.Limits = config.ChatLimits{MaxConcurrentStreams: config.DefaultMaxConcurrentStreams, RequestsPerMinute: 10_000, DailyTokenBudget: 10_000_000}
	cfg.MCP.Outbound.AllowLoopback = true
	cfg.MCP.ConnectsPerMinute, cfg.MCP.HostConnectsPerMinute = 10_000, 10_000
	cfg.WrapGroup = s.meter.wrapGroup
	h, err := devstack.Handler(s.st, cfg, "")
	if err != nil {
		return s, err
	}
	srv := httptest.NewServer(wrapStandIns(h))
	s.base = srv.URL
	s.closers = append(s.closers, srv.Close)

	id := time.Now().UnixNano()
	s.email = fmt.Sprintf("capacity%d@example.com", id)
	var reg struct {
		AccessToken string `json:"access_token"`
		User        struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	if err := s.call(ctx, http.MethodPost, "/api/v1/auth/register", "", map[string]string{
		"email": s.email, "username": fmt.Sprintf("capacity%d", id), "full_name": "Bench User", "password": "bench-password-1",
	}, &reg); err != nil {
		return s, fmt.Errorf("register: %w", err)
	}
	s.token, s.uid = reg.AccessToken, reg.User.ID
	return s, nil
}

// call sends a JSON request (in nil: none) and decodes a 2xx answer into
// out (nil: read and dropped).
func (s *capStack) call(ctx context.Context, method, path, token string, in, out any) error {
	_, err := s.raw(ctx, method, path, token, in, out)
	return err
}

// raw is call answering the body too.
func (s *capStack) raw(ctx context.Context, method, path, token string, in, out any) ([]byte, error) {
	var body io.Reader
	if in != nil {
		b, _ := json.Marshal(in)
		body = bytes.NewReader(b)
	}
	url := path
	if !strings.HasPrefix(url, "http") {
		url = s.base + path
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return nil, err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode/100 != 2 && res.StatusCode != http.StatusSeeOther {
		return b, fmt.Errorf("%s %s: HTTP %d: %.300s", method, path, res.StatusCode, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return b, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return b, nil
}

// chat sends one chat message and answers its whole stream.
func (s *capStack) chat(ctx context.Context, in map[string]any) (string, error) {
	b, err := s.raw(ctx, http.MethodPost, routes.ChatPath, s.token, in, nil)
	if err != nil {
		return "", err
	}
	stream := string(b)
	if strings.Contains(stream, "event: error") {
		return stream, fmt.Errorf("an error frame in the reply: %.300s", stream)
	}
	return stream, nil
}

// capacityAction is one row's action; budget judges its cost.
type capacityAction struct {
	key, name string
	rounds    int
	// prepare runs before each round, unmeasured.
	prepare func() error
	run     func() error
	// budget answers the row's reference column, budget and verdict
	// beyond "no Scan" ("" reference: none).
	budget func(c actionCost) (ref, budget string, ok bool)
}

func (b *bench) capacity(ctx context.Context) error {
	s, err := b.startCapStack(ctx, "aiwork-bench-capacity")
	if err != nil {
		return err
	}
	defer s.close()
	var conn, mcpConn, conv struct {
		ID           string `json:"id"`
		ConnectionID string `json:"connection_id"`
	}
	if err := s.call(ctx, http.MethodPost, "/api/v1/mcp-connections/openai", s.token, map[string]string{"model": "gpt-4o-mini"}, &conn); err != nil {
		return fmt.Errorf("connect the model: %w", err)
	}
	if err := s.call(ctx, http.MethodPost, routes.ChatConversationsPath, s.token, map[string]string{"provider": "openai", "model": "gpt-4o-mini"}, &conv); err != nil {
		return fmt.Errorf("conversation: %w", err)
	}
	// The conversation's first message (its title, its first search
	// words) is not the one measured: the kept row is a later message.
	if _, err := s.chat(ctx, map[string]any{"connection_id": conn.ID, "message": "Say something short.", "conversation_id": conv.ID}); err != nil {
		return fmt.Errorf("first kept message: %w", err)
	}
	paid, err := paidPrompt()
	if err != nil {
		return err
	}
	// The scheduled probe, as the mcp-jobs function runs it every 15
	// minutes whether anyone uses the product or not.
	probes, err := mcpjobs.FromConfig(s.st, config.MCPJobs{Outbound: config.Outbound{AllowLoopback: true}}, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	probed, err := s.st.ListMCPServers(ctx)
	if err != nil {
		return err
	}
	var checkout struct {
		URL       string `json:"checkout_url"`
		SessionID string `json:"session_id"`
	}
	var approvalToken string
	long := map[string]any{"connection_id": conn.ID, "message": "Write at length."}
	keptLong := map[string]any{"connection_id": conn.ID, "message": "Write at length.", "conversation_id": conv.ID}
	var keptSize int
	noBudget := func(actionCost) (string, string, bool) { return "", "", true }
	pageBudget := func(c actionCost) (string, string, bool) {
		return fmt.Sprintf("%s RCU (limit)", num(listingPageRCU)), fmt.Sprintf("≤ %s RCU", num(listingPageRCU)), c.read <= listingPageRCU
	}
	actions := []capacityAction{
		{key: "signin", name: "sign-in (POST /auth/login)", rounds: capacityRounds,
			run: func() error {
				return s.call(ctx, http.MethodPost, "/api/v1/auth/login", "", map[string]string{"email": s.email, "password": "bench-password-1"}, nil)
			}, budget: noBudget},
		{key: "me", name: "session check (GET /auth/me, each app load)", rounds: capacityRounds,
			run: func() error { return s.call(ctx, http.MethodGet, "/api/v1/auth/me", s.token, nil, nil) }, budget: noBudget},
		{key: "marketplace", name: "marketplace page (24 cards, a visitor)", rounds: capacityRounds,
			run: func() error { return s.call(ctx, http.MethodGet, "/api/v1/prompts/", "", nil, nil) }, budget: pageBudget},
		{key: "registry", name: "registry page (GET /mcp-servers/)", rounds: capacityRounds,
			run: func() error { return s.call(ctx, http.MethodGet, "/api/v1/mcp-servers/", "", nil, nil) }, budget: pageBudget},
		{key: "registryapi", name: "registry API page (/api/registry/v0.1/servers)", rounds: capacityRounds,
			run: func() error { return s.call(ctx, http.MethodGet, routes.RegistryPrefix+"v0.1/servers", "", nil, nil) }, budget: pageBudget},
		{key: "history", name: "History page (GET /chat/conversations)", rounds: capacityRounds,
			run: func() error { return s.call(ctx, http.MethodGet, routes.ChatConversationsPath, s.token, nil, nil) }, budget: pageBudget},
		{key: "connect", name: "connect an MCP server", rounds: capacityRounds,
			prepare: func() error {
				if mcpConn.ConnectionID == "" {
					return nil
				}
				err := s.call(ctx, http.MethodDelete, "/api/v1/mcp-connections/"+mcpConn.ConnectionID, s.token, nil, nil)
				mcpConn.ConnectionID = ""
				return err
			},
			run: func() error {
				return s.call(ctx, http.MethodPost, "/api/v1/mcp-connections/", s.token, map[string]string{"server_id": seeddata.LocalReferenceID}, &mcpConn)
			}, budget: noBudget},
		{key: "message", name: fmt.Sprintf("chat message, not kept (%s-token reply)", grouped(replyTokens)), rounds: 1,
			run: func() error {
				_, err := s.chat(ctx, long)
				return err
			}, budget: noBudget},
		{key: "kept", name: fmt.Sprintf("chat message, kept (%s-token reply)", grouped(replyTokens)), rounds: 1,
			run: func() error {
				_, err := s.chat(ctx, keptLong)
				return err
			},
			budget: func(c actionCost) (string, string, bool) {
				size, err := keptReplySize(ctx, s.st, s.uid, conv.ID)
				if err != nil {
					return "-", "size: " + err.Error(), false
				}
				keptSize = size
				limit := keptReplyFactor*math.Ceil(float64(size)/1024) + keptReplyConstantWCU
				return fmt.Sprintf("%s WCU (limit)", num(limit)),
					fmt.Sprintf("WCU ≤ %.1f × %s + %s", keptReplyFactor, num(math.Ceil(float64(size)/1024)), num(keptReplyConstantWCU)), c.write <= limit
			}},
		{key: "tool", name: "tool round (get-sum, in chat)", rounds: capacityRounds,
			run: func() error {
				out, err := s.chat(ctx, map[string]any{"connection_id": conn.ID, "message": "Call get-sum.", "mcp_connection_ids": []string{mcpConn.ConnectionID}})
				if err == nil && !strings.Contains(out, `"tool_result"`) {
					err = fmt.Errorf("no tool result: %.300s", out)
				}
				return err
			}, budget: noBudget},
		{key: "approval", name: "approval (a paused tool call approved)", rounds: capacityRounds,
			prepare: func() error {
				out, err := s.chat(ctx, map[string]any{"connection_id": conn.ID, "message": "Call toggle-simulated-logging.", "mcp_connection_ids": []string{mcpConn.ConnectionID}})
				if err != nil {
					return err
				}
				approvalToken, err = approvalTokenOf(out)
				return err
			},
			run: func() error {
				out, err := s.chat(ctx, map[string]any{"connection_id": conn.ID, "approval": map[string]string{"token": approvalToken, "decision": "approve"}})
				if err == nil && !strings.Contains(out, `"tool_result"`) {
					err = fmt.Errorf("no tool result after the approval: %.300s", out)
				}
				return err
			}, budget: noBudget},
		// The usual run finds every server as the run before did: the
		// first run (each server's first health) is not measured.
		{key: "probe", name: fmt.Sprintf("registry health probe (mcp-probe, every 15 min, %d servers)", len(probed)), rounds: 1,
			prepare: func() error { return probes.Run(ctx, mcpjobs.Probe) },
			run:     func() error { return probes.Run(ctx, mcpjobs.Probe) }, budget: noBudget},
		{key: "checkout", name: "checkout (open, pay, webhook, verify)", rounds: 1,
			run: func() error {
				if err := s.call(ctx, http.MethodPost, "/api/v1/payments/create-checkout-session", s.token, map[string]string{"prompt_id": paid}, &checkout); err != nil {
					return err
				}
				if err := s.call(ctx, http.MethodPost, checkout.URL+"/pay", "", nil, nil); err != nil {
					return err
				}
				return s.call(ctx, http.MethodGet, "/api/v1/payments/verify-session/"+checkout.SessionID, s.token, nil, nil)
			}, budget: noBudget},
	}
	figures := &capacityFigures{}
	for _, a := range actions {
		var sum actionCost
		for range a.rounds {
			if a.prepare != nil {
				if err := a.prepare(); err != nil {
					return fmt.Errorf("%s: %w", a.name, err)
				}
			}
			c, err := s.meter.measure(a.run)
			if err != nil {
				return fmt.Errorf("%s: %w", a.name, err)
			}
			sum = sum.plus(c)
		}
		mean := sum.times(1 / float64(a.rounds))
		ref, budget, ok := a.budget(mean)
		b.rows = append(b.rows, capacityTableRow(a.name, mean, ref, budget, ok))
		figures.rows = append(figures.rows, capacityRow{key: a.key, name: a.name, cost: mean, rounds: a.rounds})
		b.note("capacity %s: %s", a.name, mean.describe(a.rounds))
	}
	figures.keptBytes = keptSize
	if keptSize > 0 {
		b.note("capacity: the kept reply's final stored size is %d bytes (its items as DynamoDB sizes them); it was saved at its first text, every %.0f s and at its end, each save appending what came since the last (whole write units, the rest with the next) and its state written only when it changed",
			keptSize, chat.SaveEvery.Seconds())
	}
	b.note("capacity: the local engine counts a write's units on the table only; DynamoDB also charges each index an item is in (prompts' and registry entries' GSI1, orders' and accounts' GSI2), so writes to those items cost more there")
	b.capacityFigures = figures
	return nil
}

// capacityTableRow prints an action's read and write units side by side;
// its verdict wants no Scan and ok.
func capacityTableRow(name string, c actionCost, ref, budget string, ok bool) row {
	scans := "no Scan"
	if c.scans > 0 {
		scans = fmt.Sprintf("no Scan (got %d)", c.scans)
	}
	if budget != "" {
		budget += ", " + scans
	} else {
		budget = scans
	}
	if ref == "" {
		ref = "-"
	}
	return row{name: "capacity " + name, oursText: fmt.Sprintf("%s RCU  %s WCU", num(c.read), num(c.write)), refText: ref,
		budget: budget, ok: ok && c.scans == 0}
}

// plus adds two actions' costs.
func (c actionCost) plus(d actionCost) actionCost {
	out := actionCost{read: c.read + d.read, write: c.write + d.write, calls: c.calls + d.calls, scans: c.scans + d.scans,
		detachedRead: c.detachedRead + d.detachedRead, detachedWrite: c.detachedWrite + d.detachedWrite, bytesOut: c.bytesOut + d.bytesOut,
		invocations: map[string]int{}, busy: map[string]time.Duration{}}
	for _, m := range []actionCost{c, d} {
		for k, v := range m.invocations {
			out.invocations[k] += v
		}
		for k, v := range m.busy {
			out.busy[k] += v
		}
	}
	return out
}

// times scales a sum of rounds to one (the mean: f = 1/rounds). The
// invocations are whole per round, so they are kept as one round's.
func (c actionCost) times(f float64) actionCost {
	out := actionCost{read: c.read * f, write: c.write * f, calls: int(math.Round(float64(c.calls) * f)), scans: c.scans,
		detachedRead: c.detachedRead * f, detachedWrite: c.detachedWrite * f, bytesOut: int64(float64(c.bytesOut) * f),
		invocations: map[string]int{}, busy: map[string]time.Duration{}}
	for k, v := range c.invocations {
		out.invocations[k] = int(math.Round(float64(v) * f))
	}
	for k, v := range c.busy {
		out.busy[k] = time.Duration(float64(v) * f)
	}
	return out
}

// describe is an action's figures for a note.
func (c actionCost) describe(rounds int) string {
	var fns []string
	for _, name := range sortedKeys(c.invocations) {
		fns = append(fns, fmt.Sprintf("%s ×%d (%.1f ms)", name, c.invocations[name], ms(c.busy[name])))
	}
	requests := strings.Join(fns, ", ")
	if requests == "" {
		requests = "none (a scheduled job, run here in the bench's process)"
	}
	times := fmt.Sprintf("mean of %d", rounds)
	if rounds == 1 {
		times = "once"
	}
	out := fmt.Sprintf("%.1f RCU, %.1f WCU in %d table calls (%s); requests: %s", c.read, c.write, c.calls, times, requests)
	if c.detachedRead+c.detachedWrite > 0 {
		out += fmt.Sprintf("; of which on no request's context (a kept reply's saves, a job's calls): %.1f RCU, %.1f WCU", c.detachedRead, c.detachedWrite)
	}
	return out
}

// paidPrompt is a seeded prompt with a price.
func paidPrompt() (string, error) {
	ps, err := seeddata.Prompts()
	if err != nil {
		return "", err
	}
	for _, p := range ps {
		if p.Price > 0 && !p.Unpublished {
			return p.ID, nil
		}
	}
	return "", errors.New("no seeded prompt has a price")
}

// approvalTokenOf reads the token of a stream's tool_approval event.
func approvalTokenOf(stream string) (string, error) {
	const head = "event: tool_approval\ndata: "
	i := strings.Index(stream, head)
	if i < 0 {
		return "", fmt.Errorf("no tool_approval event: %.300s", stream)
	}
	line, _, _ := strings.Cut(stream[i+len(head):], "\n")
	var ev struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Token == "" {
		return "", fmt.Errorf("tool_approval event without a token: %.300s", line)
	}
	return ev.Token, nil
}

// keptReplySize is the stored size of the last assistant reply of uid's
// conversation cid: its item and its text's chunk items, as DynamoDB
// sizes items (read back raw from the table).
func keptReplySize(ctx context.Context, st *store.Store, uid, cid string) (int, error) {
	var items []map[string]types.AttributeValue
	p := dynamodb.NewQueryPaginator(st.DB(), &dynamodb.QueryInput{
		TableName:                 aws.String(st.Table()),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: store.PKUser + uid}},
		ConsistentRead:            aws.Bool(true),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return 0, err
		}
		items = append(items, page.Items...)
	}
	str := func(it map[string]types.AttributeValue, name string) string {
		if v, ok := it[name].(*types.AttributeValueMemberS); ok {
			return v.Value
		}
		return ""
	}
	var reply map[string]types.AttributeValue
	for _, it := range items {
		if str(it, "conversation_id") == cid && str(it, "role") == "assistant" && (reply == nil || str(it, "created_at") > str(reply, "created_at")) {
			reply = it
		}
	}
	if reply == nil {
		return 0, errors.New("no reply stored")
	}
	size := store.ItemSize(reply)
	head := str(reply, "SK") + "#"
	for _, it := range items {
		if strings.HasPrefix(str(it, "SK"), head) {
			size += store.ItemSize(it)
		}
	}
	return size, nil
}

// capUpstream is a model speaking OpenAI's streaming wire format: "Write
// at length." gets a replyTokens reply at replyTokensPerSecond; a message
// naming a tool offered calls it (once its result is back: a short
// answer); anything else a short reply.
func capUpstream(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	last := req.Messages[len(req.Messages)-1]
	text := fmt.Sprint(last.Content)
	out := startOpenAIStream(w, "chatcmpl-cap")
	if last.Role == "tool" {
		_ = out.content("Done.")
		out.end("stop", 2)
		return
	}
	for _, t := range req.Tools {
		name := t.Function.Name
		if i := strings.LastIndex(name, "__"); i >= 0 && strings.Contains(text, name[i+2:]) {
			out.toolCall(name, `{"a":2,"b":3}`)
			out.end("tool_calls", 20)
			return
		}
	}
	if !strings.Contains(text, "at length") {
		_ = out.content("A short reply.")
		out.end("stop", 4)
		return
	}
	chunk := strings.Repeat("tok ", replyChunkTokens)
	gap := time.Second * replyChunkTokens / replyTokensPerSecond
	for i := range replyTokens / replyChunkTokens {
		if i > 0 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(gap):
			}
		}
		if out.content(chunk) != nil {
			return
		}
	}
	out.end("stop", replyTokens)
}

// sortedKeys are m's keys in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
