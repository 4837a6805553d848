package store_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

const freeLimit = 3

// claimAll spends uid's whole quota on prompts p0, p1, …
func claimAll(t *testing.T, st *store.Store, uid string) {
	t.Helper()
	for i := range freeLimit {
		_, _, err := st.ClaimFree(ctx, uid, fmt.Sprintf("p%d", i), freeLimit)
		storetest.Must(t, err, "claim")
	}
}

func freeStatus(t *testing.T, st *store.Store, uid string) domain.FreeStatus {
	t.Helper()
	status, err := st.FreeStatus(ctx, uid, freeLimit)
	storetest.Must(t, err, "free status")
	return status
}

// Free uses count per mailbox: an alias of an address whose uses are spent
// has none left, and its status says why; another mailbox has its own.
func TestFreeUsesArePerMailbox(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		first, second string
		shared        bool
	}{
		{"bob@example.com", "bob+farm1@example.com", true},
		{"bob+farm1@example.com", "bob+farm2@example.com", true},
		{"bob@example.com", "Bob+Farm@Example.com", true},
		{"b.o.b@gmail.com", "bob+x@googlemail.com", true},
		{"bob@example.com", "alice@example.com", false},
		{"b.ob@example.com", "bob@example.com", false}, // dots count outside Gmail
	} {
		t.Run(tt.first+" then "+tt.second, func(t *testing.T) {
			t.Parallel()
			st := storetest.New(t)
			mustCreate(t, st, newUser("u1", tt.first, "first"))
			mustCreate(t, st, newUser("u2", tt.second, "second"))
			claimAll(t, st, "u1")

			_, _, err := st.ClaimFree(ctx, "u2", "p9", freeLimit)
			if got, want := errors.Is(err, store.ErrQuotaExhausted), tt.shared; got != want {
				t.Fatalf("second account's claim: %v; exhausted = %v, want %v", err, got, want)
			}
			want := domain.FreeStatus{Remaining: 0, TotalAllowed: freeLimit, Used: freeLimit, PromptIDs: []string{}, SharedWithOtherAccounts: true}
			if !tt.shared {
				want = domain.FreeStatus{Remaining: freeLimit - 1, TotalAllowed: freeLimit, Used: 1, PromptIDs: []string{"p9"}}
			}
			if got := freeStatus(t, st, "u2"); !equalStatus(got, want) {
				t.Errorf("second account's status = %+v, want %+v", got, want)
			}
			if got := freeStatus(t, st, "u1"); got.Used != freeLimit || len(got.PromptIDs) != freeLimit || got.SharedWithOtherAccounts {
				t.Errorf("first account's status = %+v, want its %d claims, not shared", got, freeLimit)
			}
		})
	}
}

func equalStatus(a, b domain.FreeStatus) bool {
	return a.Remaining == b.Remaining && a.TotalAllowed == b.TotalAllowed && a.Used == b.Used &&
		slices.Equal(a.PromptIDs, b.PromptIDs) && a.SharedWithOtherAccounts == b.SharedWithOtherAccounts
}

// Each account reads only its own claims: a prompt one account on the
// mailbox claimed is not open to the other, whose claim of it spends a use.
func TestMailboxClaimsStayWithTheirAccount(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("u1", "ann@example.com", "ann"))
	mustCreate(t, st, newUser("u2", "ann+2@example.com", "ann2"))
	for _, step := range []struct {
		uid, pid    string
		wantAlready bool
		wantUsed    int
		wantIDs     []string
	}{
		{"u1", "p1", false, 1, []string{"p1"}},
		{"u1", "p1", true, 1, []string{"p1"}},
		{"u2", "p1", false, 2, []string{"p1"}},
		{"u2", "p2", false, 3, []string{"p1", "p2"}},
	} {
		status, already, err := st.ClaimFree(ctx, step.uid, step.pid, freeLimit)
		storetest.Must(t, err, "claim")
		if already != step.wantAlready || status.Used != step.wantUsed || !slices.Equal(status.PromptIDs, step.wantIDs) {
			t.Errorf("%s claims %s: already %v, used %d, ids %v; want %v, %d, %v",
				step.uid, step.pid, already, status.Used, status.PromptIDs, step.wantAlready, step.wantUsed, step.wantIDs)
		}
	}
}

