package adminapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"aiwork/shared/agents"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// Agents: in the review queue with the prompts (kind=agent), decided the
// same way; listed for the admins, suspended (off the marketplace at
// once, their buyers keep them) and unsuspended, each action audited.

// MsgAgentPayoutsNeeded is why a paid agent of a creator without payouts
// is not approved.
const MsgAgentPayoutsNeeded = "Set up payouts before selling a paid agent."

const msgAgentNotFound = "Agent not found."

// reviewAgentView is what an agent under review runs with.
type reviewAgentView struct {
	Provider string                  `json:"provider"`
	Model    string                  `json:"model"`
	Servers  []reviewAgentServerView `json:"servers"`
	Starters []string                `json:"starters"`
}

type reviewAgentServerView struct {
	ServerID string   `json:"server_id"`
	Name     string   `json:"name"`
	Tools    []string `json:"tools"`
}

func (s *Service) agentRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix+"agents", s.admin(s.listAgents))
	mux.Handle("POST "+Prefix+"agents/{id}/suspend", s.admin(s.suspendAgent(true)))
	mux.Handle("POST "+Prefix+"agents/{id}/unsuspend", s.admin(s.suspendAgent(false)))
}

// serverNames names the registry servers of the agents' (by id; an id
// the registry no longer has is named by itself).
func (s *Service) serverNames(r *http.Request, list []domain.AgentServer, names map[string]string) error {
	for _, sv := range list {
		if _, ok := names[sv.ServerID]; ok {
			continue
		}
		srv, err := s.st.GetMCPServer(r.Context(), sv.ServerID)
		switch {
		case errors.Is(err, store.ErrNotFound):
			names[sv.ServerID] = sv.ServerID
		case err != nil:
			return err
		default:
			names[sv.ServerID] = strings.TrimSpace(srv.Title)
			if names[sv.ServerID] == "" {
				names[sv.ServerID] = srv.Name
			}
		}
	}
	return nil
}

