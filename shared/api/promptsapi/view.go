package promptsapi

import (
	"context"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/prompts"
)

// PreviewLength is how much of a prompt everyone may read (SPEC §9).
const PreviewLength = prompts.PreviewLength

type categoryJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// promptJSON is a prompt as one caller may see it. Content is set only for a
// caller with access; present is the one place that decides.
type promptJSON struct {
	ID          string       `json:"id"`
	Title       string       `json:"title"`
	Description string       `json:"description"`
	Content     *string      `json:"content,omitempty"`
	Preview     string       `json:"preview"`
	Price       float64      `json:"price"`
	RatingAvg   float64      `json:"rating_avg"`
	RatingCount int          `json:"rating_count"`
	UserRating  *int         `json:"user_rating"`
	IsPurchased bool         `json:"is_purchased"`
	Category    categoryJSON `json:"category"`
	CreatedAt   time.Time    `json:"created_at"`

	// PreviewTruncated: the content goes on after the preview (the web app
	// then shows an ellipsis and "Click View to see the full prompt").
	PreviewTruncated bool `json:"preview_truncated"`
	// DescriptionTruncated: a list's card carries the description's start
	// only (prompts.CardDescriptionLength); the prompt itself has it all.
	DescriptionTruncated bool `json:"description_truncated,omitempty"`
	// Creator is who sells the prompt; null for the platform's own.
	Creator *creatorJSON `json:"creator"`
	// CurrentVersion and Versions: a creator's prompt's page, the live
	// version's number and every version that went live (versions.go).
	CurrentVersion int           `json:"current_version,omitempty"`
	Versions       []versionJSON `json:"versions,omitempty"`
}

type creatorJSON struct {
	Username    string `json:"username"`
	DisplayName string `json:"display_name"`
}

func creatorOf(username, displayName string) *creatorJSON {
	if username == "" {
		return nil
	}
	return &creatorJSON{Username: username, DisplayName: displayName}
}

// viewer is what decides access and the per-caller fields: nothing for a
// visitor; purchases, free claims and ratings for a signed-in user.
type viewer struct {
	signedIn  bool
	owned     map[string]bool
	freeUsed  map[string]bool
	ratings   map[string]int
	freeState domain.FreeStatus
}

func (v viewer) hasAccess(pid string) bool { return v.owned[pid] || v.freeUsed[pid] }

// own is the ids of the caller's prompts: bought, and with free too the
// ones claimed free (never nil: a visitor owns none).
func (v viewer) own(free bool) []string {
	out := []string{}
	for id := range v.owned {
		out = append(out, id)
	}
	if free {
		for id := range v.freeUsed {
			if !v.owned[id] {
				out = append(out, id)
			}
		}
	}
	return out
}

// loadViewer reads the caller's state, whatever the catalogue size: the
// owned prompts, the free-use status (FreeStatus: the account's quota item,
// its profile until its first claim, its mailbox's quota) and the ratings.
func (s *Service) loadViewer(ctx context.Context) (viewer, error) {
	uid, ok := auth.UserID(ctx)
	if !ok {
		return viewer{}, nil
	}
	owned, err := s.st.OwnedPromptIDs(ctx, uid)
	if err != nil {
		return viewer{}, err
	}
	status, err := s.callerFreeStatus(ctx, uid)
	if err != nil {
		return viewer{}, err
	}
	ratings, err := s.st.UserRatings(ctx, uid)
	if err != nil {
		return viewer{}, err
	}
	return viewer{signedIn: true, owned: toSet(owned), freeUsed: toSet(status.PromptIDs), ratings: ratings, freeState: status}, nil
}

func toSet(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func (s *Service) present(p domain.Prompt, v viewer, categories map[string]string) promptJSON {
	text, truncated := preview(p.Content)
	out := promptJSON{
		ID: p.ID, Title: p.Title, Description: p.Description, Preview: text, PreviewTruncated: truncated,
		Price: p.Price, RatingAvg: p.RatingAvg(), RatingCount: p.RatingCount,
		IsPurchased: v.owned[p.ID], CreatedAt: p.CreatedAt,
		Category: categoryJSON{ID: p.CategoryID, Name: categories[p.CategoryID]},
		Creator:  creatorOf(p.CreatorUsername, p.CreatorDisplayName),
	}
	if v.hasAccess(p.ID) {
		content := p.Content
		out.Content = &content
	}
	if r, ok := v.ratings[p.ID]; ok {
		out.UserRating = &r
	}
	return out
}

// preview is what everyone may read of content (prompts.Preview).
func preview(content string) (text string, truncated bool) { return prompts.Preview(content) }

// presentCard is a list's card as one caller may see it; content is the
// prompt's, read only for a caller with access.
func (s *Service) presentCard(c domain.PromptCard, content *string, v viewer, categories map[string]string) promptJSON {
	out := promptJSON{
		ID: c.ID, Title: c.Title, Description: c.Description, DescriptionTruncated: c.DescriptionTruncated,
		Preview: c.Preview, PreviewTruncated: c.PreviewTruncated,
		Price: c.Price, RatingAvg: c.RatingAvg(), RatingCount: c.RatingCount,
		IsPurchased: v.owned[c.ID], CreatedAt: c.CreatedAt,
		Category: categoryJSON{ID: c.CategoryID, Name: categories[c.CategoryID]},
		Creator:  creatorOf(c.CreatorUsername, c.CreatorDisplayName),
	}
	if content != nil && v.hasAccess(c.ID) {
		out.Content = content
	}
	if r, ok := v.ratings[c.ID]; ok {
		out.UserRating = &r
	}
	return out
}

func (s *Service) categoryNames(ctx context.Context) (map[string]string, error) {
	return s.categoryNamesCache.get(ctx, s.st)
}