// Many claims at once from two accounts on one mailbox never spend more
// than the quota: the count is one conditional item.
func TestConcurrentClaimsOnOneMailbox(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("u1", "cat@gmail.com", "cat1"))
	mustCreate(t, st, newUser("u2", "c.a.t+x@gmail.com", "cat2"))
	var won atomic.Int32
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			uid := []string{"u1", "u2"}[i%2]
			_, _, err := st.ClaimFree(ctx, uid, fmt.Sprintf("p%d", i), freeLimit)
			switch {
			case err == nil:
				won.Add(1)
			case !errors.Is(err, store.ErrQuotaExhausted):
				t.Errorf("claim %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if got, want := int(won.Load()), freeLimit; got != want {
		t.Errorf("claims granted = %d, want %d", got, want)
	}
	a, b := freeStatus(t, st, "u1"), freeStatus(t, st, "u2")
	if got, want := len(a.PromptIDs)+len(b.PromptIDs), freeLimit; got != want || a.Used != want || b.Used != want {
		t.Errorf("claims kept = %d (used %d, %d), want %d", got, a.Used, b.Used, want)
	}
}

// The mailbox is fixed at an account's first claim: changing the address
// afterwards gives no fresh uses and keeps the claims; the old address's
// other accounts still share with it, the new address's do not.
func TestQuotaStaysWithTheMailboxOfTheFirstClaim(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("u1", "dan@example.com", "dan"))
	claimAll(t, st, "u1")
	setEmail(t, st, "u1", "dan2@example.com")
	if _, _, err := st.ClaimFree(ctx, "u1", "p9", freeLimit); !errors.Is(err, store.ErrQuotaExhausted) {
		t.Errorf("claim after the address changed: %v, want ErrQuotaExhausted", err)
	}
	if got := freeStatus(t, st, "u1"); got.Remaining != 0 || len(got.PromptIDs) != freeLimit {
		t.Errorf("status after the address changed = %+v, want none left and its %d claims", got, freeLimit)
	}
	mustCreate(t, st, newUser("u2", "dan+old@example.com", "danold"))
	mustCreate(t, st, newUser("u3", "dan2+new@example.com", "dannew"))
	if got := freeStatus(t, st, "u2"); got.Remaining != 0 || !got.SharedWithOtherAccounts {
		t.Errorf("old address's new account = %+v, want none left, shared", got)
	}
	if got := freeStatus(t, st, "u3"); got.Remaining != freeLimit {
		t.Errorf("new address's account = %+v, want all %d left", got, freeLimit)
	}
}

// Deleting an account gives its mailbox no uses back.
func TestDeletingAnAccountGivesNoUsesBack(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("u1", "eve@example.com", "eve"))
	claimAll(t, st, "u1")
	storetest.Must(t, st.DeleteUser(ctx, "u1"), "delete")
	mustCreate(t, st, newUser("u2", "eve@example.com", "eve2"))
	if got := freeStatus(t, st, "u2"); got.Remaining != 0 || got.Used != freeLimit {
		t.Errorf("re-registered address = %+v, want none left", got)
	}
}

func setEmail(t *testing.T, st *store.Store, uid, email string) {
	t.Helper()
	_, err := st.DB().UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(st.Table()),
		Key:                       userItemKey(uid, "PROFILE"),
		UpdateExpression:          aws.String("SET email = :e"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":e": &types.AttributeValueMemberS{Value: email}},
	})
	storetest.Must(t, err, "set email")
}

// userItemKey is the key of uid's item sk (USER#<uid> / sk), for the tests
// that read or write an account's items directly.
func userItemKey(uid, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		store.AttrPK: &types.AttributeValueMemberS{Value: store.PKUser + uid},
		store.AttrSK: &types.AttributeValueMemberS{Value: sk},
	}
}