// listAgentReviews answers the agents' queue, oldest submitted first: the
// version under review of each.
func (s *Service) listAgentReviews(w http.ResponseWriter, r *http.Request) error {
	queue, err := s.st.AgentReviewQueue(r.Context())
	if err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	creators := creatorCache{}
	servers := map[string]string{}
	views := make([]reviewView, 0, len(queue))
	for _, q := range queue {
		a := agents.UnderReview(q.Agent)
		c, err := s.queuedCreator(r, creators, a.CreatorID)
		if err != nil {
			return err
		}
		if err := s.serverNames(r, a.Servers, servers); err != nil {
			return err
		}
		av := &reviewAgentView{Provider: a.Provider, Model: a.Model, Servers: []reviewAgentServerView{}, Starters: append([]string{}, a.Starters...)}
		for _, sv := range a.Servers {
			av.Servers = append(av.Servers, reviewAgentServerView{ServerID: sv.ServerID, Name: servers[sv.ServerID], Tools: append([]string{}, sv.Tools...)})
		}
		v := reviewView{ID: a.ID, Kind: reviewKindAgent, Title: a.Name, Description: a.Description, Content: a.Instructions, Price: a.Price,
			CategoryID: a.CategoryID, CategoryName: names[a.CategoryID], Version: a.Version, SubmittedAt: utcSeconds(q.SubmittedAt),
			LiveVersion: q.Agent.Published, Creator: c, Decisions: decisionViews(q.Decisions), Agent: av}
		if pv := q.Agent.Pending; q.Agent.State == domain.PromptPublished && pv != nil {
			v.ChangeNote = pv.ChangeNote
		}
		views = append(views, v)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": views})
	return nil
}

// agentState is what the audit log keeps of an agent.
func agentState(a domain.Agent) map[string]any {
	out := map[string]any{"name": a.Name, "state": a.State, "version": a.Version, "price": a.Price, "suspended": a.Suspended,
		"withdrawn": a.Withdrawn, "published_versions": a.Published}
	if a.Pending != nil {
		out["pending_state"] = a.Pending.State
	}
	return out
}

// decideAgent approves or rejects an agent in review (or its next
// version): approval publishes it (or makes the next version the live
// one, kept whole for its buyers), rejection sends it back with the
// reason. in is checked already.
func (s *Service) decideAgent(w http.ResponseWriter, r *http.Request, in decisionInput) error {
	cur, err := s.st.GetAgent(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound(msgAgentNotFound)
	}
	if err != nil {
		return err
	}
	pendingInReview := cur.State == domain.PromptPublished && cur.Pending != nil && cur.Pending.State == domain.PromptInReview
	if cur.State != domain.PromptInReview && !pendingInReview {
		return httpx.Conflict(fmt.Sprintf("Only an agent in review can be approved or rejected; this one is %s.", strings.ReplaceAll(cur.State, "_", " ")))
	}
	approve := in.Decision == store.DecisionApprove
	if approve && !agents.UnderReview(cur).IsFree() {
		if err := s.payoutsReady(r, cur.CreatorID, MsgAgentPayoutsNeeded); err != nil {
			return err
		}
	}
	now := s.opts.Now().UTC()
	d := in.record(r, now)
	next := cur
	next.Version, next.UpdatedAt = cur.Version+1, now
	var live *store.AgentVersion
	switch {
	case approve:
		u := agents.UnderReview(cur)
		note := ""
		if pendingInReview {
			note = cur.Pending.ChangeNote
		}
		next.Name, next.Description, next.Instructions, next.Provider, next.Model = u.Name, u.Description, u.Instructions, u.Provider, u.Model
		next.Servers, next.Starters, next.CategoryID, next.Price = u.Servers, u.Starters, u.CategoryID, u.Price
		next.State, next.ReviewReason, next.Pending, next.Published = domain.PromptPublished, "", nil, cur.Published+1
		live = &store.AgentVersion{Number: next.Published, Name: u.Name, Description: u.Description, Instructions: u.Instructions,
			Provider: u.Provider, Model: u.Model, Servers: u.Servers, Starters: u.Starters, CategoryID: u.CategoryID, Price: u.Price,
			ChangeNote: note, PublishedAt: now}
	case pendingInReview:
		pv := *cur.Pending
		pv.State, pv.ReviewReason = domain.PromptRejected, d.Reason
		next.Pending = &pv
	default:
		next.State, next.ReviewReason = domain.PromptRejected, d.Reason
	}
	audit := s.audit(r.Context(), "review."+in.Decision, "agent", cur.ID, agentState(cur), agentState(next))
	err = s.st.WithAudit(r.Context(), audit, func() error { return s.st.DecideAgent(r.Context(), next, cur.Version, d, live) })
	if errors.Is(err, store.ErrVersionConflict) {
		return httpx.Conflict("This agent changed since you opened it: read the queue again.")
	}
	if err != nil {
		return err
	}
	writeDecided(w, next.ID, next.State, next.Version, d, pendingInReview)
	return nil
}

// adminAgentView is an agent in the admins' list.
type adminAgentView struct {
	ID                string  `json:"id"`
	Name              string  `json:"name"`
	Description       string  `json:"description"`
	Provider          string  `json:"provider"`
	Model             string  `json:"model"`
	Price             float64 `json:"price"`
	IsFree            bool    `json:"is_free"`
	CategoryID        string  `json:"category_id"`
	CategoryName      string  `json:"category_name"`
	State             string  `json:"state"`
	Version           int     `json:"version"`
	PublishedVersions int     `json:"published_versions"`
	Suspended         bool    `json:"suspended"`
	CreatorSuspended  bool    `json:"creator_suspended"`
	Withdrawn         bool    `json:"withdrawn"`
	OnSale            bool    `json:"on_sale"`
	Creator           struct {
		UserID      string `json:"user_id"`
		Username    string `json:"username"`
		DisplayName string `json:"display_name"`
	} `json:"creator"`
	RatingAvg   float64 `json:"rating_avg"`
	RatingCount int     `json:"rating_count"`
	CreatedAt   string  `json:"created_at"`
}

func presentAdminAgent(a domain.Agent, names map[string]string) adminAgentView {
	v := adminAgentView{ID: a.ID, Name: a.Name, Description: a.Description, Provider: a.Provider, Model: a.Model, Price: a.Price,
		IsFree: a.IsFree(), CategoryID: a.CategoryID, CategoryName: names[a.CategoryID], State: a.State, Version: a.Version,
		PublishedVersions: a.Published, Suspended: a.Suspended, CreatorSuspended: a.CreatorSuspended, Withdrawn: a.Withdrawn,
		OnSale: a.OnSale(), RatingAvg: a.RatingAvg(), RatingCount: a.RatingCount, CreatedAt: utcSeconds(a.CreatedAt)}
	v.Creator.UserID, v.Creator.Username, v.Creator.DisplayName = a.CreatorID, a.CreatorUsername, a.CreatorDisplayName
	return v
}

// listAgents answers a page of every agent, newest first: q= on name and
// description, state= one of the review states or "suspended".
func (s *Service) listAgents(w http.ResponseWriter, r *http.Request) error {
	limit, after, err := pageParams(r)
	if err != nil {
		return err
	}
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	state := r.URL.Query().Get("state")
	switch state {
	case "", domain.PromptDraft, domain.PromptInReview, domain.PromptPublished, domain.PromptRejected, "suspended":
	default:
		return httpx.Invalid("state must be draft, in_review, published, rejected or suspended")
	}
	all, err := s.st.AllAgents(r.Context())
	if err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	kept := []domain.Agent{}
	for _, a := range all {
		if q != "" && !strings.Contains(strings.ToLower(a.Name), q) && !strings.Contains(strings.ToLower(a.Description), q) {
			continue
		}
		if (state == "suspended" && !a.Suspended) || (state != "" && state != "suspended" && a.State != state) {
			continue
		}
		kept = append(kept, a)
	}
	items, next := pageByPlace(kept, store.AgentListPlace, descending, limit, after)
	views := make([]adminAgentView, len(items))
	for i, a := range items {
		views[i] = presentAdminAgent(a, names)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": views, "next_cursor": next, "total": len(kept)})
	return nil
}

// suspendAgent takes an agent off the marketplace (on) or back: in the
// same write its listing key goes or comes back. Buyers keep it.
func (s *Service) suspendAgent(on bool) httpx.HandlerFunc {
	action := "agent.unsuspend"
	if on {
		action = "agent.suspend"
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		for attempt := 0; ; attempt++ {
			cur, err := s.st.GetAgent(r.Context(), r.PathValue("id"))
			if errors.Is(err, store.ErrNotFound) {
				return httpx.NotFound(msgAgentNotFound)
			}
			if err != nil {
				return err
			}
			next := cur
			next.Suspended, next.Version, next.UpdatedAt = on, cur.Version+1, s.opts.Now().UTC()
			audit := s.audit(r.Context(), action, "agent", cur.ID, map[string]any{"suspended": cur.Suspended}, map[string]any{"suspended": on})
			err = s.st.WithAudit(r.Context(), audit, func() error { return s.st.UpdateAgent(r.Context(), next, cur.Version) })
			if errors.Is(err, store.ErrVersionConflict) && attempt < 3 {
				continue // edited meanwhile: suspend the agent as it now is
			}
			if err != nil {
				return err
			}
			names, err := s.categoryNames(r)
			if err != nil {
				return err
			}
			httpx.WriteJSON(w, http.StatusOK, presentAdminAgent(next, names))
			return nil
		}
	}
}
