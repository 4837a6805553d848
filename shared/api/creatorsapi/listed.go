package creatorsapi

import (
	"errors"
	"net/http"
	"strconv"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// A creator's prompts and agents go through one lifecycle (docs/creators.md):
// draft or rejected, in review, published with a next version pending,
// withdrawn once deleted after a sale. What their routes answer the same
// way lives here; the rules of each item stay with its own routes.

// listed is one kind of a creator's listed items: how its messages name
// it, how the caller's own one is read (404 for another's) and shown.
type listed[T any] struct {
	noun      string // "prompt", "agent"
	withdrawn string // the 409 of an edit or a submit once withdrawn
	stale     string // the detail of a 409 that carries the item as it now is
	own       func(*http.Request) (T, error)
	names     func(*http.Request) (map[string]string, error) // the categories' names, which a view shows
	present   func(*http.Request, T, map[string]string) (any, error)
}

func (s *Service) promptItems() listed[domain.Prompt] {
	return listed[domain.Prompt]{noun: "prompt", withdrawn: MsgWithdrawn, stale: msgStale, own: s.ownPrompt,
		names: s.categoryNames,
		present: func(_ *http.Request, p domain.Prompt, names map[string]string) (any, error) {
			return presentPrompt(p, names), nil
		}}
}

func (s *Service) agentItems() listed[domain.Agent] {
	return listed[domain.Agent]{noun: "agent", withdrawn: MsgAgentWithdrawn, stale: msgAgentStale, own: s.ownAgent,
		names: s.categoryNames,
		present: func(r *http.Request, a domain.Agent, names map[string]string) (any, error) {
			return s.presentAgent(r, a, names)
		}}
}

// read is the caller's item named in the path (404 for another's) and
// the category names its view needs.
func (k listed[T]) read(r *http.Request) (T, map[string]string, error) {
	cur, err := k.own(r)
	if err != nil {
		return cur, nil, err
	}
	names, err := k.names(r)
	return cur, names, err
}

// writeList answers list, the caller's items, as their views.
func (k listed[T]) writeList(w http.ResponseWriter, r *http.Request, list []T) error {
	names, err := k.names(r)
	if err != nil {
		return err
	}
	views := make([]any, len(list))
	for i, it := range list {
		if views[i], err = k.present(r, it, names); err != nil {
			return err
		}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"items": views})
	return nil
}

// stage is where an item stands, for the refusals its edit and submit
// share: pending, whether it has a next version, and that one's state.
type stage struct {
	withdrawn    bool
	state        string
	pending      bool
	pendingState string
}

// refuseEdit refuses an edit of an item withdrawn or in review (nil: it
// may be edited; a published one as its next version).
func (k listed[T]) refuseEdit(st stage) error {
	if st.withdrawn {
		return httpx.Conflict(k.withdrawn)
	}
	if st.state == domain.PromptInReview {
		return httpx.Conflict("This " + k.noun + " is in review: you can edit it once it is approved or rejected.")
	}
	return nil
}

// refusePendingEdit refuses an edit of a published item whose next
// version is in review.
func (k listed[T]) refusePendingEdit(st stage) error {
	if st.pending && st.pendingState == domain.PromptInReview {
		return httpx.Conflict("The next version of this " + k.noun + " is in review: you can edit it once it is approved or rejected.")
	}
	return nil
}

// refuseSubmit refuses a submit of an item withdrawn, in review, or
// published with no next version to review or with that one in review
// already (nil: it may be submitted).
func (k listed[T]) refuseSubmit(st stage) error {
	switch {
	case st.withdrawn:
		return httpx.Conflict(k.withdrawn)
	case st.state == domain.PromptInReview:
		return httpx.Conflict("This " + k.noun + " is already in review.")
	case st.state == domain.PromptPublished && !st.pending:
		return httpx.Conflict("This " + k.noun + " is already published: edit it to make a new version, then submit that.")
	case st.state == domain.PromptPublished && st.pendingState == domain.PromptInReview:
		return httpx.Conflict("The next version of this " + k.noun + " is already in review.")
	}
	return nil
}

// staleVersion: the delete names a version (query "version") other than
// the one read.
func staleVersion(r *http.Request, read int) bool {
	v := r.URL.Query().Get("version")
	return v != "" && v != strconv.Itoa(read)
}

// answerDelete answers a delete whose write answered err: one refused
// because the item is owned (inUse) withdraws it instead (withdraw's
// answer then counts); a lost race is a 409 with the item as it now is.
func (k listed[T]) answerDelete(w http.ResponseWriter, r *http.Request, names map[string]string, err, inUse error, withdraw func() error) error {
	if errors.Is(err, inUse) {
		err = withdraw()
	}
	if errors.Is(err, store.ErrVersionConflict) {
		return k.conflict(w, r, names)
	}
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// answerWrite answers a write of next (as written) that answered err: a
// stale version or state is a 409 with the item as it now is.
func (k listed[T]) answerWrite(w http.ResponseWriter, r *http.Request, err error, next T, names map[string]string) error {
	if errors.Is(err, store.ErrVersionConflict) || errors.Is(err, store.ErrWrongState) {
		return k.conflict(w, r, names)
	}
	if err != nil {
		return err
	}
	v, err := k.present(r, next, names)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, v)
	return nil
}

// conflict answers a write that lost a race: 409 with the item read again,
// or 404 when it is gone.
func (k listed[T]) conflict(w http.ResponseWriter, r *http.Request, names map[string]string) error {
	cur, err := k.own(r)
	if err != nil {
		return err
	}
	return k.writeConflict(w, r, cur, names)
}

// writeConflict answers 409 with cur.
func (k listed[T]) writeConflict(w http.ResponseWriter, r *http.Request, cur T, names map[string]string) error {
	v, err := k.present(r, cur, names)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusConflict, map[string]any{"detail": k.stale, "code": httpx.CodeConflict, "current": v})
	return nil
}
