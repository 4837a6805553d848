package creatorsapi

import (
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/prompts"
	"aiwork/shared/random"
	"aiwork/shared/store"
)

// promptBodyLimit bounds a prompt's request body (as the admins').
const promptBodyLimit = 512 << 10

// promptInput is what a creator may set on their prompt: the
// marketplace's fields, and on an edit the version they read. Where it
// stands (featured, published) is the review's, not theirs.
type promptInput struct {
	Version     *int     `json:"version"`
	Title       *string  `json:"title"`
	Description *string  `json:"description"`
	Content     *string  `json:"content"`
	Price       *float64 `json:"price"`
	CategoryID  *string  `json:"category_id"`
	// ChangeNote says what changed, for the buyers: required on an edit of
	// a published prompt (its next version).
	ChangeNote *string `json:"change_note"`
}

// MaxChangeNote bounds a version's "what changed" note, in characters.
const MaxChangeNote = 300

func (in promptInput) rules() prompts.Input {
	return prompts.Input{Version: in.Version, Title: in.Title, Description: in.Description, Content: in.Content, Price: in.Price, CategoryID: in.CategoryID}
}

type promptView struct {
	ID           string  `json:"id"`
	Title        string  `json:"title"`
	Description  string  `json:"description"`
	Content      string  `json:"content"`
	Price        float64 `json:"price"`
	CategoryID   string  `json:"category_id"`
	CategoryName string  `json:"category_name"`
	State        string  `json:"state"`
	ReviewReason *string `json:"review_reason"`
	Version      int     `json:"version"`
	CreatedAt    string  `json:"created_at"`
	UpdatedAt    string  `json:"updated_at"`
	// Counts only: a creator never sees who bought or used a prompt.
	Purchases   int     `json:"purchases"`
	FreeUses    int     `json:"free_uses"`
	RatingAvg   float64 `json:"rating_avg"`
	RatingCount int     `json:"rating_count"`
	// PublishedVersions counts the versions that went live; Pending is the
	// next one of a published prompt (null when none).
	PublishedVersions int `json:"published_versions"`
	// Withdrawn: its creator deleted it after it sold; it left the
	// marketplace and its buyers keep it.
	Withdrawn bool         `json:"withdrawn"`
	Pending   *pendingView `json:"pending"`
}

type pendingView struct {
	Title        string  `json:"title"`
	Description  string  `json:"description"`
	Content      string  `json:"content"`
	Price        float64 `json:"price"`
	CategoryID   string  `json:"category_id"`
	ChangeNote   string  `json:"change_note"`
	State        string  `json:"state"`
	ReviewReason *string `json:"review_reason"`
}

func presentPrompt(p domain.Prompt, names map[string]string) promptView {
	v := promptView{ID: p.ID, Title: p.Title, Description: p.Description, Content: p.Content, Price: p.Price, CategoryID: p.CategoryID,
		CategoryName: names[p.CategoryID], State: p.State, Version: p.Version, CreatedAt: utcSeconds(p.CreatedAt),
		UpdatedAt: utcSeconds(p.UpdatedAt), Purchases: p.Stats.Purchases, FreeUses: p.Stats.FreeUses, RatingAvg: p.RatingAvg(),
		RatingCount: p.RatingCount}
	if p.State == domain.PromptRejected {
		v.ReviewReason = &p.ReviewReason
	}
	if p.UpdatedAt.IsZero() {
		v.UpdatedAt = v.CreatedAt
	}
	v.PublishedVersions = p.Published
	v.Withdrawn = withdrawn(p)
	if pv := p.Pending; pv != nil {
		v.Pending = &pendingView{Title: pv.Title, Description: pv.Description, Content: pv.Content, Price: pv.Price, CategoryID: pv.CategoryID,
			ChangeNote: pv.ChangeNote, State: pv.State}
		if pv.State == domain.PromptRejected {
			reason := pv.ReviewReason
			v.Pending.ReviewReason = &reason
		}
	}
	return v
}

