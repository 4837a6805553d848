package seeddata_test

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/seeddata"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var (
	menuBlock = regexp.MustCompile(`(?is)\[start menu\](.*?)\[end menu\]`)
	fieldLine = regexp.MustCompile(`^([a-z]{1,2}) \{([A-Za-z0-9_]+)\}( \[[^\]]+\])?( .+)?$`)
	capsHole  = regexp.MustCompile(`\[[A-Z][A-Z0-9 ,/&'-]+\]`)
)

func TestCatalogueShape(t *testing.T) {
	prompts, err := seeddata.Prompts()
	if err != nil {
		t.Fatal(err)
	}
	if len(prompts) < 24 {
		t.Fatalf("%d prompts, want at least 24", len(prompts))
	}
	perCategory := map[string]int{}
	seenID := map[string]bool{}
	seenTime := map[string]bool{}
	featured := map[string]int{}
	withHoles := 0
	for _, p := range prompts {
		perCategory[p.CategoryID]++
		if seenID[p.ID] || !regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`).MatchString(p.ID) {
			t.Errorf("id %q duplicate or not kebab-case", p.ID)
		}
		seenID[p.ID] = true
		if ts := p.CreatedAt.String(); seenTime[ts] || p.CreatedAt.IsZero() {
			t.Errorf("%s: created_at %v missing or shared", p.ID, p.CreatedAt)
		} else {
			seenTime[ts] = true
		}
		if p.Price < 2.99 || p.Price > 29.99 {
			t.Errorf("%s: price %.2f outside 2.99–29.99", p.ID, p.Price)
		}
		if p.Title == "" || p.Description == "" || utf8.RuneCountInString(p.Content) < 400 {
			t.Errorf("%s: title, description or content missing or thin", p.ID)
		}
		if p.Featured {
			featured[p.CategoryID]++
		}
		if capsHole.MatchString(p.Content) {
			withHoles++
		}
	}
	for _, c := range seeddata.Categories {
		if perCategory[c.ID] < 6 {
			t.Errorf("category %s has %d prompts, want at least 6", c.ID, perCategory[c.ID])
		}
	}
	if len(perCategory) != len(seeddata.Categories) {
		t.Errorf("prompts use categories %v, want only the seeded ones", perCategory)
	}
	if withHoles < 10 {
		t.Errorf("%d prompts with [PLACEHOLDER] brackets, want at least 10", withHoles)
	}
	if len(featured) == 0 {
		t.Error("no featured prompt")
	}
}

// The menu templates are valid SPEC §5 syntax and, together, use every code.
func TestCatalogueMenus(t *testing.T) {
	prompts, _ := seeddata.Prompts()
	codes := map[string]bool{}
	withMenu := 0
	for _, p := range prompts {
		m := menuBlock.FindStringSubmatchIndex(p.Content)
		if m == nil {
			continue
		}
		withMenu++
		if utf8.RuneCountInString(p.Content[:m[0]]) < 200 {
			t.Errorf("%s: the menu starts inside the 200-character preview", p.ID)
		}
		lines := strings.Split(strings.TrimSpace(p.Content[m[2]:m[3]]), "\n")
		for i := 0; i < len(lines); i++ {
			line := strings.TrimSpace(lines[i])
			f := fieldLine.FindStringSubmatch(line)
			if f == nil {
				t.Errorf("%s: menu line %q is not a field line", p.ID, line)
				continue
			}
			code, name, constraint := f[1], f[2], strings.TrimSpace(f[3])
			codes[code] = true
			options := 0
			for i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "- ") {
				options++
				i++
			}
			if slices.Contains([]string{"d", "m", "r"}, code) && options < 2 {
				t.Errorf("%s: %s {%s} has %d options", p.ID, code, name, options)
			}
			switch {
			case constraint == "":
			case code == "n":
				if !regexp.MustCompile(`^\[\d+-\d+\]$`).MatchString(constraint) {
					t.Errorf("%s: number constraint %q", p.ID, constraint)
				}
			case slices.Contains([]string{"t", "y", "ty"}, code):
				if constraint != "[past]" && constraint != "[future]" {
					t.Errorf("%s: time constraint %q", p.ID, constraint)
				}
			default:
				t.Errorf("%s: %s {%s} has a constraint %q its type does not take", p.ID, code, name, constraint)
			}
		}
	}
	if withMenu < 4 {
		t.Errorf("%d prompts with menu templates, want at least 4", withMenu)
	}
	for _, c := range []string{"d", "m", "t", "y", "ty", "b", "s", "n", "r"} {
		if !codes[c] {
			t.Errorf("no menu template uses code %q", c)
		}
	}
}

// Seeding again changes nothing and keeps ratings.
func TestSeedIsIdempotent(t *testing.T) {
	st := storetest.New(t)
	ctx := context.Background()
	storetest.Must(t, seeddata.Seed(ctx, st), "seed")
	prompts, _ := seeddata.Prompts()
	storetest.Must(t, st.CreateUser(ctx, domain.User{ID: "u1", Email: "u1@example.com", Username: "u1", FullName: "U"}), "user")
	if _, err := st.Rate(ctx, "u1", prompts[0].ID, 4); err != nil {
		t.Fatal(err)
	}
	storetest.Must(t, seeddata.Seed(ctx, st), "seed again")
	got, err := st.Prompts(ctx)
	storetest.Must(t, err, "list")
	if len(got) != len(prompts) {
		t.Errorf("%d prompts after seeding twice, want %d", len(got), len(prompts))
	}
	p, err := st.GetPrompt(ctx, prompts[0].ID)
	storetest.Must(t, err, "get")
	if p.RatingCount != 1 || p.RatingSum != 4 {
		t.Errorf("rating after re-seed = %d/%d, want 4/1", p.RatingSum, p.RatingCount)
	}
	cats, err := st.Categories(ctx)
	storetest.Must(t, err, "categories")
	if len(cats) != len(seeddata.Categories) {
		t.Errorf("%d categories, want %d", len(cats), len(seeddata.Categories))
	}
}
