package store_test

import (
	"errors"
	"testing"

	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

// An admin's change runs after its audit line is written (pending); done,
// the line is marked so; failed, the line goes.
func TestWithAuditWritesTheLineFirst(t *testing.T) {
	t.Parallel()
	st := storetest.New(t)
	log := func() []store.AuditEntry {
		t.Helper()
		entries, _, err := st.AuditLog(ctx, store.AuditQuery{Limit: 10})
		storetest.Must(t, err, "audit log")
		return entries
	}
	var during []store.AuditEntry
	err := st.WithAudit(ctx, store.AuditEntry{ActorID: "a1", Action: "prompt.update", TargetID: "p1"}, func() error {
		during = log()
		return nil
	})
	storetest.Must(t, err, "with audit")
	if len(during) != 1 || !during[0].Pending || during[0].Action != "prompt.update" {
		t.Fatalf("while the change ran, the log held %+v; want its line, pending", during)
	}
	if after := log(); len(after) != 1 || after[0].Pending {
		t.Fatalf("after the change: %+v; want its line, done", after)
	}
	refused := errors.New("refused")
	if err := st.WithAudit(ctx, store.AuditEntry{ActorID: "a1", Action: "prompt.delete", TargetID: "p1"}, func() error { return refused }); !errors.Is(err, refused) {
		t.Fatalf("a failed change answered %v", err)
	}
	if after := log(); len(after) != 1 {
		t.Errorf("a failed change left its line: %+v", after)
	}
}
