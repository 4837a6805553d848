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

// Accounts: a user's sign-in sessions live in the user's partition (so the
// account's items and its sessions go together); single-use links (email
// verification, password reset) are keyed by the SHA-256 of their token.
const (
	sessionPrefix = "SESSION#"
	skLinkToken   = "LINK"
)

func sessionSK(sid string) string                  { return sessionPrefix + sid }
func linkTokenPK(purpose, tokenHash string) string { return "LINK#" + purpose + "#" + tokenHash }

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

// Chat metering: each user's open-stream counter, and one usage item per
// UTC day (SK USAGE#2006-01-02, so a month is a begins_with query).
const (
	skChatStreams    = "STREAMS"
	chatUsagePrefix  = "USAGE#"
	chatUsageDayForm = "2006-01-02"
)

func chatUsageSK(day time.Time) string { return chatUsagePrefix + day.UTC().Format(chatUsageDayForm) }

// chatUsageMonthPrefix selects the day items of t's UTC month.
func chatUsageMonthPrefix(t time.Time) string {
	return chatUsagePrefix + t.UTC().Format("2006-01") + "-"
}

// chatModelAttr names a model's counter on the day item: kind is in, out or
// req; "m#openai#gpt-4o-mini#in", with "#demo" after the model for the demo
// model standing in for it. Catalogue ids and names hold no '#'.
func chatModelAttr(kind, provider, model string, demo bool) string {
	name := "m#" + provider + "#" + model
	if demo {
		name += "#demo"
	}
	return name + "#" + kind
}

// parseChatModelAttr reverses chatModelAttr; ok is false for other attributes.
func parseChatModelAttr(name string) (kind, provider, model string, demo, ok bool) {
	parts := strings.Split(name, "#")
	switch {
	case len(parts) == 4 && parts[0] == "m":
		return parts[3], parts[1], parts[2], false, true
	case len(parts) == 5 && parts[0] == "m" && parts[3] == "demo":
		return parts[4], parts[1], parts[2], true, true
	}
	return "", "", "", false, false
}