func utcSeconds(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func (s *Service) categoryNames(r *http.Request) (map[string]string, error) {
	return s.st.CategoryNames(r.Context())
}

// ruleBroken is a broken prompt rule as the client's 400.
func ruleBroken(err error) error {
	if bad, ok := errors.AsType[*prompts.InvalidError](err); ok {
		return httpx.Invalid(bad.Message)
	}
	return err
}

// creator is the caller's creator profile: 403 until they saved one, or
// while they are suspended.
func (s *Service) creator(r *http.Request) (domain.Creator, error) {
	uid, _ := auth.UserID(r.Context())
	c, err := s.st.GetCreator(r.Context(), uid)
	if errors.Is(err, store.ErrNotFound) {
		return c, httpx.Forbidden(msgNotCreator)
	}
	if err == nil && c.Suspended {
		return c, httpx.Forbidden(msgSuspended)
	}
	return c, err
}

// ownPrompt is the caller's prompt named in the path: 404 for another's
// (or none), so a creator learns nothing of prompts not theirs.
func (s *Service) ownPrompt(r *http.Request) (domain.Prompt, error) {
	uid, _ := auth.UserID(r.Context())
	p, err := s.st.GetPrompt(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) || (err == nil && p.CreatorID != uid) {
		return domain.Prompt{}, httpx.NotFound("Prompt not found.")
	}
	return p, err
}

func (s *Service) listPrompts(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	ps, err := s.st.CreatorPrompts(r.Context(), uid)
	if err != nil {
		return err
	}
	return s.promptItems().writeList(w, r, ps)
}

func (s *Service) getPrompt(w http.ResponseWriter, r *http.Request) error {
	p, names, err := s.promptItems().read(r)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, presentPrompt(p, names))
	return nil
}

// createPrompt saves a new draft (unpublished until approved).
func (s *Service) createPrompt(w http.ResponseWriter, r *http.Request) error {
	c, err := s.creator(r)
	if err != nil {
		return err
	}
	var in promptInput
	if err := httpx.DecodeJSONLimit(w, r, &in, promptBodyLimit); err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	rules := in.rules()
	unpublished := false
	rules.Published = &unpublished
	p, err := prompts.New("p-"+random.Hex(6), rules, s.opts.Now(), names)
	if err != nil {
		return ruleBroken(err)
	}
	p.CreatorID, p.State = c.UserID, domain.PromptDraft
	p.CreatorUsername, p.CreatorDisplayName = c.Username, c.DisplayName
	if err := s.st.CreatePrompt(r.Context(), p); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, presentPrompt(p, names))
	return nil
}

const msgSuspended = "Your creator account is suspended: your prompts are off the marketplace."

const msgStale = "This prompt changed since you opened it; here it is as it is now."

// patchPrompt edits a draft or rejected prompt at the version the creator
// read.
func (s *Service) patchPrompt(w http.ResponseWriter, r *http.Request) error {
	var in promptInput
	if err := httpx.DecodeJSONLimit(w, r, &in, promptBodyLimit); err != nil {
		return err
	}
	rules := in.rules()
	if _, err := rules.VersionRead(); err != nil {
		return ruleBroken(err)
	}
	items := s.promptItems()
	cur, names, err := items.read(r)
	if err != nil {
		return err
	}
	if err := items.refuseEdit(promptStage(cur)); err != nil {
		return err
	}
	if cur.State == domain.PromptPublished {
		return s.editPublished(w, r, cur, in, names)
	}
	next, err := prompts.Edit(cur, rules, s.opts.Now(), names)
	if errors.Is(err, prompts.ErrStale) {
		return items.writeConflict(w, r, cur, names)
	}
	if err != nil {
		return ruleBroken(err)
	}
	return items.answerWrite(w, r, s.st.UpdatePrompt(r.Context(), next, cur.Version), next, names)
}

// promptStage is where p stands in its lifecycle.
func promptStage(p domain.Prompt) stage {
	st := stage{withdrawn: withdrawn(p), state: p.State, pending: p.Pending != nil}
	if st.pending {
		st.pendingState = p.Pending.State
	}
	return st
}

