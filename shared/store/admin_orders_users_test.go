package store_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// oldTable makes table name as it was before GSI2: its key and GSI1 only.
func oldTable(t *testing.T, st *store.Store) {
	t.Helper()
	str := types.ScalarAttributeTypeS
	_, err := st.DB().CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(st.Table()), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: str}, {AttributeName: aws.String("SK"), AttributeType: str},
			{AttributeName: aws.String("GSI1PK"), AttributeType: str}, {AttributeName: aws.String("GSI1SK"), AttributeType: str},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("GSI1"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("GSI1PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("GSI1SK"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
	storetest.Must(t, err, "old table")
	storetest.Must(t, dynamodb.NewTableExistsWaiter(st.DB()).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(st.Table())}, time.Minute), "old table active")
	t.Cleanup(func() {
		_, _ = st.DB().DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(st.Table())})
	})
}

// putRaw writes an item as an older version stored it.
func putRaw(t *testing.T, st *store.Store, item map[string]string) {
	t.Helper()
	av := map[string]types.AttributeValue{}
	for k, v := range item {
		av[k] = &types.AttributeValueMemberS{Value: v}
	}
	_, err := st.DB().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(st.Table()), Item: av})
	storetest.Must(t, err, "put raw")
}

// A table made before the admin listings: EnsureTable gives it GSI2 (the
// local engine rebuilds it, keeping every item), and the backfill gives
// its orders and accounts their listing keys, once.
func TestOldTableGetsTheAdminIndex(t *testing.T) {
	t.Parallel()
	st, err := store.New(ctx, storetest.Config(t))
	storetest.Must(t, err, "store")
	oldTable(t, st)
	putRaw(t, st, map[string]string{"PK": "USER#old", "SK": "PROFILE", "id": "old", "email": "old@example.com", "username": "OldTimer",
		"full_name": "Old", "created_at": "2024-05-01T10:00:00Z"})
	putRaw(t, st, map[string]string{"PK": "ORDER#cs_old", "SK": "ORDER", "GSI1PK": "USER#old", "GSI1SK": "ORDER#2024-05-02T10:00:00.000000000Z",
		"session_id": "cs_old", "user_id": "old", "prompt_id": "p1", "status": "PAID", "created_at": "2024-05-02T10:00:00Z"})
	putRaw(t, st, map[string]string{"PK": "USER#old", "SK": "OWN#p1", "prompt_id": "p1", "source": "purchase"})

	storetest.Must(t, st.EnsureTable(ctx), "ensure table")
	// The copy is gone when it returns, not still being deleted: a second
	// start must not find it half there (it did, on a busy machine).
	if _, err := st.DB().DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(st.Table() + ".rebuild")}); err == nil {
		t.Error("the rebuild's copy is still there when EnsureTable returned")
	}
	storetest.Must(t, st.EnsureTable(ctx), "ensure table again")
	if n := len(storetest.ScanAll(t, st)); n != 3 {
		t.Fatalf("%d items after the rebuild, want the 3 stored", n)
	}
	if _, err := st.DB().DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(st.Table() + ".rebuild")}); err == nil {
		t.Error("the rebuild's copy was left behind")
	}
	if users, _, total, err := st.AdminUsers(ctx, store.UserQuery{Limit: 10}); err != nil || total != 0 || len(users) != 0 {
		t.Fatalf("before the backfill: %v users (total %d), %v; want none listed", users, total, err)
	}

	res, err := st.BackfillAdminIndex(ctx)
	if err != nil || res != (store.BackfillResult{Orders: 1, Users: 1}) {
		t.Fatalf("backfill = %+v, %v; want one order and one account", res, err)
	}
	if res, err := st.BackfillAdminIndex(ctx); err != nil || res != (store.BackfillResult{}) {
		t.Errorf("backfill again = %+v, %v; want nothing left to do", res, err)
	}
	users, _, total, err := st.AdminUsers(ctx, store.UserQuery{Search: "oldt", Limit: 10})
	if err != nil || total != 1 || len(users) != 1 || users[0].ID != "old" {
		t.Errorf("search by the username's start (any case) = %+v, total %d, %v", users, total, err)
	}
	orders, _, total, err := st.AdminOrders(ctx, store.OrderQuery{Limit: 10})
	if err != nil || total != 1 || len(orders) != 1 || orders[0].SessionID != "cs_old" {
		t.Errorf("orders = %+v, total %d, %v", orders, total, err)
	}
}

