package store_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func written(id string, version int) domain.Prompt {
	at := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
	return domain.Prompt{ID: id, Title: "T " + id, Description: "D", Content: "C", Price: 4.5, CategoryID: "business",
		CreatedAt: at, UpdatedAt: at, Version: version}
}

// A prompt is created once under its id, at a written version; no audit
// line is written for it (its writer keeps its history).
func TestCreatePrompt(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	p := written("p-1", 1)
	storetest.Must(t, st.CreatePrompt(ctx, p), "create")
	got, err := st.GetPrompt(ctx, p.ID)
	if err != nil || got != p {
		t.Fatalf("read back %+v, %v\nwant %+v", got, err, p)
	}
	again := written("p-1", 1)
	again.Title = "Another"
	if err := st.CreatePrompt(ctx, again); err == nil {
		t.Error("a second prompt under the same id was created")
	}
	if err := st.CreatePrompt(ctx, written("p-0", 0)); err == nil {
		t.Error("a prompt at version 0 (a seeded prompt's) was created")
	}
	if got, _ := st.GetPrompt(ctx, p.ID); got.Title != p.Title {
		t.Errorf("the first prompt became %q", got.Title)
	}
	if lines, _, err := st.AuditLog(ctx, store.AuditQuery{Limit: 10}); err != nil || len(lines) != 0 {
		t.Errorf("audit log %v, %v; want none", lines, err)
	}
}

// An edit is written only at the version its writer read: a stale one, or
// one of a prompt that is gone, is ErrVersionConflict and changes nothing.
func TestUpdatePromptAtTheVersionRead(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, st.CreatePrompt(ctx, written("p-1", 1)), "create")
	next := written("p-1", 2)
	next.Title, next.Price, next.Unpublished, next.UpdatedAt = "Renamed", 9.99, true, next.UpdatedAt.Add(time.Hour)
	storetest.Must(t, st.UpdatePrompt(ctx, next, 1), "update at 1")
	if got, _ := st.GetPrompt(ctx, "p-1"); got != next {
		t.Fatalf("after the edit %+v\nwant %+v", got, next)
	}
	stale := written("p-1", 2)
	stale.Title = "Stale"
	if err := st.UpdatePrompt(ctx, stale, 1); !errors.Is(err, store.ErrVersionConflict) {
		t.Errorf("an edit at a stale version: %v, want ErrVersionConflict", err)
	}
	if err := st.UpdatePrompt(ctx, written("p-gone", 2), 1); !errors.Is(err, store.ErrVersionConflict) {
		t.Errorf("an edit of a missing prompt: %v, want ErrVersionConflict", err)
	}
	if err := st.UpdatePrompt(ctx, written("p-1", 2), 2); err == nil || errors.Is(err, store.ErrVersionConflict) {
		t.Errorf("an edit that does not move the version on: %v, want it refused before the table", err)
	}
	if got, _ := st.GetPrompt(ctx, "p-1"); got.Title != "Renamed" || got.Version != 2 {
		t.Errorf("refused edits changed the prompt: %+v", got)
	}
}

// Two writers editing a seeded prompt at once from version 0: one wins;
// seeding again never undoes an edit.
func TestTwoEditsOfASeededPrompt(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	seeded := written("seeded", 0)
	storetest.Must(t, st.PutPrompt(ctx, seeded), "seed")
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, title := range []string{"First", "Second"} {
		wg.Go(func() {
			p := written("seeded", 1)
			p.Title = title
			errs[i] = st.UpdatePrompt(ctx, p, 0)
		})
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) || !errors.Is(errors.Join(errs...), store.ErrVersionConflict) {
		t.Fatalf("two edits at version 0: %v, want one written and one ErrVersionConflict", errs)
	}
	storetest.Must(t, st.PutPrompt(ctx, seeded), "seed again")
	if got, _ := st.GetPrompt(ctx, "seeded"); got.Version != 1 || got.Title == seeded.Title {
		t.Errorf("seeding again overwrote the edit: %+v", got)
	}
}

// A prompt is deleted at the version read, with its ratings, unless someone
// bought or used it.
func TestDeletePrompt(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	storetest.Must(t, st.CreatePrompt(ctx, written("p-1", 1)), "create")
	_, err := st.Rate(ctx, "ann", "p-1", 4)
	storetest.Must(t, err, "rate")
	if err := st.DeletePrompt(ctx, "p-1", 2); !errors.Is(err, store.ErrVersionConflict) {
		t.Errorf("a removal at a stale version: %v, want ErrVersionConflict", err)
	}
	storetest.Must(t, st.DeletePrompt(ctx, "p-1", 1), "delete")
	if _, err := st.GetPrompt(ctx, "p-1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after the removal: %v, want ErrNotFound", err)
	}
	if ratings, err := st.UserRatings(ctx, "ann"); err != nil || len(ratings) != 0 {
		t.Errorf("ratings after the removal: %v, %v; want none", ratings, err)
	}

	storetest.Must(t, st.CreatePrompt(ctx, written("p-used", 1)), "create")
	_, _, err = st.ClaimFree(ctx, "bob", "p-used", 5)
	storetest.Must(t, err, "free use")
	if err := st.DeletePrompt(ctx, "p-used", 1); !errors.Is(err, store.ErrPromptInUse) {
		t.Errorf("removing a prompt used for free: %v, want ErrPromptInUse", err)
	}
	if _, err := st.GetPrompt(ctx, "p-used"); err != nil {
		t.Errorf("the used prompt: %v", err)
	}
}
