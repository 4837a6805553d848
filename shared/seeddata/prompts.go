package seeddata

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"time"

	"aiwork/shared/domain"
)

//go:embed prompts.json
var promptsJSON []byte

type promptEntry struct {
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	CategoryID  string    `json:"category_id"`
	Price       float64   `json:"price"`
	CreatedAt   time.Time `json:"created_at"`
	Featured    bool      `json:"featured"`
	Content     string    `json:"content"`
}

// Prompts is the seed catalogue (prompts.json), with stable ids.
func Prompts() ([]domain.Prompt, error) {
	var entries []promptEntry
	if err := json.Unmarshal(promptsJSON, &entries); err != nil {
		return nil, fmt.Errorf("seed data: prompts.json: %w", err)
	}
	out := make([]domain.Prompt, 0, len(entries))
	for _, e := range entries {
		out = append(out, domain.Prompt{
			ID: e.ID, Title: e.Title, Description: e.Description, Content: e.Content, Price: e.Price,
			CategoryID: e.CategoryID, Featured: e.Featured, CreatedAt: e.CreatedAt,
		})
	}
	return out, nil
}
