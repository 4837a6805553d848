package prompts_test

import (
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/prompts"
)

func ptr[T any](v T) *T { return &v }

var now = time.Date(2026, 3, 4, 5, 6, 7, 800, time.FixedZone("CET", 3600))

// Apply sets what the input gives and keeps the rest; title, description
// and category are trimmed, content kept as written.
func TestInputApply(t *testing.T) {
	t.Parallel()
	base := domain.Prompt{ID: "p1", Title: "T", Description: "D", Content: "C", Price: 1.5, CategoryID: "business", Featured: true, Version: 3}
	for _, tc := range []struct {
		name string
		in   prompts.Input
		want domain.Prompt
	}{
		{"nothing", prompts.Input{}, base},
		{"title trimmed", prompts.Input{Title: ptr("  New title \n")}, func() domain.Prompt { p := base; p.Title = "New title"; return p }()},
		{"description trimmed", prompts.Input{Description: ptr(" what it does ")}, func() domain.Prompt { p := base; p.Description = "what it does"; return p }()},
		{"content as written", prompts.Input{Content: ptr("  Write {{x}}.\n")}, func() domain.Prompt { p := base; p.Content = "  Write {{x}}.\n"; return p }()},
		{"category trimmed", prompts.Input{CategoryID: ptr(" writing ")}, func() domain.Prompt { p := base; p.CategoryID = "writing"; return p }()},
		{"price", prompts.Input{Price: ptr(4.25)}, func() domain.Prompt { p := base; p.Price = 4.25; return p }()},
		{"not featured", prompts.Input{Featured: ptr(false)}, func() domain.Prompt { p := base; p.Featured = false; return p }()},
		{"unpublished", prompts.Input{Published: ptr(false)}, func() domain.Prompt { p := base; p.Unpublished = true; return p }()},
		{"emptied title", prompts.Input{Title: ptr("   ")}, func() domain.Prompt { p := base; p.Title = ""; return p }()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := base
			tc.in.Apply(&got)
			if got != tc.want {
				t.Errorf("Apply:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// A new prompt is at the first version, published unless told otherwise,
// created and updated at the same moment, in UTC.
func TestNew(t *testing.T) {
	t.Parallel()
	in := prompts.Input{Title: ptr("Plan"), Content: ptr("Draft {{goal}}."), Price: ptr(4.5), CategoryID: ptr("business")}
	got, err := prompts.New("p-1", in, now, categories)
	want := domain.Prompt{ID: "p-1", Title: "Plan", Content: "Draft {{goal}}.", Price: 4.5, CategoryID: "business",
		CreatedAt: now.UTC(), UpdatedAt: now.UTC(), Version: prompts.FirstVersion}
	if err != nil || got != want {
		t.Fatalf("New = %+v, %v\nwant %+v", got, err, want)
	}
	if got.CreatedAt.Location() != time.UTC {
		t.Errorf("created at %v, want UTC", got.CreatedAt)
	}

	in.Published = ptr(false)
	if got, _ := prompts.New("p-2", in, now, categories); !got.Unpublished {
		t.Errorf("New with published false: %+v", got)
	}
	in.Price = ptr(0.0)
	if got, err := prompts.New("p-3", in, now, categories); err == nil || err.Error() != "price must be more than 0 and at most 999.99" || got != (domain.Prompt{}) {
		t.Errorf("New of a prompt that breaks a rule = %+v, %v", got, err)
	}
}

// An edit is made from the version the prompt is at; every accepted edit is
// the next version at its moment; the creation moment and what the input
// leaves out stay; an edit that breaks a rule makes no version.
func TestEdit(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name        string
		at          int // the prompt's version
		in          prompts.Input
		wantVersion int
		wantErr     string
	}{
		{"a seeded prompt's first edit", 0, prompts.Input{Version: ptr(0), Price: ptr(2.0)}, 1, ""},
		{"an edited prompt", 4, prompts.Input{Version: ptr(4), Title: ptr("Renamed")}, 5, ""},
		{"an edit that changes nothing", 2, prompts.Input{Version: ptr(2)}, 3, ""},
		{"an edit that breaks a rule", 2, prompts.Input{Version: ptr(2), CategoryID: ptr("gone")}, 0, `category "gone" does not exist`},
		{"an edit without the version read", 2, prompts.Input{Title: ptr("Renamed")}, 0, "version is required (the version you read)"},
		{"an edit from an older version", 3, prompts.Input{Version: ptr(2), Title: ptr("Renamed")}, 0, prompts.ErrStale.Error()},
		{"an edit from a newer version", 3, prompts.Input{Version: ptr(4)}, 0, prompts.ErrStale.Error()},
		{"a stale edit that also breaks a rule", 3, prompts.Input{Version: ptr(2), Price: ptr(0.0)}, 0, prompts.ErrStale.Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cur := valid()
			cur.Version, cur.CreatedAt, cur.UpdatedAt = tc.at, created, created
			got, err := prompts.Edit(cur, tc.in, now, categories)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr || got != (domain.Prompt{}) {
					t.Fatalf("Edit = %+v, %v; want error %q", got, err, tc.wantErr)
				}
				return
			}
			want := cur
			tc.in.Apply(&want)
			want.Version, want.UpdatedAt = tc.wantVersion, now.UTC()
			if err != nil || got != want {
				t.Fatalf("Edit = %+v, %v\nwant %+v", got, err, want)
			}
		})
	}
}

// A new prompt has no version to read: one in its request is left aside.
func TestNewLeavesTheVersionReadAside(t *testing.T) {
	t.Parallel()
	in := prompts.Input{Version: ptr(7), Title: ptr("Plan"), Content: ptr("c"), Price: ptr(1.0), CategoryID: ptr("writing")}
	if got, err := prompts.New("p-1", in, now, categories); err != nil || got.Version != prompts.FirstVersion {
		t.Errorf("New = %+v, %v; want version %d", got, err, prompts.FirstVersion)
	}
}
