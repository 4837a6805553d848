package creatorsapi

import (
	"errors"
	"io"
	"net/http"

	"aiwork/shared/agents"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/random"
	"aiwork/shared/store"
)

// A creator's agents: the same states, versions, review and withdrawal as
// their prompts (docs/creators.md), the rules the agents package's.

// agentBodyLimit bounds an agent's request body and an imported file.
const agentBodyLimit = agents.MaxFileBytes

func (s *Service) agentRoutes(mux *http.ServeMux, signedIn func(httpx.HandlerFunc) http.Handler) {
	mux.Handle("GET "+Prefix+"me/agents", signedIn(s.listAgents))
	mux.Handle("POST "+Prefix+"me/agents", signedIn(s.createAgent))
	mux.Handle("POST "+Prefix+"me/agents/import", signedIn(s.importAgent))
	mux.Handle("GET "+Prefix+"me/agents/{id}", signedIn(s.getAgent))
	mux.Handle("PATCH "+Prefix+"me/agents/{id}", signedIn(s.patchAgent))
	mux.Handle("DELETE "+Prefix+"me/agents/{id}", signedIn(s.deleteAgent))
	mux.Handle("POST "+Prefix+"me/agents/{id}/submit", signedIn(s.submitAgent))
}

// AgentView is an agent as its creator sees it: every field, its
// instructions included.
type AgentView struct {
	ID                string               `json:"id"`
	Name              string               `json:"name"`
	Description       string               `json:"description"`
	Instructions      string               `json:"instructions"`
	Provider          string               `json:"provider"`
	Model             string               `json:"model"`
	Servers           []domain.AgentServer `json:"servers"`
	Starters          []string             `json:"starters"`
	Price             float64              `json:"price"`
	IsFree            bool                 `json:"is_free"`
	CategoryID        string               `json:"category_id"`
	CategoryName      string               `json:"category_name"`
	State             string               `json:"state"`
	ReviewReason      *string              `json:"review_reason"`
	Version           int                  `json:"version"`
	CreatedAt         string               `json:"created_at"`
	UpdatedAt         string               `json:"updated_at"`
	Purchases         int                  `json:"purchases"`
	RatingAvg         float64              `json:"rating_avg"`
	RatingCount       int                  `json:"rating_count"`
	PublishedVersions int                  `json:"published_versions"`
	Suspended         bool                 `json:"suspended"`
	Withdrawn         bool                 `json:"withdrawn"`
	Pending           *agentPendingView    `json:"pending"`
	// Versions: the versions that went live, oldest first (on the agent's
	// own read only; left out of the list).
	Versions []agentVersionView `json:"versions,omitempty"`
}

type agentVersionView struct {
	Number      int     `json:"number"`
	ChangeNote  string  `json:"change_note"`
	Price       float64 `json:"price"`
	PublishedAt string  `json:"published_at"`
}

type agentPendingView struct {
	Name         string               `json:"name"`
	Description  string               `json:"description"`
	Instructions string               `json:"instructions"`
	Provider     string               `json:"provider"`
	Model        string               `json:"model"`
	Servers      []domain.AgentServer `json:"servers"`
	Starters     []string             `json:"starters"`
	Price        float64              `json:"price"`
	CategoryID   string               `json:"category_id"`
	ChangeNote   string               `json:"change_note"`
	State        string               `json:"state"`
	ReviewReason *string              `json:"review_reason"`
}

// PresentAgent is a's creator view; purchases counts its sales.
func PresentAgent(a domain.Agent, names map[string]string, purchases int) AgentView {
	v := AgentView{ID: a.ID, Name: a.Name, Description: a.Description, Instructions: a.Instructions, Provider: a.Provider,
		Model: a.Model, Servers: nonNilServers(a.Servers), Starters: nonNilStrings(a.Starters), Price: a.Price, IsFree: a.IsFree(),
		CategoryID: a.CategoryID, CategoryName: names[a.CategoryID], State: a.State, Version: a.Version,
		CreatedAt: utcSeconds(a.CreatedAt), UpdatedAt: utcSeconds(a.UpdatedAt), Purchases: purchases, RatingAvg: a.RatingAvg(),
		RatingCount: a.RatingCount, PublishedVersions: a.Published, Suspended: a.Suspended, Withdrawn: a.Withdrawn}
	if a.State == domain.PromptRejected {
		reason := a.ReviewReason
		v.ReviewReason = &reason
	}
	if pv := a.Pending; pv != nil {
		v.Pending = &agentPendingView{Name: pv.Name, Description: pv.Description, Instructions: pv.Instructions, Provider: pv.Provider,
			Model: pv.Model, Servers: nonNilServers(pv.Servers), Starters: nonNilStrings(pv.Starters), Price: pv.Price,
			CategoryID: pv.CategoryID, ChangeNote: pv.ChangeNote, State: pv.State}
		if pv.State == domain.PromptRejected {
			reason := pv.ReviewReason
			v.Pending.ReviewReason = &reason
		}
	}
	return v
}

