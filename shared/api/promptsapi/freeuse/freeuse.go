// Package freeuse is the free-use quota as the account asking may see it,
// wherever it is shown: the prompts group's status and catalogue, and the
// payments group's answer that a prompt can still be had for free. One
// rule, so no route tells an alias more than another.
package freeuse

import (
	"context"
	"errors"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// Status is uid's free-use quota as uid may see it. Uses count per
// mailbox, but an address nobody has confirmed may be an alias someone
// else registered (victim+x@gmail.com): until uid's address is confirmed
// it is answered as a fresh mailbox, with this account's own claims only.
// The mailbox's count applies at the first claim, which needs a confirmed
// address.
func Status(ctx context.Context, st *store.Store, uid string, limit int) (domain.FreeStatus, error) {
	fs, err := st.FreeStatus(ctx, uid, limit)
	if err != nil || (!fs.SharedWithOtherAccounts && fs.Used == len(fs.PromptIDs)) {
		return fs, err // nothing of another account's in it
	}
	u, err := st.GetUser(ctx, uid)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return domain.FreeStatus{}, err
	}
	if err == nil && u.IsVerified {
		return fs, nil
	}
	own := len(fs.PromptIDs)
	return domain.FreeStatus{Remaining: max(0, limit-own), TotalAllowed: limit, Used: own, PromptIDs: fs.PromptIDs}, nil
}
