package adminapi

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"aiwork/shared/agents"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// The review queue: creators' prompts submitted for review, each approved
// (published: its cards join the marketplace listing) or rejected with a
// reason its creator reads. Agents share the queue (kind=agent, agents.go):
// the same decisions, an id starting "a-" naming an agent.

// MsgPayoutsNeeded is why a paid prompt of a creator without payouts is
// not approved. Every marketplace price is more than 0, so every prompt
// is a paid one.
const MsgPayoutsNeeded = "Set up payouts before selling a paid prompt."

const (
	reviewKindPrompt = "prompt"
	reviewKindAgent  = "agent"
)

type reviewCreatorView struct {
	UserID        string `json:"user_id"`
	Username      string `json:"username"`
	DisplayName   string `json:"display_name"`
	PayoutsStatus string `json:"payouts_status"`
}

type reviewDecisionView struct {
	At       string `json:"at"`
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

type reviewView struct {
	ID           string  `json:"id"`
	Kind         string  `json:"kind"`
	Title        string  `json:"title"`
	Description  string  `json:"description"`
	Content      string  `json:"content"`
	Price        float64 `json:"price"`
	CategoryID   string  `json:"category_id"`
	CategoryName string  `json:"category_name"`
	Version      int     `json:"version"`
	// ChangeNote and LiveVersion: an edit of a published prompt, its note
	// and the number of the version live now (0: a first publication).
	ChangeNote  string               `json:"change_note"`
	LiveVersion int                  `json:"live_version"`
	SubmittedAt string               `json:"submitted_at"`
	Creator     reviewCreatorView    `json:"creator"`
	Decisions   []reviewDecisionView `json:"decisions"`
	// Agent: what an agent under review runs with (kind agent only).
	Agent *reviewAgentView `json:"agent,omitempty"`
}

func (s *Service) reviewRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+Prefix+"reviews", s.admin(s.listReviews))
	mux.Handle("POST "+Prefix+"reviews/{id}", s.admin(s.decideReview))
}

// listReviews answers the queue of one kind, oldest submitted first.
func (s *Service) listReviews(w http.ResponseWriter, r *http.Request) error {
	kind := r.URL.Query().Get("kind")
	if kind == "" {
		kind = reviewKindPrompt
	}
	switch kind {
	case reviewKindAgent:
		return s.listAgentReviews(w, r)
	case reviewKindPrompt:
	default:
		return httpx.Invalid("kind must be prompt or agent")
	}
	queue, err := s.st.ReviewQueue(r.Context())
	if err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	creators := creatorCache{}
	views := make([]reviewView, 0, len(queue))
	for _, q := range queue {
		p := underReview(q.Prompt)
		c, err := s.queuedCreator(r, creators, p.CreatorID)
		if err != nil {
			return err
		}
		v := reviewView{ID: p.ID, Kind: reviewKindPrompt, Title: p.Title, Description: p.Description, Content: p.Content, Price: p.Price,
			CategoryID: p.CategoryID, CategoryName: names[p.CategoryID], Version: p.Version, SubmittedAt: utcSeconds(q.SubmittedAt),
			LiveVersion: q.Prompt.Published, Creator: c, Decisions: decisionViews(q.Decisions)}
		if pv := q.Prompt.Pending; q.Prompt.State == domain.PromptPublished && pv != nil {
			v.ChangeNote = pv.ChangeNote
		}
		views = append(views, v)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": views})
	return nil
}

// creatorCache keeps the creators a queue's listing read, by user id.
type creatorCache map[string]domain.Creator

// queuedCreator is the creator uid of a queued item as the queue shows
// them (read once per listing; one gone is shown by their id alone).
func (s *Service) queuedCreator(r *http.Request, cache creatorCache, uid string) (reviewCreatorView, error) {
	c, ok := cache[uid]
	if !ok {
		var err error
		c, err = s.st.GetCreator(r.Context(), uid)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return reviewCreatorView{}, err
		}
		cache[uid] = c
	}
	return reviewCreatorView{UserID: uid, Username: c.Username, DisplayName: c.DisplayName, PayoutsStatus: c.PayoutsStatus}, nil
}

// decisionViews are the decisions made on a queued item before.
func decisionViews(ds []store.ReviewDecision) []reviewDecisionView {
	out := make([]reviewDecisionView, 0, len(ds))
	for _, d := range ds {
		out = append(out, reviewDecisionView{At: utcSeconds(d.At), Decision: d.Decision, Reason: d.Reason})
	}
	return out
}