func nonNilServers(s []domain.AgentServer) []domain.AgentServer {
	out := make([]domain.AgentServer, len(s))
	for i, x := range s {
		out[i] = domain.AgentServer{ServerID: x.ServerID, Tools: nonNilStrings(x.Tools)}
	}
	return out
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// registry is the agents rules' view of the MCP registry.
func (s *Service) registry(r *http.Request) agents.Registry {
	return func(id string) (domain.MCPServer, bool, error) {
		srv, err := s.st.GetMCPServer(r.Context(), id)
		if errors.Is(err, store.ErrNotFound) {
			return srv, false, nil
		}
		return srv, err == nil, err
	}
}

// Messages of the agent routes.
const (
	msgAgentNotFound  = "Agent not found."
	msgAgentStale     = "This agent changed since you opened it; here it is as it is now."
	MsgAgentWithdrawn = "This agent was taken off the marketplace: its buyers keep it, and it can no longer be edited."
)

// ownAgent is the caller's agent named in the path: 404 for another's.
func (s *Service) ownAgent(r *http.Request) (domain.Agent, error) {
	uid, _ := auth.UserID(r.Context())
	a, err := s.st.GetAgent(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) || (err == nil && a.CreatorID != uid) {
		return domain.Agent{}, httpx.NotFound(msgAgentNotFound)
	}
	return a, err
}

func (s *Service) presentAgent(r *http.Request, a domain.Agent, names map[string]string) (AgentView, error) {
	n, err := s.st.AgentPurchases(r.Context(), a.ID)
	if err != nil {
		return AgentView{}, err
	}
	return PresentAgent(a, names, n), nil
}

func (s *Service) listAgents(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	list, err := s.st.CreatorAgents(r.Context(), uid)
	if err != nil {
		return err
	}
	return s.agentItems().writeList(w, r, list)
}

func (s *Service) getAgent(w http.ResponseWriter, r *http.Request) error {
	a, names, err := s.agentItems().read(r)
	if err != nil {
		return err
	}
	v, err := s.presentAgent(r, a, names)
	if err != nil {
		return err
	}
	versions, err := s.st.AgentVersions(r.Context(), a.ID)
	if err != nil {
		return err
	}
	v.Versions = []agentVersionView{}
	for _, ver := range versions {
		v.Versions = append(v.Versions, agentVersionView{Number: ver.Number, ChangeNote: ver.ChangeNote, Price: ver.Price, PublishedAt: utcSeconds(ver.PublishedAt)})
	}
	httpx.WriteJSON(w, http.StatusOK, v)
	return nil
}

// newAgent makes the caller's draft from in and stores it: every rule
// checked before the one write.
func (s *Service) newAgent(r *http.Request, c domain.Creator, in agents.Input, names map[string]string) (domain.Agent, error) {
	a, err := agents.New(agents.NewID(random.Hex(6)), in, s.opts.Now(), names, s.registry(r))
	if err != nil {
		return a, ruleBroken(err)
	}
	a.CreatorID, a.CreatorUsername, a.CreatorDisplayName = c.UserID, c.Username, c.DisplayName
	return a, s.st.PutAgent(r.Context(), a)
}

func (s *Service) createAgent(w http.ResponseWriter, r *http.Request) error {
	c, err := s.creator(r)
	if err != nil {
		return err
	}
	var in agents.Input
	if err := httpx.DecodeJSONLimit(w, r, &in, agentBodyLimit); err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	a, err := s.newAgent(r, c, in, names)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, PresentAgent(a, names, 0))
	return nil
}

// importAgent makes a draft from an agent file or a LobeChat agent file,
// answering what it did not take.
func (s *Service) importAgent(w http.ResponseWriter, r *http.Request) error {
	c, err := s.creator(r)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, agentBodyLimit))
	if err != nil {
		if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
			return &httpx.Error{Code: httpx.CodeTooLarge, Detail: "The file is larger than 1 MB."}
		}
		return httpx.Invalid("Could not read the file.")
	}
	in, ignored, err := agents.Import(data)
	if bad, ok := errors.AsType[*agents.ImportError](err); ok {
		return httpx.Invalid(bad.Message)
	}
	if err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	if in.CategoryID == nil {
		first, err := s.firstCategory(r)
		if err != nil {
			return err
		}
		in.CategoryID = &first
	}
	a, err := s.newAgent(r, c, in, names)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"agent": PresentAgent(a, names, 0), "ignored": ignored})
	return nil
}

