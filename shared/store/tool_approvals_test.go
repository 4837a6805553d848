package store_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// An approval is taken once, by its own chat connection only: an answer
// from another connection is refused and leaves it for the right one, also
// among twenty answers at once.
func TestToolApprovalTakenByItsConnection(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	now := time.Now()
	save := func(hash string) {
		t.Helper()
		storetest.Must(t, st.SaveToolApproval(ctx, "ann", hash, store.ToolApproval{State: []byte("paused"), Expires: now.Add(time.Minute), ConnectionID: "c1"}), "save")
	}
	save("h1")
	if _, err := st.TakeToolApproval(ctx, "ann", "h1", "c2", now); !errors.Is(err, store.ErrApprovalOtherConnection) {
		t.Fatalf("taken from another connection: %v, want ErrApprovalOtherConnection", err)
	}
	a, err := st.TakeToolApproval(ctx, "ann", "h1", "c1", now)
	if err != nil || string(a.State) != "paused" || a.ConnectionID != "c1" {
		t.Fatalf("taken by its connection after a refused answer: %+v, %v", a, err)
	}
	if _, err := st.TakeToolApproval(ctx, "ann", "h1", "c1", now); !errors.Is(err, store.ErrApprovalUsed) {
		t.Errorf("taken again: %v, want ErrApprovalUsed", err)
	}
	if _, err := st.TakeToolApproval(ctx, "bob", "h1", "c1", now); !errors.Is(err, store.ErrApprovalUnknown) {
		t.Errorf("taken by another user: %v, want ErrApprovalUnknown", err)
	}

	save("h2")
	var mu sync.Mutex
	taken, refused := 0, 0
	var wg sync.WaitGroup
	for i := range 20 {
		conn := []string{"c1", "c2"}[i%2]
		wg.Go(func() {
			_, err := st.TakeToolApproval(ctx, "ann", "h2", conn, now)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && conn == "c1":
				taken++
			case errors.Is(err, store.ErrApprovalUsed), conn == "c2" && errors.Is(err, store.ErrApprovalOtherConnection):
				refused++
			default:
				t.Errorf("%s: %v", conn, err)
			}
		})
	}
	wg.Wait()
	if taken != 1 || refused != 19 {
		t.Errorf("20 answers at once: %d taken, %d refused; want exactly one taken", taken, refused)
	}
}

// A paused reply is taken only as what it waits for: a sign-in's token
// resumes no approval, an approval's no sign-in (both unknown), and each
// is taken once by its own kind.
func TestToolPauseTakenByItsKind(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	now := time.Now()
	storetest.Must(t, st.SaveToolApproval(ctx, "ann", "s1", store.ToolApproval{State: []byte("signin"), Expires: now.Add(time.Minute), ConnectionID: "c1", Kind: store.ToolPauseSignIn}), "save sign-in")
	storetest.Must(t, st.SaveToolApproval(ctx, "ann", "a1", store.ToolApproval{State: []byte("approval"), Expires: now.Add(time.Minute), ConnectionID: "c1"}), "save approval")
	if _, err := st.TakeToolApproval(ctx, "ann", "s1", "c1", now); !errors.Is(err, store.ErrApprovalUnknown) {
		t.Errorf("a sign-in taken as an approval: %v, want ErrApprovalUnknown", err)
	}
	if _, err := st.TakeToolPause(ctx, "ann", "a1", store.ToolPauseSignIn, "c1", now); !errors.Is(err, store.ErrApprovalUnknown) {
		t.Errorf("an approval taken as a sign-in: %v, want ErrApprovalUnknown", err)
	}
	if a, err := st.TakeToolPause(ctx, "ann", "s1", store.ToolPauseSignIn, "c1", now); err != nil || string(a.State) != "signin" || a.Kind != store.ToolPauseSignIn {
		t.Errorf("the sign-in taken as one: %+v, %v", a, err)
	}
	if _, err := st.TakeToolPause(ctx, "ann", "s1", store.ToolPauseSignIn, "c1", now); !errors.Is(err, store.ErrApprovalUsed) {
		t.Errorf("the sign-in taken again: %v, want ErrApprovalUsed", err)
	}
	if a, err := st.TakeToolApproval(ctx, "ann", "a1", "c1", now); err != nil || string(a.State) != "approval" {
		t.Errorf("the approval taken as one: %+v, %v", a, err)
	}
}
