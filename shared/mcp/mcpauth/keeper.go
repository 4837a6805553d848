package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/mcp"
	"aiwork/shared/store"
)

// Keeper answers a usable access token for a user's signed-in connection,
// refreshing it when it is about to expire.
type Keeper struct {
	St     *store.Store
	Sealer *mcp.Sealer
	Client *http.Client // the outbound rules' client
	Now    func() time.Time
}

// refreshLease bounds one refresh; a request that finds another refreshing
// waits for it up to this long.
const refreshLease = 15 * time.Second

// AccessToken opens c's grant for uid and answers its access token; an
// expiring one is refreshed once across racing requests (a lease, then a
// conditional write). ErrReauth (and the connection marked) when the server
// no longer accepts the sign-in.
func (k Keeper) AccessToken(ctx context.Context, uid string, c domain.MCPConnection) (string, error) {
	for range 40 {
		sealed, err := k.open(uid, c)
		if err != nil {
			return "", err
		}
		now := k.Now()
		if sealed.Fresh(now) {
			return sealed.Token.AccessToken, nil
		}
		claimed, err := k.St.ClaimMCPConnectionRefresh(ctx, uid, c.ID, c.GrantVersion, now, now.Add(refreshLease))
		if err != nil {
			return "", err
		}
		if claimed {
			return k.refresh(ctx, uid, c, sealed)
		}
		// Another request refreshes: wait for its version.
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		if c, err = k.St.GetMCPConnection(ctx, uid, c.ID); err != nil {
			return "", err
		}
		if c.NeedsSignIn {
			return "", ErrReauth
		}
	}
	return "", fmt.Errorf("mcp sign-in refresh did not finish")
}

func (k Keeper) refresh(ctx context.Context, uid string, c domain.MCPConnection, sealed Sealed) (string, error) {
	nt, err := sealed.Grant.Refresh(ctx, k.Client, sealed.Token)
	if errors.Is(err, ErrReauth) {
		if err := k.St.MarkMCPConnectionNeedsSignIn(ctx, uid, c.ID, ""); err != nil && !errors.Is(err, store.ErrNotFound) {
			return "", err
		}
		return "", ErrReauth
	}
	if err != nil {
		return "", err
	}
	blob, err := k.Sealer.Seal(Sealed{Grant: sealed.Grant, Token: nt}.Encode(), uid, c.ServerID)
	if err != nil {
		return "", err
	}
	if err := k.St.UpdateMCPConnectionGrant(ctx, uid, c.ID, blob, c.GrantVersion); err != nil {
		return "", err
	}
	return nt.AccessToken, nil
}

func (k Keeper) open(uid string, c domain.MCPConnection) (Sealed, error) {
	if c.NeedsSignIn {
		return Sealed{}, ErrReauth
	}
	plain, err := k.Sealer.Open(c.SealedAPIKey, uid, c.ServerID)
	if err != nil {
		return Sealed{}, fmt.Errorf("open mcp sign-in: %w", err)
	}
	return DecodeSealed(plain)
}
