package prompts

import (
	"errors"
	"strings"
	"time"

	"aiwork/shared/domain"
)

// Input is a writer's request about a prompt: the fields they may set,
// each left out (nil) keeping what the prompt has, and on an edit the
// version they read. Title, description and category are trimmed of
// surrounding space; content is kept exactly as written. Featured and
// Published place the prompt in the catalogue.
type Input struct {
	// Version is the version the writer read: an edit is made from it
	// (Edit); a new prompt has none to read (New leaves it aside).
	Version     *int     `json:"version"`
	Title       *string  `json:"title"`
	Description *string  `json:"description"`
	Content     *string  `json:"content"`
	Price       *float64 `json:"price"`
	CategoryID  *string  `json:"category_id"`
	Featured    *bool    `json:"featured"`
	Published   *bool    `json:"published"`
}

// Apply sets on p the fields in gives (Version is not one: Edit moves it on).
func (in Input) Apply(p *domain.Prompt) {
	trimmed := func(dst *string, v *string) {
		if v != nil {
			*dst = strings.TrimSpace(*v)
		}
	}
	trimmed(&p.Title, in.Title)
	trimmed(&p.Description, in.Description)
	if in.Content != nil {
		p.Content = *in.Content
	}
	trimmed(&p.CategoryID, in.CategoryID)
	if in.Price != nil {
		p.Price = *in.Price
	}
	if in.Featured != nil {
		p.Featured = *in.Featured
	}
	if in.Published != nil {
		p.Unpublished = !*in.Published
	}
}

// FirstVersion is the version of a prompt a writer made. A seeded prompt
// no writer has edited is at version 0.
const FirstVersion = 1

// New is the prompt id that in makes at now (published unless in says
// otherwise), at FirstVersion, held to the rules (Check) against the known
// categories.
func New(id string, in Input, now time.Time, categories map[string]string) (domain.Prompt, error) {
	now = now.UTC()
	p := domain.Prompt{ID: id, CreatedAt: now, UpdatedAt: now, Version: FirstVersion}
	in.Apply(&p)
	if err := Check(p, categories); err != nil {
		return domain.Prompt{}, err
	}
	return p, nil
}

// VersionRead is the version an edit was made from: an *InvalidError when
// the request names none (a route may ask before it reads the prompt).
func (in Input) VersionRead() (int, error) {
	if in.Version == nil {
		return 0, invalid("version", "version is required (the version you read)")
	}
	return *in.Version, nil
}

// ErrStale: an edit made from a version the prompt is no longer at (the
// writer is shown the prompt as it now is).
var ErrStale = errors.New("the prompt changed since the version the writer read")

// Edit is cur with in applied at now: the next version. An edit names the
// version it was made from (an *InvalidError without it), which must be
// cur's (ErrStale otherwise), and is held to the rules (Check) against the
// known categories. Every accepted edit is a new version, one that changes
// no field too (the writer saved the prompt as it was at the version they
// read), so another writer still holding that version is told it changed.
// The store writes it only if the prompt is still at cur's version.
func Edit(cur domain.Prompt, in Input, now time.Time, categories map[string]string) (domain.Prompt, error) {
	read, err := in.VersionRead()
	if err != nil {
		return domain.Prompt{}, err
	}
	if read != cur.Version {
		return domain.Prompt{}, ErrStale
	}
	next := cur
	in.Apply(&next)
	if err := Check(next, categories); err != nil {
		return domain.Prompt{}, err
	}
	next.Version, next.UpdatedAt = cur.Version+1, now.UTC()
	return next, nil
}