// editPublished saves an edit of a published prompt as its next version
// (pending): the live one stays as it is until an admin approves the
// next. The edit is made from the pending version when there is one.
func (s *Service) editPublished(w http.ResponseWriter, r *http.Request, cur domain.Prompt, in promptInput, names map[string]string) error {
	items := s.promptItems()
	if err := items.refusePendingEdit(promptStage(cur)); err != nil {
		return err
	}
	note := ""
	if in.ChangeNote != nil {
		note = strings.TrimSpace(*in.ChangeNote)
	}
	if cur.Pending != nil && in.ChangeNote == nil {
		note = cur.Pending.ChangeNote
	}
	if note == "" {
		return httpx.Invalid("change_note is required: say what changed, for your buyers.")
	}
	if utf8.RuneCountInString(note) > MaxChangeNote {
		return httpx.Invalid("change_note must be at most 300 characters")
	}
	base := cur
	if pv := cur.Pending; pv != nil {
		base.Title, base.Description, base.Content, base.Price, base.CategoryID = pv.Title, pv.Description, pv.Content, pv.Price, pv.CategoryID
	}
	next, err := prompts.Edit(base, in.rules(), s.opts.Now(), names)
	if errors.Is(err, prompts.ErrStale) {
		return items.writeConflict(w, r, cur, names)
	}
	if err != nil {
		return ruleBroken(err)
	}
	pv := domain.PendingVersion{Title: next.Title, Description: next.Description, Content: next.Content, Price: next.Price,
		CategoryID: next.CategoryID, ChangeNote: note, State: domain.PromptDraft}
	err = s.st.SetPending(r.Context(), cur.ID, cur.Version, pv, next.UpdatedAt)
	if err == nil {
		cur.Pending, cur.Version, cur.UpdatedAt = &pv, cur.Version+1, next.UpdatedAt
	}
	return items.answerWrite(w, r, err, cur, names)
}

// MsgWithdrawn answers an edit or a submit of a prompt its creator deleted
// after it sold.
const MsgWithdrawn = "This prompt was taken off the marketplace: its buyers keep it, and it can no longer be edited."

// withdrawn: a published prompt taken off the marketplace (drafts and
// prompts in review are unpublished too, but were never on it).
func withdrawn(p domain.Prompt) bool { return p.State == domain.PromptPublished && p.Unpublished }

// submitPrompt sends a draft or rejected prompt to review.
func (s *Service) submitPrompt(w http.ResponseWriter, r *http.Request) error {
	cur, names, err := s.promptItems().read(r)
	if err != nil {
		return err
	}
	if _, err := s.creator(r); err != nil {
		return err
	}
	if err := s.promptItems().refuseSubmit(promptStage(cur)); err != nil {
		return err
	}
	if cur.State == domain.PromptPublished {
		return s.submitPending(w, r, cur, names)
	}
	// Held to today's rules again: a category may have gone since.
	if err := prompts.Check(cur, names); err != nil {
		return ruleBroken(err)
	}
	now := s.opts.Now()
	err = s.st.SubmitPrompt(r.Context(), cur, cur.Version, now)
	if err == nil {
		cur.State, cur.Version, cur.UpdatedAt = domain.PromptInReview, cur.Version+1, now.UTC()
	}
	return s.promptItems().answerWrite(w, r, err, cur, names)
}

// submitPending sends the next version of a published prompt to review
// (it has one, not in review yet: refuseSubmit).
func (s *Service) submitPending(w http.ResponseWriter, r *http.Request, cur domain.Prompt, names map[string]string) error {
	now := s.opts.Now()
	err := s.st.SubmitPending(r.Context(), cur, cur.Version, now)
	if err == nil {
		pv := *cur.Pending
		pv.State, pv.ReviewReason = domain.PromptInReview, ""
		cur.Pending, cur.Version, cur.UpdatedAt = &pv, cur.Version+1, now.UTC()
	}
	return s.promptItems().answerWrite(w, r, err, cur, names)
}

// deletePrompt removes a prompt nobody bought or used; one that has
// owners is taken off the marketplace instead (they keep it).
func (s *Service) deletePrompt(w http.ResponseWriter, r *http.Request) error {
	items := s.promptItems()
	cur, names, err := items.read(r)
	if err != nil {
		return err
	}
	if staleVersion(r, cur.Version) {
		return items.writeConflict(w, r, cur, names)
	}
	err = s.st.DeletePrompt(r.Context(), cur.ID, cur.Version)
	return items.answerDelete(w, r, names, err, store.ErrPromptInUse, func() error {
		off := cur
		off.Unpublished, off.Version, off.UpdatedAt = true, cur.Version+1, s.opts.Now().UTC()
		return s.st.UpdatePrompt(r.Context(), off, cur.Version)
	})
}
