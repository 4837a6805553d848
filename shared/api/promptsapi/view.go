package promptsapi

import (
	"context"
	"strings"
	"time"
	"unicode"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
)

// PreviewLength is how much of a prompt everyone may read (SPEC §9).
const PreviewLength = 200

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

// preview is what everyone may read of content: at most PreviewLength
// characters (not bytes), cut at the last word boundary (whitespace) within
// them so that no word shows half ("IN..."), trailing spaces dropped; a first
// word longer than PreviewLength is cut at PreviewLength. truncated reports
// whether content goes on. The ellipsis is the web app's (prompt-text.ts
// cutPreview cuts content the same way).
func preview(content string) (text string, truncated bool) {
	runes := []rune(content)
	if len(runes) <= PreviewLength {
		return content, false
	}
	cut := PreviewLength
	if !unicode.IsSpace(runes[cut]) {
		for cut > 0 && !unicode.IsSpace(runes[cut-1]) {
			cut--
		}
		if cut == 0 {
			cut = PreviewLength
		}
	}
	return strings.TrimRightFunc(string(runes[:cut]), unicode.IsSpace), true
}

func (s *Service) categoryNames(ctx context.Context) (map[string]string, error) {
	return s.categoryNamesCache.get(ctx, s.st)
}