// underReview is p as the version under review has it: its pending
// version's fields when an edit of a published prompt is in review.
func underReview(p domain.Prompt) domain.Prompt {
	if pv := p.Pending; p.State == domain.PromptPublished && pv != nil {
		p.Title, p.Description, p.Content, p.Price, p.CategoryID = pv.Title, pv.Description, pv.Content, pv.Price, pv.CategoryID
	}
	return p
}

type decisionInput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// maxReviewReason bounds a rejection's reason, in bytes.
const maxReviewReason = 2000

// decideReview approves or rejects a prompt in review.
func (s *Service) decideReview(w http.ResponseWriter, r *http.Request) error {
	var in decisionInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	in.Reason = strings.TrimSpace(in.Reason)
	switch in.Decision {
	case store.DecisionApprove:
	case store.DecisionReject:
		if in.Reason == "" {
			return httpx.Invalid("A rejection needs a reason: the creator reads it.")
		}
		if len(in.Reason) > maxReviewReason {
			return httpx.Invalid(fmt.Sprintf("reason must be at most %d characters", maxReviewReason))
		}
	default:
		return httpx.Invalid("decision must be approve or reject")
	}
	if agents.IsAgentID(r.PathValue("id")) {
		return s.decideAgent(w, r, in)
	}
	cur, names, err := s.promptOr404(r)
	if err != nil {
		return err
	}
	pendingInReview := cur.State == domain.PromptPublished && cur.Pending != nil && cur.Pending.State == domain.PromptInReview
	if cur.State != domain.PromptInReview && !pendingInReview {
		state := cur.State
		if state == "" {
			state = "a platform prompt"
		}
		return httpx.Conflict(fmt.Sprintf("Only a prompt in review can be approved or rejected; this one is %s.", strings.ReplaceAll(state, "_", " ")))
	}
	if in.Decision == store.DecisionApprove && underReview(cur).Price > 0 {
		if err := s.payoutsReady(r, cur.CreatorID, MsgPayoutsNeeded); err != nil {
			return err
		}
	}
	now := s.opts.Now().UTC()
	d := in.record(r, now)
	before := presentPrompt(cur, names)
	next := cur
	next.Version, next.UpdatedAt = cur.Version+1, now
	switch {
	case pendingInReview && in.Decision == store.DecisionApprove:
		next.Pending = nil
	case pendingInReview:
		pv := *cur.Pending
		pv.State, pv.ReviewReason = domain.PromptRejected, d.Reason
		next.Pending = &pv
	case in.Decision == store.DecisionApprove:
		next.State, next.Unpublished, next.ReviewReason = domain.PromptPublished, false, ""
	default:
		next.State, next.ReviewReason = domain.PromptRejected, d.Reason
	}
	audit := s.audit(r.Context(), "review."+in.Decision, "prompt", cur.ID, before,
		map[string]any{"state": next.State, "reason": d.Reason, "version": next.Version})
	err = s.st.WithAudit(r.Context(), audit, func() error { return s.st.DecidePrompt(r.Context(), cur, d) })
	if errors.Is(err, store.ErrVersionConflict) || errors.Is(err, store.ErrWrongState) {
		return s.promptConflict(w, r, names)
	}
	if err != nil {
		return err
	}
	writeDecided(w, next.ID, next.State, next.Version, d, pendingInReview)
	return nil
}

// payoutsReady refuses (409, refused) the approval of a paid item of a
// creator who cannot be paid yet.
func (s *Service) payoutsReady(r *http.Request, creatorID, refused string) error {
	c, err := s.st.GetCreator(r.Context(), creatorID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if !c.CanSell() {
		return httpx.Conflict(refused)
	}
	return nil
}

// record is the decision in as kept on the item, made now by the caller:
// an approval keeps no reason.
func (in decisionInput) record(r *http.Request, now time.Time) store.ReviewDecision {
	d := store.ReviewDecision{At: now, Decision: in.Decision, Reason: in.Reason, AdminID: actor(r.Context()).ID}
	if in.Decision == store.DecisionApprove {
		d.Reason = ""
	}
	return d
}

// writeDecided answers decision d: the item's id, state and version after
// it, and the reason of a rejection. On a next version (pending) the live
// one stays published, so the decision is the next one's: approved, it
// went live (no pending state); rejected, it waits with the reason.
func writeDecided(w http.ResponseWriter, id, state string, version int, d store.ReviewDecision, pending bool) {
	out := map[string]any{"id": id, "state": state, "review_reason": d.Reason, "version": version}
	if pending {
		out["review_reason"], out["pending_state"] = nil, nil
		if d.Decision != store.DecisionApprove {
			out["pending_state"], out["pending_review_reason"] = domain.PromptRejected, d.Reason
		}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}