// EnsureTable finishes a rebuild that stopped after the table was deleted:
// the items come back from the copy.
func TestEnsureTableFinishesAnInterruptedRebuild(t *testing.T) {
	t.Parallel()
	st, err := store.New(ctx, storetest.Config(t))
	storetest.Must(t, err, "store")
	// The copy as the rebuild leaves it: a table named <table>.rebuild.
	copyCfg := storetest.Config(t)
	copyCfg.TableName = st.Table() + ".rebuild"
	cp, err := store.New(ctx, copyCfg)
	storetest.Must(t, err, "copy store")
	storetest.Must(t, cp.EnsureTable(ctx), "copy table")
	storetest.Must(t, cp.PutCategory(ctx, domain.Category{ID: "kept", Name: "Kept"}), "item in the copy")

	storetest.Must(t, st.EnsureTable(ctx), "ensure table")
	t.Cleanup(func() { _, _ = st.DB().DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(st.Table())}) })
	cats, err := st.Categories(ctx)
	if err != nil || len(cats) != 1 || cats[0].ID != "kept" {
		t.Errorf("categories = %v, %v; want the copy's item back", cats, err)
	}
	if _, err := st.DB().DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(copyCfg.TableName)}); err == nil {
		t.Error("the copy was not deleted once its items were back")
	}
}

func putOrder(t *testing.T, st *store.Store, sid, uid, pid, status string, created time.Time) {
	t.Helper()
	storetest.Must(t, st.PutOrder(ctx, domain.Order{SessionID: sid, UserID: uid, PromptID: pid, PromptTitle: "T " + pid, Amount: 5,
		Status: status, Provider: "local", CreatedAt: created.UTC().Format(time.RFC3339Nano)}), "put order")
}

func sessionIDs(orders []domain.Order) []string {
	out := []string{}
	for _, o := range orders {
		out = append(out, o.SessionID)
	}
	return out
}

// The orders listing: newest first, each filter (state, buyer, prompt,
// dates at the edges of a day), pages that cover all once, and a total.
func TestAdminOrders(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	day := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	putOrder(t, st, "o1", "ann", "p1", domain.OrderPaid, day.Add(-time.Nanosecond)) // the day before, last instant
	putOrder(t, st, "o2", "ann", "p2", domain.OrderPending, day)                    // the day's first instant
	putOrder(t, st, "o3", "bob", "p1", domain.OrderPaid, day.Add(12*time.Hour))
	putOrder(t, st, "o4", "bob", "p1", domain.OrderRefunded, day.Add(24*time.Hour)) // the next day's first instant
	putOrder(t, st, "o5", "ann", "p1", domain.OrderPaid, day.Add(48*time.Hour))
	// An order's events live beside it and are not listed.
	storetest.Must(t, st.AddOrderEvent(ctx, "o3", store.OrderEvent{ID: "evt_1", Type: "checkout.session.completed", ReceivedAt: day}), "event")

	for _, tc := range []struct {
		q    store.OrderQuery
		want string
	}{
		{store.OrderQuery{}, "o5 o4 o3 o2 o1"},
		{store.OrderQuery{Status: domain.OrderPaid}, "o5 o3 o1"},
		{store.OrderQuery{UserID: "ann"}, "o5 o2 o1"},
		{store.OrderQuery{UserID: "ann", Status: domain.OrderPaid, PromptID: "p1"}, "o5 o1"},
		{store.OrderQuery{PromptID: "p1"}, "o5 o4 o3 o1"},
		{store.OrderQuery{From: day, To: day.Add(24 * time.Hour)}, "o3 o2"},
		{store.OrderQuery{UserID: "ann", From: day, To: day.Add(24 * time.Hour)}, "o2"},
		{store.OrderQuery{UserID: "bob", From: day.Add(24 * time.Hour)}, "o4"},
		{store.OrderQuery{To: day}, "o1"},
		{store.OrderQuery{From: day.Add(24 * time.Hour)}, "o5 o4"},
		{store.OrderQuery{UserID: "nobody"}, ""},
	} {
		tc.q.Limit = 100
		orders, next, total, err := st.AdminOrders(ctx, tc.q)
		got := fmt.Sprint(sessionIDs(orders))
		if err != nil || got != "["+tc.want+"]" || next != "" || total != len(orders) {
			t.Errorf("%+v: %s next %q total %d, %v; want [%s]", tc.q, got, next, total, err, tc.want)
		}
	}

	// Pages of two through the paid ones and through all of Ann's.
	for _, q := range []store.OrderQuery{{Status: domain.OrderPaid}, {UserID: "ann"}, {}} {
		var seen []string
		q.Limit = 2
		for page := 0; ; page++ {
			orders, next, total, err := st.AdminOrders(ctx, q)
			storetest.Must(t, err, "page")
			if len(orders) > 2 || (next != "" && len(orders) != 2) || page > 5 {
				t.Fatalf("%+v page %d: %v next %q", q, page, sessionIDs(orders), next)
			}
			seen = append(seen, sessionIDs(orders)...)
			if next == "" {
				all, _, _, _ := st.AdminOrders(ctx, store.OrderQuery{Status: q.Status, UserID: q.UserID, Limit: 100})
				if len(seen) != total || fmt.Sprint(seen) != fmt.Sprint(sessionIDs(all)) {
					t.Errorf("%+v: pages saw %v, total %d; want each of %v once", q, seen, total, sessionIDs(all))
				}
				break
			}
			q.Cursor = next
		}
	}
	if _, _, _, err := st.AdminOrders(ctx, store.OrderQuery{Limit: 2, Cursor: "bm90LWpzb24"}); !errors.Is(err, store.ErrBadCursor) {
		t.Errorf("a cursor we did not give: %v", err)
	}
	_, annNext, _, _ := st.AdminOrders(ctx, store.OrderQuery{UserID: "ann", Limit: 1})
	if _, _, _, err := st.AdminOrders(ctx, store.OrderQuery{UserID: "bob", Limit: 1, Cursor: annNext}); !errors.Is(err, store.ErrBadCursor) {
		t.Errorf("another listing's cursor: %v", err)
	}
	events, err := st.OrderEvents(ctx, "o3")
	if err != nil || len(events) != 1 || events[0].Type != "checkout.session.completed" {
		t.Errorf("events = %+v, %v", events, err)
	}
}

