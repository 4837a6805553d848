package store_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func testAgent(id, creator string, at time.Time) domain.Agent {
	return domain.Agent{ID: id, Name: "Agent " + id, Description: "Helps.", Instructions: "Be brief. SECRET-" + id,
		Provider: "openai", Model: "gpt-4o-mini", Servers: []domain.AgentServer{{ServerID: "s-1", Tools: []string{"echo"}}},
		Starters: []string{"Hi"}, CategoryID: "business", Price: 4.5, CreatorID: creator, CreatorUsername: "ann",
		CreatorDisplayName: "Ann", State: domain.PromptDraft, Version: 1, CreatedAt: at, UpdatedAt: at}
}

func agentIDs(as []domain.Agent) []string {
	ids := []string{}
	for _, a := range as {
		ids = append(ids, a.ID)
	}
	return ids
}

// An agent is stored once under its id and read back whole; an edit is
// written only at the version its writer read.
func TestPutGetUpdateAgent(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	a := testAgent("a-000000000001", "u1", at)
	storetest.Must(t, st.PutAgent(ctx, a), "put")
	got, err := st.GetAgent(ctx, a.ID)
	if err != nil || !reflect.DeepEqual(got, a) {
		t.Fatalf("read back %+v, %v\nwant %+v", got, err, a)
	}
	if err := st.PutAgent(ctx, a); !errors.Is(err, store.ErrVersionConflict) {
		t.Errorf("a second agent under the same id: %v, want ErrVersionConflict", err)
	}
	if _, err := st.GetAgent(ctx, "a-nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing agent: %v, want ErrNotFound", err)
	}

	next := a
	next.Version, next.Name, next.Starters, next.UpdatedAt = 2, "Renamed", nil, at.Add(time.Hour)
	next.Pending = &domain.AgentPending{Name: "Later", Instructions: "x", State: domain.PromptDraft}
	storetest.Must(t, st.UpdateAgent(ctx, next, 1), "update at 1")
	got, _ = st.GetAgent(ctx, a.ID)
	want := next
	want.Starters = []string{}
	want.Pending = &domain.AgentPending{Name: "Later", Instructions: "x", State: domain.PromptDraft, Servers: []domain.AgentServer{}, Starters: []string{}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after the edit %+v\nwant %+v", got, want)
	}
	stale := next
	stale.Version, stale.Name = 2, "Stale"
	if err := st.UpdateAgent(ctx, stale, 1); !errors.Is(err, store.ErrVersionConflict) {
		t.Errorf("a stale edit: %v, want ErrVersionConflict", err)
	}
	if err := st.UpdateAgent(ctx, testAgent("a-gone", "u1", at), 0); !errors.Is(err, store.ErrVersionConflict) {
		t.Errorf("an edit of a missing agent: %v, want ErrVersionConflict", err)
	}
	if got, _ := st.GetAgent(ctx, a.ID); got.Name != "Renamed" || got.Pending == nil {
		t.Errorf("after refused edits: %+v", got)
	}
	// The pending edit removed with the next write.
	last := next
	last.Version, last.Pending = 3, nil
	storetest.Must(t, st.UpdateAgent(ctx, last, 2), "update at 2")
	if got, _ := st.GetAgent(ctx, a.ID); got.Pending != nil || got.Version != 3 {
		t.Errorf("pending not cleared: %+v", got)
	}
}

// The marketplace lists the agents on sale only, and one leaves it in the
// write that takes it off sale; the creator lists all theirs.
func TestListedAndCreatorAgents(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	draft := testAgent("a-000000000001", "u1", at)
	live := testAgent("a-000000000002", "u1", at.Add(time.Minute))
	live.State, live.Published = domain.PromptPublished, 1
	other := testAgent("a-000000000003", "u2", at.Add(2*time.Minute))
	other.State = domain.PromptPublished
	for _, a := range []domain.Agent{draft, live, other} {
		storetest.Must(t, st.PutAgent(ctx, a), "put "+a.ID)
	}
	listed, err := st.ListedAgents(ctx)
	if err != nil || !reflect.DeepEqual(agentIDs(listed), []string{other.ID, live.ID}) {
		t.Fatalf("listed %v, %v; want the two published, newest first", agentIDs(listed), err)
	}
	mine, err := st.CreatorAgents(ctx, "u1")
	if err != nil || !reflect.DeepEqual(agentIDs(mine), []string{live.ID, draft.ID}) {
		t.Fatalf("creator's %v, %v", agentIDs(mine), err)
	}
	for i, off := range []func(*domain.Agent){
		func(a *domain.Agent) { a.Suspended = true },
		func(a *domain.Agent) { a.CreatorSuspended = true },
		func(a *domain.Agent) { a.Withdrawn = true },
	} {
		a, _ := st.GetAgent(ctx, live.ID)
		cur := a
		off(&a)
		a.Version++
		storetest.Must(t, st.UpdateAgent(ctx, a, cur.Version), "take off sale")
		if listed, _ := st.ListedAgents(ctx); !reflect.DeepEqual(agentIDs(listed), []string{other.ID}) {
			t.Errorf("case %d: listed %v after it went off sale", i, agentIDs(listed))
		}
		cur = a
		a.Suspended, a.CreatorSuspended, a.Withdrawn = false, false, false
		a.Version++
		storetest.Must(t, st.UpdateAgent(ctx, a, cur.Version), "back on sale")
		if listed, _ := st.ListedAgents(ctx); len(listed) != 2 {
			t.Errorf("case %d: listed %v once back on sale", i, agentIDs(listed))
		}
	}
}

// The versions that went live are kept whole, oldest first.
func TestAgentVersions(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	v1 := store.AgentVersion{Number: 1, Name: "One", Instructions: "I1", Provider: "openai", Model: "m",
		Servers: []domain.AgentServer{{ServerID: "s", Tools: []string{"t"}}}, Starters: []string{}, Price: 1.5, PublishedAt: at}
	v2 := v1
	v2.Number, v2.Name, v2.ChangeNote = 2, "Two", "renamed"
	storetest.Must(t, st.PutAgentVersion(ctx, "a-1", v2), "v2")
	storetest.Must(t, st.PutAgentVersion(ctx, "a-1", v1), "v1")
	got, err := st.AgentVersions(ctx, "a-1")
	if err != nil || !reflect.DeepEqual(got, []store.AgentVersion{v1, v2}) {
		t.Fatalf("versions %+v, %v", got, err)
	}
}
