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

// A submitted agent is queued, a decision takes it out and is kept on it;
// the approved version is kept whole.
func TestAgentReviewQueueAndDecision(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	a := testAgent("a-000000000001", "u1", at)
	storetest.Must(t, st.PutAgent(ctx, a), "put")
	sub := a
	sub.State, sub.Version = domain.PromptInReview, 2
	storetest.Must(t, st.SubmitAgent(ctx, sub, 1, at), "submit")
	q, err := st.AgentReviewQueue(ctx)
	if err != nil || len(q) != 1 || q[0].Agent.ID != a.ID || !q[0].SubmittedAt.Equal(at) {
		t.Fatalf("queue %+v, %v", q, err)
	}
	// A stale submit is refused and leaves the queue as it was.
	if err := st.SubmitAgent(ctx, sub, 1, at); !errors.Is(err, store.ErrVersionConflict) {
		t.Errorf("stale submit: %v", err)
	}
	pub := sub
	pub.State, pub.Version, pub.Published = domain.PromptPublished, 3, 1
	live := store.AgentVersion{Number: 1, Name: pub.Name, Instructions: pub.Instructions, PublishedAt: at}
	storetest.Must(t, st.DecideAgent(ctx, pub, 2, store.ReviewDecision{At: at, Decision: store.DecisionApprove, AdminID: "admin"}, &live), "approve")
	if q, _ := st.AgentReviewQueue(ctx); len(q) != 0 {
		t.Errorf("queue after the decision: %+v", q)
	}
	if vs, _ := st.AgentVersions(ctx, a.ID); len(vs) != 1 || vs[0].Instructions != a.Instructions {
		t.Errorf("versions %+v", vs)
	}
	if listed, _ := st.ListedAgents(ctx); len(listed) != 1 {
		t.Errorf("an approved agent is not listed: %v", agentIDs(listed))
	}
	// The decision is kept: it shows with the agent's next review.
	again := pub
	again.Pending = &domain.AgentPending{Name: "v2", State: domain.PromptInReview, ChangeNote: "better"}
	again.Version = 4
	storetest.Must(t, st.SubmitAgent(ctx, again, 3, at.Add(time.Hour)), "submit the next version")
	q, _ = st.AgentReviewQueue(ctx)
	if len(q) != 1 || len(q[0].Decisions) != 1 || q[0].Decisions[0].Decision != store.DecisionApprove {
		t.Errorf("queue with the earlier decision: %+v", q)
	}
}

// An agent nobody bought is deleted with its versions; one that sold is
// not (ErrAgentInUse), and a stale delete is a conflict.
func TestDeleteAgent(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	a := testAgent("a-000000000001", "u1", at)
	b := testAgent("a-000000000002", "u1", at)
	storetest.Must(t, st.PutAgent(ctx, a), "put a")
	storetest.Must(t, st.PutAgent(ctx, b), "put b")
	storetest.Must(t, st.PutAgentVersion(ctx, a.ID, store.AgentVersion{Number: 1}), "version")
	if err := st.DeleteAgent(ctx, a.ID, 7); !errors.Is(err, store.ErrVersionConflict) {
		t.Errorf("stale delete: %v", err)
	}
	storetest.Must(t, st.DeleteAgent(ctx, a.ID, 1), "delete")
	if _, err := st.GetAgent(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted agent read: %v", err)
	}
	if vs, _ := st.AgentVersions(ctx, a.ID); len(vs) != 0 {
		t.Errorf("versions left: %+v", vs)
	}
	storetest.Must(t, st.CountAgentPurchase(ctx, b.ID, 1), "count a sale")
	if err := st.DeleteAgent(ctx, b.ID, 1); !errors.Is(err, store.ErrAgentInUse) {
		t.Errorf("delete of a sold agent: %v", err)
	}
	if n, _ := st.AgentPurchases(ctx, b.ID); n != 1 {
		t.Errorf("purchases %d", n)
	}
	// A write of the agent keeps its sales count.
	next := b
	next.Version, next.Withdrawn = 2, true
	storetest.Must(t, st.UpdateAgent(ctx, next, 1), "withdraw")
	if n, _ := st.AgentPurchases(ctx, b.ID); n != 1 {
		t.Errorf("purchases after a write %d", n)
	}
}

// Ratings: one per user, the aggregate moved by the difference.
func TestRateAgent(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	a := testAgent("a-000000000001", "u1", at)
	storetest.Must(t, st.PutAgent(ctx, a), "put")
	if _, err := st.RateAgent(ctx, "u2", a.ID, 5, at); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RateAgent(ctx, "u3", a.ID, 2, at); err != nil {
		t.Fatal(err)
	}
	got, err := st.RateAgent(ctx, "u2", a.ID, 4, at.Add(time.Second))
	if err != nil || got.RatingSum != 6 || got.RatingCount != 2 || got.RatingAvg() != 3 {
		t.Errorf("after re-rating %+v, %v", got, err)
	}
	if _, err := st.RateAgent(ctx, "u2", "a-gone", 4, at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rating a missing agent: %v", err)
	}
	// A later write of the agent keeps its ratings.
	next, _ := st.GetAgent(ctx, a.ID)
	next.Version, next.Name = next.Version+1, "New"
	storetest.Must(t, st.UpdateAgent(ctx, next, next.Version-1), "edit")
	if got, _ := st.GetAgent(ctx, a.ID); got.RatingSum != 6 || got.RatingCount != 2 {
		t.Errorf("ratings after an edit %+v", got)
	}
}

// A suspended creator's agents leave the marketplace at once and come back
// when unsuspended; a new display name reaches them.
func TestCreatorSuspensionAndNameReachAgents(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	if _, err := st.PutCreator(ctx, domain.Creator{UserID: "u1", Username: "ann", DisplayName: "Ann", Country: "US"}, at); err != nil {
		t.Fatal(err)
	}
	a := testAgent("a-000000000001", "u1", at)
	a.State = domain.PromptPublished
	storetest.Must(t, st.PutAgent(ctx, a), "put")
	if _, err := st.SetCreatorSuspended(ctx, "u1", true); err != nil {
		t.Fatal(err)
	}
	if listed, _ := st.ListedAgents(ctx); len(listed) != 0 {
		t.Errorf("a suspended creator's agent is listed")
	}
	if got, _ := st.GetAgent(ctx, a.ID); !got.CreatorSuspended {
		t.Errorf("agent not marked: %+v", got)
	}
	if _, err := st.SetCreatorSuspended(ctx, "u1", false); err != nil {
		t.Fatal(err)
	}
	if listed, _ := st.ListedAgents(ctx); !reflect.DeepEqual(agentIDs(listed), []string{a.ID}) {
		t.Errorf("unsuspended: listed %v", agentIDs(listed))
	}
	if _, err := st.PutCreator(ctx, domain.Creator{UserID: "u1", Username: "ann", DisplayName: "Ann B", Country: "US"}, at); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.GetAgent(ctx, a.ID); got.CreatorDisplayName != "Ann B" {
		t.Errorf("display name on the agent %q", got.CreatorDisplayName)
	}
}
