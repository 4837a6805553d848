// Command backfill-admin-index gives the orders and accounts stored before
// the admin listings existed their GSI2 keys (store.BackfillAdminIndex), so
// the admin area lists them, and folds the free-use counts kept per account
// before quotas were per mailbox into the mailboxes
// (store.BackfillMailboxQuotas), so a new alias of a farmed address gets
// no fresh quota, and lists the prompts stored before the marketplace
// listing, or left behind by a write whose listing update failed
// (store.BackfillPromptListings), and the conversations kept before
// History's list (store.BackfillConversationLists). Run it once after the
// deploy that adds GSI2, mailbox quotas, the marketplace listing or
// History's list, with credentials
// allowed to scan and update the table (the functions' roles are not:
// none of them scans):
//
//	TABLE_NAME=<table> AWS_REGION=<region> go run ./infra/cmd/backfill-admin-index
//
// (the table's name is every function's TABLE_NAME setting).
//
// It only adds keys that are missing, folds each count once and lists a
// prompt as its own write would, so running it again, or while the site
// runs, is safe. The devserver does the same at
// every start.
package main

import (
	"context"
	"fmt"
	"os"

	"aiwork/shared/config"
	"aiwork/shared/store"
)

func main() {
	cfg := config.LoadStore()
	if os.Getenv("TABLE_NAME") == "" {
		fmt.Fprintln(os.Stderr, "set TABLE_NAME to the table's name (any function's TABLE_NAME), and AWS_REGION")
		os.Exit(2)
	}
	ctx := context.Background()
	st, err := store.New(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	res, err := st.BackfillAdminIndex(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: gave %d orders and %d accounts their admin listing keys\n", cfg.TableName, res.Orders, res.Users)
	folded, err := st.BackfillMailboxQuotas(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: folded %d accounts' earlier free-use counts into their mailboxes\n", cfg.TableName, folded)
	listed, err := st.BackfillPromptListings(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: listed %d prompts in the marketplace listing\n", cfg.TableName, listed)
	servers, err := st.BackfillMCPListings(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: listed %d servers in the registry listing\n", cfg.TableName, servers)
	convs, err := st.BackfillConversationLists(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: listed %d conversations in History's lists\n", cfg.TableName, convs)
}