// firstCategory is the catalogue's first category: an imported agent's
// until its creator picks one.
func (s *Service) firstCategory(r *http.Request) (string, error) {
	cats, err := s.st.Categories(r.Context())
	if err != nil || len(cats) == 0 {
		return "", err
	}
	return cats[0].ID, nil
}

// patchAgent edits a draft or rejected agent at the version the creator
// read; an edit of a published one is its next version (pending).
func (s *Service) patchAgent(w http.ResponseWriter, r *http.Request) error {
	var in agents.Input
	if err := httpx.DecodeJSONLimit(w, r, &in, agentBodyLimit); err != nil {
		return err
	}
	if _, err := in.VersionRead(); err != nil {
		return ruleBroken(err)
	}
	items := s.agentItems()
	cur, names, err := items.read(r)
	if err != nil {
		return err
	}
	if err := items.refuseEdit(agentStage(cur)); err != nil {
		return err
	}
	if cur.State == domain.PromptPublished {
		return s.editPublishedAgent(w, r, cur, in, names)
	}
	next, err := agents.Edit(cur, in, s.opts.Now(), names, s.registry(r))
	if errors.Is(err, agents.ErrStale) {
		return items.conflict(w, r, names)
	}
	if err != nil {
		return ruleBroken(err)
	}
	return items.answerWrite(w, r, s.st.UpdateAgent(r.Context(), next, cur.Version), next, names)
}

// agentStage is where a stands in its lifecycle.
func agentStage(a domain.Agent) stage {
	st := stage{withdrawn: a.Withdrawn, state: a.State, pending: a.Pending != nil}
	if st.pending {
		st.pendingState = a.Pending.State
	}
	return st
}

// editPublishedAgent saves an edit of a published agent as its next
// version (pending), made from the pending one when there is one.
func (s *Service) editPublishedAgent(w http.ResponseWriter, r *http.Request, cur domain.Agent, in agents.Input, names map[string]string) error {
	items := s.agentItems()
	if err := items.refusePendingEdit(agentStage(cur)); err != nil {
		return err
	}
	note, err := agents.ChangeNote(in.ChangeNote, cur.Pending)
	if err != nil {
		return ruleBroken(err)
	}
	edited, err := agents.Edit(agents.UnderReview(cur), in, s.opts.Now(), names, s.registry(r))
	if errors.Is(err, agents.ErrStale) {
		return items.conflict(w, r, names)
	}
	if err != nil {
		return ruleBroken(err)
	}
	pv := agents.Pending(edited, note)
	next := cur
	next.Pending, next.Version, next.UpdatedAt = &pv, edited.Version, edited.UpdatedAt
	return items.answerWrite(w, r, s.st.UpdateAgent(r.Context(), next, cur.Version), next, names)
}

// submitAgent sends a draft or rejected agent, or a published agent's
// next version, to review: held to today's rules again first (a server
// may have left the registry since).
func (s *Service) submitAgent(w http.ResponseWriter, r *http.Request) error {
	cur, err := s.ownAgent(r)
	if err != nil {
		return err
	}
	if _, err := s.creator(r); err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	items := s.agentItems()
	if err := items.refuseSubmit(agentStage(cur)); err != nil {
		return err
	}
	next := cur
	if cur.State == domain.PromptPublished {
		pv := *cur.Pending
		pv.State, pv.ReviewReason = domain.PromptInReview, ""
		next.Pending = &pv
	} else {
		next.State, next.ReviewReason = domain.PromptInReview, ""
	}
	if err := agents.Check(agents.UnderReview(cur), names, s.registry(r)); err != nil {
		return ruleBroken(err)
	}
	now := s.opts.Now().UTC()
	next.Version, next.UpdatedAt = cur.Version+1, now
	return items.answerWrite(w, r, s.st.SubmitAgent(r.Context(), next, cur.Version, now), next, names)
}

// deleteAgent removes an agent nobody bought; one that sold is withdrawn
// instead: off the marketplace, its buyers keep it.
func (s *Service) deleteAgent(w http.ResponseWriter, r *http.Request) error {
	items := s.agentItems()
	cur, names, err := items.read(r)
	if err != nil {
		return err
	}
	if staleVersion(r, cur.Version) {
		return items.conflict(w, r, names)
	}
	err = s.st.DeleteAgent(r.Context(), cur.ID, cur.Version)
	return items.answerDelete(w, r, names, err, store.ErrAgentInUse, func() error {
		off := cur
		off.Withdrawn, off.Version, off.UpdatedAt = true, cur.Version+1, s.opts.Now().UTC()
		return s.st.UpdateAgent(r.Context(), off, cur.Version)
	})
}