// One refund claim at a time: of concurrent claims one wins, the others
// see it under way; a paid order only; a stale claim is taken over; a
// released one is free again.
func TestClaimOrderRefund(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	now := time.Now()
	putOrder(t, st, "paid", "ann", "p1", domain.OrderPaid, now)
	putOrder(t, st, "pending", "ann", "p2", domain.OrderPending, now)

	var wg sync.WaitGroup
	var mu sync.Mutex
	won, underWay := 0, 0
	for i := range 8 {
		wg.Go(func() {
			_, err := st.ClaimOrderRefund(ctx, "paid", fmt.Sprint("c", i), now, time.Minute)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case errors.Is(err, store.ErrRefundUnderWay):
				underWay++
			default:
				t.Errorf("claim: %v", err)
			}
		})
	}
	wg.Wait()
	if won != 1 || underWay != 7 {
		t.Fatalf("%d claims won, %d saw one under way; want 1 and 7", won, underWay)
	}
	if _, err := st.ClaimOrderRefund(ctx, "paid", "late", now.Add(2*time.Minute), time.Minute); err != nil {
		t.Errorf("a stale claim is not taken over: %v", err)
	}
	storetest.Must(t, st.ReleaseOrderRefund(ctx, "paid", "late"), "release")
	if _, err := st.ClaimOrderRefund(ctx, "paid", "next", now, time.Minute); err != nil {
		t.Errorf("a released claim is not free: %v", err)
	}
	if _, err := st.ClaimOrderRefund(ctx, "pending", "c", now, time.Minute); !errors.Is(err, store.ErrOrderState) {
		t.Errorf("claim on a pending order: %v, want ErrOrderState", err)
	}
	if _, err := st.ClaimOrderRefund(ctx, "missing", "c", now, time.Minute); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("claim on no order: %v, want ErrNotFound", err)
	}
}

