package promptsapi

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

// A creator's prompt keeps every version that went live, and its buyers
// keep them all (a purchase covers every version): the prompt page lists
// them with their "what changed" notes, and a caller with access reads
// each one's content. The platform's own prompts have no versions.

type versionJSON struct {
	Number      int       `json:"number"`
	ChangeNote  string    `json:"change_note"`
	Price       float64   `json:"price"`
	PublishedAt time.Time `json:"published_at"`
}

type versionContentJSON struct {
	versionJSON
	Title       string `json:"title"`
	Description string `json:"description"`
	Content     string `json:"content"`
}

// withVersions adds p's versions to its page: the live one's number and
// the list, oldest first (notes, never content).
func (s *Service) withVersions(r *http.Request, p domain.Prompt, out *promptJSON) error {
	if p.Published == 0 {
		return nil
	}
	vs, err := s.st.PromptVersions(r.Context(), p.ID)
	if err != nil {
		return err
	}
	out.CurrentVersion = p.Published
	out.Versions = make([]versionJSON, len(vs))
	for i, v := range vs {
		out.Versions[i] = versionJSON{Number: v.Number, ChangeNote: v.ChangeNote, Price: v.Price, PublishedAt: v.PublishedAt}
	}
	return nil
}

// version answers one version's content to a caller with access (its
// buyers, a free claim) or its creator; 404 for anyone else, as for an
// unknown version.
func (s *Service) version(w http.ResponseWriter, r *http.Request) error {
	p, err := s.st.GetPrompt(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound("Prompt not found")
	}
	if err != nil {
		return err
	}
	v, err := s.loadViewer(r.Context())
	if err != nil {
		return err
	}
	uid, _ := auth.UserID(r.Context())
	if !v.hasAccess(p.ID) && (p.CreatorID == "" || p.CreatorID != uid) {
		return httpx.NotFound("Prompt not found")
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || n > p.Published {
		return httpx.NotFound("Version not found")
	}
	vs, err := s.st.PromptVersions(r.Context(), p.ID)
	if err != nil {
		return err
	}
	for _, ver := range vs {
		if ver.Number == n {
			httpx.WriteJSON(w, http.StatusOK, versionContentJSON{
				versionJSON: versionJSON{Number: ver.Number, ChangeNote: ver.ChangeNote, Price: ver.Price, PublishedAt: ver.PublishedAt},
				Title:       ver.Title, Description: ver.Description, Content: ver.Content})
			return nil
		}
	}
	return httpx.NotFound("Version not found")
}
