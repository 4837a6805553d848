package chat

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/store"
)

// A message may run as an agent of the marketplace: its instructions are
// the system message of every model call (added here, on the server, and
// never stored with the conversation, a paused reply or any frame), its
// provider and model are the ones used, and only its servers' allowed tools
// are offered (tools.go: loadAgent). The agent is the conversation's when
// the message is kept with one (a conversation is bound to its agent when
// it is made), else the request's; a request cannot widen the allow-list
// or swap the instructions: the client's mcp_connection_ids and system
// messages do not count in an agent's turn.

// agentTTL is how long this process uses an agent, a user's access to it
// and an ownership it read, without reading them again: the agent's cost
// before the first frame is then nothing (the bench's "chat agent turn
// overhead" row). An edit that went live, a suspension or a refund reaches
// a warm instance within it.
const agentTTL = 30 * time.Second

// maxAgentsKept bounds each of the caches (all are forgotten past it).
const maxAgentsKept = 10_000

// Refusals of an agent's turn.
const (
	msgAgentNotFound  = "Agent not found."
	msgAgentBuy       = "Buy this agent to chat with it."
	msgAgentOther     = "This conversation is bound to another agent."
	msgAgentAgain     = "This conversation is bound to an agent: send the message again."
	msgAgentNoTool    = "This agent may not use the tool %s."
	msgAgentWrongConn = "This agent runs on %s %s: connect that model."
)

// agents is what this process remembers of agents: each agent as last
// read, the users it let in, and the agent each conversation is bound to
// ("" for none: a binding never changes).
type agents struct {
	st       *store.Store
	mu       sync.Mutex
	byID     map[string]agentSeen
	access   map[string]agentSeen // uid+aid: the version the user was let in to, and when
	bindings map[string]string    // uid+cid: the conversation's agent id
}

// agentSeen is an agent as read at (for access: only its Version counts).
type agentSeen struct {
	agent domain.Agent
	at    time.Time
}

func newAgents(st *store.Store) *agents {
	return &agents{st: st, byID: map[string]agentSeen{}, access: map[string]agentSeen{}, bindings: map[string]string{}}
}

// ready answers req's agent from what this process remembers, without a
// read: known is false when something is not remembered (or not fresh),
// and the message then waits for agentFor. nil and known: no agent.
// unbound: a conversation whose binding is not remembered, in a message
// naming no agent, is taken for one without an agent; the claim that
// stores its messages checks it before the first frame (keep.go: a
// conversation not known here waits for it), and refuses it otherwise.
//
// stale: what it remembers is past half its life; the message reads it
// again once its first frames went out (refreshAgent), so that an agent
// in steady use is never waited for.
func (g *agents) ready(req Request, now time.Time) (a *domain.Agent, known, unbound, stale bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	id := req.AgentID
	if req.ConversationID != "" {
		bound, ok := g.bindings[knownKey(req.UserID, req.ConversationID)]
		switch {
		case !ok && id == "":
			return nil, true, true, false
		case !ok, id != "" && id != bound:
			return nil, false, false, false
		}
		id = bound
	}
	if id == "" {
		return nil, true, false, false
	}
	seen, ok := g.byID[id]
	if !ok || !fresh(seen.at, now) {
		return nil, false, false, false
	}
	let, ok := g.access[knownKey(req.UserID, id)]
	if !ok || !fresh(let.at, now) || let.agent.Version != seen.agent.Version {
		return nil, false, false, false
	}
	agent := seen.agent
	return &agent, true, false, now.Sub(seen.at) > agentTTL/2 || now.Sub(let.at) > agentTTL/2
}

// bound remembers that uid's conversation cid runs as agent id ("": none).
func (g *agents) bound(uid, cid, id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.bindings) >= maxAgentsKept {
		clear(g.bindings)
	}
	g.bindings[knownKey(uid, cid)] = id
}

// forget drops what this process remembers of cid's binding.
func (g *agents) forget(uid, cid string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.bindings, knownKey(uid, cid))
}

func fresh(at, now time.Time) bool { return now.Sub(at) < agentTTL && !now.Before(at) }

// agentFor resolves req's agent (nil: none) and checks that its user may
// chat with it: the conversation's binding (read once per process), the
// agent (read again past agentTTL) and the user's access.
func (e *Engine) agentFor(ctx context.Context, req Request, now time.Time) (*domain.Agent, error) {
	id := req.AgentID
	if cid := req.ConversationID; cid != "" {
		bound, err := e.agents.binding(ctx, req.UserID, cid)
		if err != nil {
			return nil, err
		}
		if id != "" && id != bound {
			return nil, refuse(Invalid, msgAgentOther)
		}
		id = bound
	}
	if id == "" {
		return nil, nil
	}
	return e.agents.let(ctx, req.UserID, id, now, false)
}

// binding is the agent uid's conversation cid is bound to ("" for none).
func (g *agents) binding(ctx context.Context, uid, cid string) (string, error) {
	k := knownKey(uid, cid)
	g.mu.Lock()
	bound, ok := g.bindings[k]
	g.mu.Unlock()
	if ok {
		return bound, nil
	}
	if len(cid) > maxIDLen {
		return "", refuse(NotFound, "Conversation not found.")
	}
	c, err := g.st.GetConversation(ctx, uid, cid)
	if errors.Is(err, store.ErrNotFound) {
		return "", refuse(NotFound, "Conversation not found.")
	}
	if err != nil {
		return "", err
	}
	g.bound(uid, cid, c.AgentID)
	return c.AgentID, nil
}

