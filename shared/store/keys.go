package store

import (
	"strings"
	"time"
)

// Key builders: the only place that knows how items are addressed.

func userPK(uid string) string          { return "USER#" + uid }
func emailGuardPK(email string) string  { return "EMAIL#" + strings.ToLower(email) }
func usernameGuardPK(u string) string   { return "USERNAME#" + strings.ToLower(u) }
func googleGuardPK(sub string) string   { return "GOOGLE#" + sub }
func throttlePK(scope, k string) string { return "THROTTLE#" + scope + "#" + strings.ToLower(k) }
func oauthStatePK(nonce string) string  { return "OAUTHSTATE#" + nonce }

const (
	skProfile     = "PROFILE"
	skGuard       = "GUARD"
	skThrottle    = "WINDOW"
	skOAuthState  = "STATE"
	pkCatalog     = "CATALOG"
	activityIndex = "ACT#"
)

func categorySK(cid string) string { return "CAT#" + cid }

// sortableTime renders t so that string order is time order (fixed width, UTC).
func sortableTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000000Z")
}

func activitySK(t time.Time, id string) string { return activityIndex + sortableTime(t) + "#" + id }

// MCP registry: one item per server under MCP#<sid>, listed through GSI1 by
// display name; the sync job's state; and each user's MCP connections.
const (
	skMCPServer      = "SERVER"
	gsiMCPServersKey = "MCPSERVERS"
	pkMCPSync        = "MCPSYNC"
	skMCPSync        = "STATE"
	mcpConnPrefix    = "MCPCONN#"
)

func mcpServerPK(sid string) string { return "MCP#" + sid }
func mcpConnSK(cid string) string   { return mcpConnPrefix + cid }

// mcpServersGSI1SK orders the listing by display name (case-insensitive), the
// id keeping equal names apart.
func mcpServersGSI1SK(displayName, sid string) string {
	return strings.ToLower(displayName) + "#" + sid
}
