package creatorsapi

import (
	"errors"
	"net/http"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/prompts"
	"aiwork/shared/store"
)

// The public creator page: a creator's profile and their prompts on the
// marketplace, as cards (no content), with their ratings. Unknown and
// suspended creators are not found.

type publicCardJSON struct {
	ID                   string    `json:"id"`
	Title                string    `json:"title"`
	Description          string    `json:"description"`
	DescriptionTruncated bool      `json:"description_truncated,omitempty"`
	Preview              string    `json:"preview"`
	PreviewTruncated     bool      `json:"preview_truncated"`
	Price                float64   `json:"price"`
	RatingAvg            float64   `json:"rating_avg"`
	RatingCount          int       `json:"rating_count"`
	CategoryID           string    `json:"category_id"`
	CategoryName         string    `json:"category_name"`
	CreatedAt            time.Time `json:"created_at"`
}

type publicProfileJSON struct {
	Username    string           `json:"username"`
	DisplayName string           `json:"display_name"`
	Bio         string           `json:"bio"`
	Country     string           `json:"country"`
	Prompts     []publicCardJSON `json:"prompts"`
}

func (s *Service) publicProfile(w http.ResponseWriter, r *http.Request) error {
	c, err := s.st.CreatorByUsername(r.Context(), r.PathValue("username"))
	if errors.Is(err, store.ErrNotFound) || (err == nil && c.Suspended) {
		return httpx.NotFound("Creator not found.")
	}
	if err != nil {
		return err
	}
	ps, err := s.st.CreatorPrompts(r.Context(), c.UserID)
	if err != nil {
		return err
	}
	names, err := s.categoryNames(r)
	if err != nil {
		return err
	}
	out := publicProfileJSON{Username: c.Username, DisplayName: c.DisplayName, Bio: c.Bio, Country: c.Country, Prompts: []publicCardJSON{}}
	for _, p := range ps {
		if p.State != domain.PromptPublished || !p.OnSale() {
			continue
		}
		card := prompts.Card(p)
		out.Prompts = append(out.Prompts, publicCardJSON{ID: card.ID, Title: card.Title, Description: card.Description,
			DescriptionTruncated: card.DescriptionTruncated, Preview: card.Preview, PreviewTruncated: card.PreviewTruncated, Price: card.Price,
			RatingAvg: card.RatingAvg(), RatingCount: card.RatingCount, CategoryID: card.CategoryID, CategoryName: names[card.CategoryID],
			CreatedAt: card.CreatedAt})
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}