// let answers agent id if uid may chat with it: its creator and its owners
// always (a suspended or withdrawn agent keeps working for them), anyone
// signed in while a free agent is on sale; a paid one on sale is refused
// until bought (Forbidden), any other is not found.
//
// read: read the agent and check the access again, whatever is remembered.
func (g *agents) let(ctx context.Context, uid, id string, now time.Time, read bool) (*domain.Agent, error) {
	a, err := g.get(ctx, id, now, read)
	if err != nil {
		return nil, err
	}
	ak := knownKey(uid, id)
	g.mu.Lock()
	let, known := g.access[ak]
	g.mu.Unlock()
	// Access is checked again past agentTTL, and against each new version
	// read (a suspension, a price).
	if read || !known || !fresh(let.at, now) || let.agent.Version != a.Version {
		ok := a.CreatorID == uid || (a.OnSale() && a.IsFree())
		if !ok {
			if ok, err = g.st.Owns(ctx, uid, id); err != nil {
				return nil, err
			}
		}
		if !ok {
			if a.OnSale() {
				return nil, refuse(Forbidden, msgAgentBuy)
			}
			return nil, refuse(NotFound, msgAgentNotFound)
		}
		g.mu.Lock()
		if len(g.access) >= maxAgentsKept {
			clear(g.access)
		}
		g.access[ak] = agentSeen{agent: domain.Agent{Version: a.Version}, at: now}
		g.mu.Unlock()
	}
	return &a, nil
}

// get reads agent id, or answers it as read within agentTTL (unless read).
func (g *agents) get(ctx context.Context, id string, now time.Time, read bool) (domain.Agent, error) {
	g.mu.Lock()
	seen, ok := g.byID[id]
	g.mu.Unlock()
	if ok && !read && fresh(seen.at, now) {
		return seen.agent, nil
	}
	if len(id) > maxIDLen {
		return domain.Agent{}, refuse(NotFound, msgAgentNotFound)
	}
	a, err := g.st.GetAgent(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return domain.Agent{}, refuse(NotFound, msgAgentNotFound)
	}
	if err != nil {
		return domain.Agent{}, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.byID) >= maxAgentsKept {
		clear(g.byID)
	}
	g.byID[id] = agentSeen{agent: a, at: now}
	return a, nil
}

// refreshAgent reads a sure message's agent again, and the user's access
// to it, once its first frames went out (reply.stream's later work), when
// what this process remembers is past half its life: the next messages
// find it fresh. A refusal now leaves it unremembered: the next message
// waits for its reads, and is refused.
func (r *reply) refreshAgent() {
	if r.agent == nil || !r.staleAgent {
		return
	}
	r.background.Go(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.parent), cleanupTimeout)
		defer cancel()
		if _, err := r.agents.let(ctx, r.uid, r.agent.ID, r.opts.Now().UTC(), true); err != nil {
			r.agents.drop(r.uid, r.agent.ID)
		}
	})
}

// drop forgets agent id and uid's access to it.
func (g *agents) drop(uid, id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.byID, id)
	delete(g.access, knownKey(uid, id))
}

// forRoute applies the agent to the connection's route: the agent's
// provider must be the connection's, and its model is the one used.
func forRoute(rt route, a *domain.Agent) (route, error) {
	if a == nil {
		return rt, nil
	}
	wrong := refuse(Invalid, msgAgentWrongConn, a.Provider, a.Model)
	if rt.provider.ID != a.Provider {
		return route{}, wrong
	}
	m, ok := rt.provider.FindModel(a.Model)
	if !ok {
		return route{}, wrong
	}
	rt.model = m
	return rt, nil
}

// withoutSystem drops the client's system messages from an agent's turn:
// the agent's instructions are its only system message.
func withoutSystem(ms []llm.Message) []llm.Message {
	return slices.DeleteFunc(slices.Clone(ms), func(m llm.Message) bool { return m.Role == "system" })
}

// withInstructions is what a model call of an agent's turn sends: its
// instructions first, as the system message, then the conversation. Only
// the model call gets it: r.msgs (kept, paused, shown) never holds it.
func withInstructions(a *domain.Agent, ms []llm.Message) []llm.Message {
	if a == nil {
		return ms
	}
	out := make([]llm.Message, 0, len(ms)+1)
	out = append(out, llm.Message{Role: "system", Content: a.Instructions})
	return append(out, ms...)
}

// allowsTool reports whether the agent allows a tool of this name (the
// model-facing name's tool part) on any of its servers.
func allowsTool(a *domain.Agent, name string) bool {
	tool := llm.BareToolName(name)
	for _, s := range a.Servers {
		if slices.Contains(s.Tools, tool) {
			return true
		}
	}
	return false
}

// usesServer reports whether the agent uses registry server id.
func usesServer(a *domain.Agent, id string) bool {
	return slices.ContainsFunc(a.Servers, func(s domain.AgentServer) bool { return s.ServerID == id })
}

func agentID(a *domain.Agent) string {
	if a == nil {
		return ""
	}
	return a.ID
}

// Agent answers agent id if uid may chat with it, as a message would find
// it (read now): a *Error saying why not (NotFound, Forbidden). The
// conversation routes check an agent a conversation is made for with it.
func Agent(ctx context.Context, st *store.Store, uid, id string) (domain.Agent, error) {
	a, err := newAgents(st).let(ctx, uid, id, time.Now(), true)
	if err != nil {
		return domain.Agent{}, err
	}
	return *a, nil
}