// The accounts listing: newest first, search on the start of the email or
// username in any case, pages; and an account's counts.
func TestAdminUsers(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, name := range []string{"Ada", "adam", "Bob", "carol"} {
		u := newUser(name, name+"@example.com", name)
		u.Email = fmt.Sprintf("%s@example.com", []string{"ada", "adam", "bob", "carol"}[i])
		u.CreatedAt = base.Add(time.Duration(i) * time.Hour)
		mustCreate(t, st, u)
	}
	ids := func(q store.UserQuery) (string, int) {
		q.Limit = 100
		users, _, total, err := st.AdminUsers(ctx, q)
		storetest.Must(t, err, "users")
		out := []string{}
		for _, u := range users {
			out = append(out, u.ID)
		}
		return fmt.Sprint(out), total
	}
	for _, tc := range []struct {
		q, want string
		total   int
	}{
		{"", "[carol Bob adam Ada]", 4}, {"ADA", "[adam Ada]", 2}, {"ada@", "[Ada]", 1}, {"bob@example.com", "[Bob]", 1},
		{"b", "[Bob]", 1}, {"example", "[]", 0}, {"  Carol ", "[carol]", 1},
	} {
		if got, total := ids(store.UserQuery{Search: tc.q}); got != tc.want || total != tc.total {
			t.Errorf("search %q = %s (total %d), want %s (%d)", tc.q, got, total, tc.want, tc.total)
		}
	}
	first, next, total, err := st.AdminUsers(ctx, store.UserQuery{Limit: 3})
	if err != nil || len(first) != 3 || next == "" || total != 4 {
		t.Fatalf("first page %d users, next %q, total %d, %v", len(first), next, total, err)
	}
	last, next, _, err := st.AdminUsers(ctx, store.UserQuery{Limit: 3, Cursor: next})
	if err != nil || len(last) != 1 || last[0].ID != "Ada" || next != "" {
		t.Fatalf("last page %+v, next %q, %v", last, next, err)
	}

	now := time.Now()
	_, err = st.GrantOwnership(ctx, "Ada", domain.Ownership{PromptID: "p1", Source: domain.SourcePurchase, OrderID: "o1", CreatedAt: now})
	storetest.Must(t, err, "own")
	_, err = st.GrantOwnership(ctx, "Ada", domain.Ownership{PromptID: "p2", Source: domain.SourceFree, CreatedAt: now})
	storetest.Must(t, err, "free")
	storetest.Must(t, st.PutMCPConnection(ctx, "Ada", domain.MCPConnection{ID: "m1", ServerID: "s1"}), "connection")
	storetest.Must(t, st.RecordChatUsage(ctx, "Ada", now, domain.ModelUsage{Provider: "openai", Model: "gpt-4o-mini", InputTokens: 30, OutputTokens: 12}), "usage")
	c, err := st.CountsOf(ctx, "Ada", now)
	if err != nil || c != (store.UserCounts{Purchases: 1, Connections: 1, ChatTokensToday: 42}) {
		t.Errorf("counts = %+v, %v; want 1 purchase, 1 connection, 42 tokens", c, err)
	}
	for range 2 {
		storetest.Must(t, st.CreateSession(ctx, "Ada", fmt.Sprint("s", time.Now().UnixNano()), now.Add(time.Hour)), "session")
	}
	storetest.Must(t, st.CreateSession(ctx, "Ada", "expired", now.Add(-time.Hour)), "expired session")
	if n, err := st.CountSessions(ctx, "Ada", now); err != nil || n != 2 {
		t.Errorf("open sessions = %d, %v; want 2", n, err)
	}
}

// Admin rights: set and cleared, disabled and enabled; another active
// admin is found only when one is an admin and not disabled.
func TestAdminRights(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	mustCreate(t, st, newUser("a", "a@example.com", "a"))
	mustCreate(t, st, newUser("b", "b@example.com", "b"))
	if u, err := st.SetSuperuser(ctx, "a", true); err != nil || !u.IsSuperuser {
		t.Fatalf("grant = %+v, %v", u, err)
	}
	if ok, err := st.OtherActiveAdmin(ctx, "a"); err != nil || ok {
		t.Errorf("another admin than the only one: %v, %v", ok, err)
	}
	if ok, err := st.OtherActiveAdmin(ctx, "b"); err != nil || !ok {
		t.Errorf("another admin than b: %v, %v; want a", ok, err)
	}
	if u, err := st.SetDisabled(ctx, "a", true); err != nil || !u.Disabled {
		t.Fatalf("disable = %+v, %v", u, err)
	}
	if ok, _ := st.OtherActiveAdmin(ctx, "b"); ok {
		t.Error("a disabled admin counts as active")
	}
	if u, err := st.SetDisabled(ctx, "a", false); err != nil || u.Disabled || !u.IsSuperuser {
		t.Fatalf("enable = %+v, %v", u, err)
	}
	if u, err := st.SetSuperuser(ctx, "a", false); err != nil || u.IsSuperuser {
		t.Fatalf("revoke = %+v, %v", u, err)
	}
	if _, err := st.SetSuperuser(ctx, "nobody", true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("grant to no account: %v", err)
	}
	if _, err := st.SetDisabled(ctx, "nobody", true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("disable no account: %v", err)
	}
}

// The admin-rights lease: held by one change at a time (a change that
// cannot get it in time is ErrAdminRightsBusy), released after each
// change, a failed one too.
func TestAdminRightsLease(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	boom := errors.New("boom")
	if err := st.WithAdminRightsLease(ctx, "x", func() error { return boom }); !errors.Is(err, boom) {
		t.Errorf("the change's error: %v", err)
	}
	held := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- st.WithAdminRightsLease(ctx, "holder", func() error { close(held); <-release; return nil })
	}()
	<-held
	if err := st.WithAdminRightsLease(ctx, "waiter", func() error { return nil }); !errors.Is(err, store.ErrAdminRightsBusy) {
		t.Errorf("while held for long: %v, want ErrAdminRightsBusy", err)
	}
	close(release)
	storetest.Must(t, <-done, "holder")
	storetest.Must(t, st.WithAdminRightsLease(ctx, "after", func() error { return nil }), "after the release")
}
