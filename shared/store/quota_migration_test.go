package store_test

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// writeEarlierQuota stores uid's quota as it was before quotas were per
// mailbox: USER#<uid> / QUOTA holding the account's own count. Written
// with SET so it can also put the fields back beside a fixed mailbox.
func writeEarlierQuota(t *testing.T, st *store.Store, uid string, pids ...string) {
	t.Helper()
	_, err := st.DB().UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:        aws.String(st.Table()),
		Key:              userItemKey(uid, "QUOTA"),
		UpdateExpression: aws.String("SET used = :n, prompt_ids = :ids"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":n":   &types.AttributeValueMemberN{Value: strconv.Itoa(len(pids))},
			":ids": &types.AttributeValueMemberSS{Value: pids},
		},
	})
	storetest.Must(t, err, "earlier quota")
}

// quotaAttributes answers the attributes of uid's QUOTA item.
func quotaAttributes(t *testing.T, st *store.Store, uid string) []string {
	t.Helper()
	out, err := st.DB().GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(st.Table()), ConsistentRead: aws.Bool(true),
		Key: userItemKey(uid, "QUOTA"),
	})
	storetest.Must(t, err, "quota item")
	var names []string
	for name := range out.Item {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// An account's quota from before mailboxes keeps its count and claims: it
// is read as it was, folded into the mailbox once at the next claim (a
// re-run adds nothing), and then removed from the account's item.
func TestEarlierQuotaIsCountedOnce(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("u1", "fay@example.com", "fay"))
	writeEarlierQuota(t, st, "u1", "p1", "p2")

	if got := freeStatus(t, st, "u1"); got.Used != 2 || got.Remaining != 1 || !slices.Equal(got.PromptIDs, []string{"p1", "p2"}) {
		t.Errorf("status before any claim = %+v, want 2 used (p1, p2), 1 left", got)
	}
	for _, step := range []struct {
		pid         string
		wantAlready bool
		wantErr     error
	}{
		{"p1", true, nil},
		{"p3", false, nil},
		{"p4", false, store.ErrQuotaExhausted},
	} {
		_, already, err := st.ClaimFree(ctx, "u1", step.pid, freeLimit)
		if already != step.wantAlready || !errors.Is(err, step.wantErr) {
			t.Errorf("claim %s: already %v, %v; want %v, %v", step.pid, already, err, step.wantAlready, step.wantErr)
		}
	}
	if got, want := quotaAttributes(t, st, "u1"), []string{"PK", "SK", "mailbox"}; !slices.Equal(got, want) {
		t.Errorf("account's quota item after the claims = %v, want %v", got, want)
	}
	// A fold that stopped before removing the earlier count: nothing twice.
	writeEarlierQuota(t, st, "u1", "p1", "p2")
	if got := freeStatus(t, st, "u1"); got.Used != 3 || !slices.Equal(got.PromptIDs, []string{"p1", "p2", "p3"}) {
		t.Errorf("status with the folded count left behind = %+v, want 3 used (p1, p2, p3)", got)
	}
	if _, _, err := st.ClaimFree(ctx, "u1", "p5", freeLimit); !errors.Is(err, store.ErrQuotaExhausted) {
		t.Errorf("claim with the folded count left behind: %v, want ErrQuotaExhausted", err)
	}
	if got := freeStatus(t, st, "u1"); got.Used != 3 {
		t.Errorf("used after the re-run = %d, want 3", got.Used)
	}
}

// Two accounts on one mailbox, each with an earlier quota: each keeps its
// claims, and once both are folded they share what the address has left.
func TestEarlierQuotasOfOneMailboxAreSummed(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("u1", "gus@example.com", "gus"))
	mustCreate(t, st, newUser("u2", "gus+2@example.com", "gus2"))
	writeEarlierQuota(t, st, "u1", "p1")
	writeEarlierQuota(t, st, "u2", "p2")

	_, _, err := st.ClaimFree(ctx, "u1", "p3", freeLimit)
	storetest.Must(t, err, "u1 claims p3")
	if got := freeStatus(t, st, "u2"); got.Used != 3 || got.Remaining != 0 || !slices.Equal(got.PromptIDs, []string{"p2"}) || !got.SharedWithOtherAccounts {
		t.Errorf("u2's status = %+v, want 3 used (its p2 and u1's two), none left, shared", got)
	}
	_, already, err := st.ClaimFree(ctx, "u2", "p2", freeLimit)
	if err != nil || !already {
		t.Errorf("u2 claims its own p2 again: already %v, %v; want true, nil", already, err)
	}
	if _, _, err := st.ClaimFree(ctx, "u2", "p4", freeLimit); !errors.Is(err, store.ErrQuotaExhausted) {
		t.Errorf("u2 claims p4: %v, want ErrQuotaExhausted", err)
	}
	if got := freeStatus(t, st, "u1"); got.Used != 3 || !slices.Equal(got.PromptIDs, []string{"p1", "p3"}) || !got.SharedWithOtherAccounts {
		t.Errorf("u1's status = %+v, want 3 used, its p1 and p3, shared", got)
	}
}

// The backfill folds every account's earlier count into its mailbox before
// any of them claims again: a new alias of an address its old accounts
// spent sees what is left, not a fresh quota; a second run adds nothing.
func TestBackfillFoldsEarlierQuotasIntoMailboxes(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("farm1", "bob+farm1@example.com", "farm1"))
	mustCreate(t, st, newUser("farm2", "bob+farm2@example.com", "farm2"))
	mustCreate(t, st, newUser("alone", "ann@example.com", "alone"))
	mustCreate(t, st, newUser("fresh", "bob+farm3@example.com", "fresh"))
	writeEarlierQuota(t, st, "farm1", "p1", "p2")
	writeEarlierQuota(t, st, "farm2", "p3")
	writeEarlierQuota(t, st, "alone", "p1")

	for run := range 2 {
		n, err := st.BackfillMailboxQuotas(ctx)
		storetest.Must(t, err, "backfill")
		if want := []int{3, 0}[run]; n != want {
			t.Errorf("run %d folded %d accounts, want %d", run+1, n, want)
		}
	}
	if got := freeStatus(t, st, "fresh"); got.Used != 3 || got.Remaining != 0 || len(got.PromptIDs) != 0 || !got.SharedWithOtherAccounts {
		t.Errorf("the new alias after the backfill = %+v, want the address's 3 used, none left, none of its own, shared", got)
	}
	if got := freeStatus(t, st, "farm1"); got.Used != 3 || !slices.Equal(got.PromptIDs, []string{"p1", "p2"}) {
		t.Errorf("an old account after the backfill = %+v, want 3 used and its own p1, p2", got)
	}
	if got := freeStatus(t, st, "alone"); got.Used != 1 || got.Remaining != 2 || !slices.Equal(got.PromptIDs, []string{"p1"}) {
		t.Errorf("a lone account after the backfill = %+v, want exactly its own count", got)
	}
}
