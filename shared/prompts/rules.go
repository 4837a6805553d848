// Package prompts holds the rules of a prompt whoever writes it (an admin
// today, a creator or an agent next) and however it is asked for: the
// limits of its fields and the words that say which one is broken, the
// fields a writer may set, what makes a new version, and how the catalogue
// is filtered and ordered. It knows nothing of HTTP or of the table: a
// route decodes its request into an Input and answers an InvalidError as
// its own client error; the store writes what these rules made.
package prompts

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/domain"
)

// Limits of a prompt's fields, in characters (not bytes) and dollars. The
// web app's prompt editor checks the same before it sends.
const (
	MaxTitle       = 200
	MaxDescription = 2000
	MaxContent     = 50_000
	MaxPrice       = 999.99
)

// InvalidError is a prompt that breaks a rule. Message says which, in the
// words a writer is shown as they are (the web app's editor and its tests
// match them); Field is the broken field's JSON name.
type InvalidError struct {
	Field   string
	Message string
}

func (e *InvalidError) Error() string { return e.Message }

func invalid(field, format string, args ...any) *InvalidError {
	return &InvalidError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// CheckPrice holds a marketplace price to its rule (more than 0, at most
// MaxPrice, whole cents): an *InvalidError naming "price", nil when kept.
// Agents sold on the marketplace are priced by the same rule.
func CheckPrice(price float64) error {
	if math.IsNaN(price) || price <= 0 || price > MaxPrice {
		return invalid("price", "price must be more than 0 and at most %.2f", MaxPrice)
	}
	// A price under a cent has no whole cents, however small.
	if cents := price * 100; math.Abs(cents-math.Round(cents)) > 1e-6 || math.Round(cents) < 1 {
		return invalid("price", "price must have at most two decimals")
	}
	return nil
}

// Check holds p to the rules; categories are the known ones (names by id).
// It answers the first rule broken (an *InvalidError), nil when none is.
func Check(p domain.Prompt, categories map[string]string) error {
	switch n := utf8.RuneCountInString(p.Title); {
	case n == 0:
		return invalid("title", "title is required")
	case n > MaxTitle:
		return invalid("title", "title must be at most %d characters", MaxTitle)
	case strings.IndexFunc(p.Title, unicode.IsControl) >= 0:
		return invalid("title", "title must not contain control characters")
	}
	if utf8.RuneCountInString(p.Description) > MaxDescription {
		return invalid("description", "description must be at most %d characters", MaxDescription)
	}
	switch n := utf8.RuneCountInString(p.Content); {
	case strings.TrimSpace(p.Content) == "":
		return invalid("content", "content is required")
	case n > MaxContent:
		return invalid("content", "content must be at most %d characters (it has %d)", MaxContent, n)
	}
	if err := CheckPrice(p.Price); err != nil {
		return err
	}
	if _, ok := categories[p.CategoryID]; !ok {
		if p.CategoryID == "" {
			return invalid("category_id", "category_id is required")
		}
		return invalid("category_id", "category %q does not exist", p.CategoryID)
	}
	return nil
}
