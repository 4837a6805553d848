package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// Key builders: the only place that knows how items are addressed.

// Partition keys: every item's PK is one of these prefixes followed by an
// id, or one of the fixed keys. Each Lambda may touch only the partitions
// its code uses (dynamodb:LeadingKeys in its IAM policy): the table in
// aiwork/shared/lambdas (access.go) names them with these constants, so a
// store call on a new partition must be added there too.
const (
	PKUser          = "USER#"          // profile, sessions, quota, ownership, activity, connections, chat metering
	PKEmail         = "EMAIL#"         // email uniqueness guard
	PKUsername      = "USERNAME#"      // username uniqueness guard
	PKGoogle        = "GOOGLE#"        // Google subject guard
	PKThrottle      = "THROTTLE#"      // fixed-window counters (sign-in, registration, chat, connects)
	PKOAuthState    = "OAUTHSTATE#"    // Google sign-in state
	PKLink          = "LINK#"          // single-use mailed links
	PKPrompt        = "PROMPT#"        // prompt and its ratings
	PKOrder         = "ORDER#"         // checkout order
	PKPaymentIntent = "PAYMENTINTENT#" // payment intent → order
	PKStripeEvent   = "STRIPEEVENT#"   // processed Stripe event
	PKLocalCheckout = "LOCALCHECKOUT#" // the devserver's test checkout
	PKMCPServer     = "MCP#"           // MCP registry entry
	PKCatalog       = "CATALOG"        // categories; GSI1 key of the prompt listing
	PKMCPSync       = "MCPSYNC"        // registry sync state
	PKOAuthClient   = "OAUTHCLIENT#"   // the site's client registered at an MCP server's authorization server
	PKAudit         = "AUDIT"          // the admins' audit log (AUDIT#<time>#<id>, time order)
	PKAdminRights   = "ADMINRIGHTS"    // the lease serializing changes that take an admin away
	PKMailbox       = "MAILBOX#"       // free uses, counted per mailbox (every account on one address)
	PKPromptList    = "PLIST#"         // the marketplace listing: PLIST#ALL and PLIST#CAT#<cid>, a card per published prompt and sort order
	PKPromptToken   = "PTOK#"          // the marketplace search: PTOK#<word>, a card per prompt with that word and sort order
	PKRegistryList  = "RLIST#"         // the registry listing: RLIST#ALL and RLIST#MT#<model type>, a card per listed server
	PKRegistryToken = "RTOK#"          // the registry search: RTOK#<word>, a card per listed server with that word
	PKAgent         = "AGENT#"         // an agent, its live versions and its ratings
	// GSI1 partition keys: the prompt listing (PKCatalog), the MCP server
	// listing (GSI1MCPServers) and a user's ratings and orders (PKUser+uid).
	GSI1MCPServers = "MCPSERVERS"
	// GSI1Agents lists the agent marketplace: only agents on sale carry it.
	GSI1Agents = "AGENTS"
	// GSI2 partition keys (the admin listings): every order and every
	// account, newest first.
	GSI2Orders = "ORDERS"
	GSI2Users  = "USERS"
	// GSI2CreatorAgents (CAGENTS#<uid>) lists one creator's agents.
	GSI2CreatorAgents = "CAGENTS#"
)

func userPK(uid string) string          { return PKUser + uid }
func emailGuardPK(email string) string  { return PKEmail + strings.ToLower(email) }
func usernameGuardPK(u string) string   { return PKUsername + strings.ToLower(u) }
func googleGuardPK(sub string) string   { return PKGoogle + sub }
func throttlePK(scope, k string) string { return PKThrottle + scope + "#" + strings.ToLower(k) }
func oauthStatePK(nonce string) string  { return PKOAuthState + nonce }
func promptPK(pid string) string        { return PKPrompt + pid }
func orderPK(sid string) string         { return PKOrder + sid }
func paymentPK(pi string) string        { return PKPaymentIntent + pi }
func stripeEventPK(id string) string    { return PKStripeEvent + id }
func localCheckoutPK(sid string) string { return PKLocalCheckout + sid }

// Accounts: a user's sign-in sessions live in the user's partition (so the
// account's items and its sessions go together); single-use links (email
// verification, password reset) are keyed by the SHA-256 of their token.
const (
	sessionPrefix = "SESSION#"
	skLinkToken   = "LINK"
)

// Purposes of mailed single-use links: the word after LINK# in their key.
const (
	LinkVerifyEmail   = "VERIFY"
	LinkResetPassword = "RESET"
)

func sessionSK(sid string) string                  { return sessionPrefix + sid }
func linkTokenPK(purpose, tokenHash string) string { return PKLink + purpose + "#" + tokenHash }

// The one item of a guard, throttle or OAuth-state partition.
const (
	skGuard      = "GUARD"
	skThrottle   = "WINDOW"
	skOAuthState = "STATE"
)

// The rest of the user's partition: the profile, the activity feed
// (ACT#<time>#<id>), the free quota, the prompts the user owns, the open
// checkout per prompt (one session for a double click) and the chat
// connections (one provider model each).
const (
	skProfile      = "PROFILE"
	activityIndex  = "ACT#"
	skQuota        = "QUOTA"
	ownPrefix      = "OWN#"
	checkoutPrefix = "CHECKOUT#"
	chatConnPrefix = "CONN#"
)

// sortableTime renders t so that string order is time order (fixed width, UTC).
func sortableTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000000Z")
}

func activitySK(t time.Time, id string) string { return activityIndex + sortableTime(t) + "#" + id }
func ownSK(pid string) string                  { return ownPrefix + pid }
func checkoutSK(pid string) string             { return checkoutPrefix + pid }
func chatConnSK(cid string) string             { return chatConnPrefix + cid }

// Catalogue: the categories under CATALOG / CAT#<cid>; each prompt under
// PROMPT#<pid> / META beside its ratings (RATING#<uid>, one per user). GSI1
// lists the catalogue (CATALOG / <created>#<pid>, time order) and a
// user's ratings (USER#<uid> / RATING#<pid>).
const (
	pkCatalog      = PKCatalog
	gsiCatalogKey  = PKCatalog
	categoryPrefix = "CAT#"
	skPromptMeta   = "META"
	ratingPrefix   = "RATING#"
)

func categorySK(cid string) string { return categoryPrefix + cid }

// The marketplace listing (prompt_listing.go): copies of each published
// prompt's card, one per sort order, in the partitions it is listed in:
// PLIST#ALL, PLIST#CAT#<cid> and PTOK#<word> for each word it is found by.
// A card's SK is its place in the order, so a page is one Query from the
// place the page before ended:
//
//	newest      N#<created>#<pid>                   read backwards
//	price-low   L#<cents>#<created, inverted>#<pid, inverted>
//	price-high  H#<cents, inverted>#<created, inverted>#<pid, inverted>
//
// (inverted: a string whose order is the reverse, so that equal prices
// list newest first, then by id, as SPEC §9's newest does.) Each
// partition also holds its COUNT item: how many prompts it lists.
const (
	listAllPK       = PKPromptList + "ALL"
	listCategoryPre = PKPromptList + "CAT#"
	skListCount     = "COUNT"
	listNewest      = "N#"
	listPriceLow    = "L#"
	listPriceHigh   = "H#"
)

func listCategoryPK(cid string) string { return listCategoryPre + cid }
func listTokenPK(word string) string   { return PKPromptToken + word }

// maxCents bounds a price in cents in a listing key (prompts.MaxPrice is
// far below it).
const maxCents = 99_999_999

func listNewestSK(created time.Time, pid string) string {
	return listNewest + sortableTime(created) + "#" + pid
}

func listPriceLowSK(cents int, created time.Time, pid string) string {
	return fmt.Sprintf("%s%08d#%s#%s", listPriceLow, cents, invertDigits(sortableTime(created)), invertID(pid))
}

func listPriceHighSK(cents int, created time.Time, pid string) string {
	return fmt.Sprintf("%s%08d#%s#%s", listPriceHigh, maxCents-cents, invertDigits(sortableTime(created)), invertID(pid))
}

// invertDigits maps each digit d to 9-d: fixed-width times then sort in
// reverse.
func invertDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '9' - r + '0'
		}
		return r
	}, s)
}

// invertID maps each printable ASCII character c to 0x9E-c (printable
// too) and ends with DEL (0x7F), above every mapped character: ids then
// sort in reverse, a shorter id after the longer ids it starts (as "ab" is
// before "abc"). Other characters are kept (ids are ASCII).
func invertID(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 0x20 && r <= 0x7E {
			return 0x9E - r
		}
		return r
	}, id) + "\x7f"
}
func promptGSI1SK(created time.Time, pid string) string {
	return sortableTime(created) + "#" + pid
}
func ratingSK(uid string) string     { return ratingPrefix + uid }
func ratingGSI1SK(pid string) string { return ratingPrefix + pid }

// Payments: an order under ORDER#<session> / ORDER, listed per user in GSI1
// (USER#<uid> / ORDER#<created>); a payment intent's pointer to its order
// (PAYMENTINTENT#<pi> / ORDER); a processed Stripe event (STRIPEEVENT#<id>
// / EVENT); and the local checkout's sessions (LOCALCHECKOUT#<sid> /
// SESSION) with their refunds beside them (REFUND#<idempotency key>).
const (
	skOrder           = "ORDER"
	orderIndexPrefix  = "ORDER#"
	skStripeEvent     = "EVENT"
	skLocalSession    = "SESSION"
	localRefundPrefix = "REFUND#"
)

func orderGSI1SK(created time.Time) string { return orderIndexPrefix + sortableTime(created) }
func localRefundSK(idemKey string) string  { return localRefundPrefix + idemKey }

// The admin listings (GSI2, sparse): each order under ORDERS and each
// account's profile under USERS, sorted by <created>#<id> (time order, the
// id keeping equal times apart). The keys are written when the order or
// the account is made; items stored before GSI2 existed get theirs from
// BackfillAdminIndex.
func orderGSI2SK(created time.Time, sid string) string { return sortableTime(created) + "#" + sid }
func userGSI2SK(created time.Time, uid string) string  { return sortableTime(created) + "#" + uid }

// The provider's events about an order, beside it (ORDER#<sid> /
// EVENT#<event id>), recorded by the webhook for the admins' order page.
const orderEventPrefix = "EVENT#"

func orderEventSK(eventID string) string { return orderEventPrefix + eventID }

// The one lease item under ADMINRIGHTS: held while a change that takes an
// admin away (revoke, disable) checks that an admin remains and writes.
const skAdminLease = "LEASE"

// MCP registry: one item per server under MCP#<sid>, listed through GSI1 by
// display name; the sync job's state; and each user's MCP connections.
const (
	skMCPServer      = "SERVER"
	gsiMCPServersKey = GSI1MCPServers
	pkMCPSync        = PKMCPSync
	skMCPSync        = "STATE"
	mcpConnPrefix    = "MCPCONN#"
)

func mcpServerPK(sid string) string { return PKMCPServer + sid }
func mcpConnSK(cid string) string   { return mcpConnPrefix + cid }

// Tools in chat, under the user's partition: a reply paused for the user's
// approval of a tool call (keyed by the SHA-256 of its token, so the table
// never holds a usable token), and each tool the user always allows, per
// registry server.
const (
	toolApprovalPrefix = "TOOLAPPROVAL#"
	toolAllowPrefix    = "TOOLALLOW#"
)

func toolApprovalSK(tokenHash string) string { return toolApprovalPrefix + tokenHash }

// Conversations kept with the account, under the user's partition: one item
// per conversation (CONV#<cid>), one per message (CMSG#<cid>#<mid>, ids of
// fixed length, so a conversation's messages come in id order) and, for a
// long reply, its further text chunks (CMSG#<cid>#<mid>#<nn>, right after
// their message) and, for a reply saved as it was generated, the parts each
// save appended (CMSG#<cid>#<mid>#p<nnnnn>). Deleting the account deletes them with the partition.
const (
	conversationPrefix = "CONV#"
	convMessagePrefix  = "CMSG#"
)

func conversationSK(cid string) string     { return conversationPrefix + cid }
func convMessagesPrefix(cid string) string { return convMessagePrefix + cid + "#" }
func convMessageSK(cid, mid string) string { return convMessagesPrefix(cid) + mid }
func convMessageChunkSK(cid, mid string, n int) string {
	return convMessageSK(cid, mid) + fmt.Sprintf("#%02d", n)
}

// convMessagePartSK is the key of a reply's n-th part (conversation_reply.go),
// after its chunks: "p" sorts after the digits.
func convMessagePartSK(cid, mid string, n int) string {
	return convMessageSK(cid, mid) + fmt.Sprintf("#p%05d", n)
}
func toolAllowSK(serverID, tool string) string {
	return toolAllowPrefix + serverID + "#" + tool
}

// mcpServersGSI1SK orders the listing by display name (case-insensitive), the
// id keeping equal names apart.
func mcpServersGSI1SK(displayName, sid string) string {
	return strings.ToLower(displayName) + "#" + sid
}

// Chat metering: one usage item per UTC day, which is also the day's meter
// (SK USAGE#2006-01-02, so a month is a begins_with query).
const (
	chatUsagePrefix  = "USAGE#"
	chatUsageDayForm = "2006-01-02"
)

func chatUsageSK(day time.Time) string { return chatUsagePrefix + day.UTC().Format(chatUsageDayForm) }

// chatUsageDate is the day (2006-01-02) a usage item's SK names.
func chatUsageDate(sk string) string { return strings.TrimPrefix(sk, chatUsagePrefix) }

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

// chatModelNamable reports whether chatModelAttr can name provider's model
// unambiguously: both set, neither holding the separator.
func chatModelNamable(provider, model string) bool {
	return provider != "" && model != "" && !strings.Contains(provider+model, "#")
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

// MCP sign-in (OAuth): a flow under way, in the user's partition, keyed by
// the SHA-256 of its state's secret part (the table never holds a usable
// state); the site's registration at one authorization server.
const (
	mcpOAuthFlowPrefix = "MCPOAUTH#"
	oauthClientSK      = "CLIENT"
)

func mcpOAuthFlowSK(stateHash string) string { return mcpOAuthFlowPrefix + stateHash }
func oauthClientPK(keyHash string) string    { return PKOAuthClient + keyHash }

// Why a user's MCP sign-in failed, kept a few minutes in their partition
// for the registry page to read, keyed by the SHA-256 of the id its
// address carries.
const signInFailurePrefix = "SIGNINFAIL#"

func signInFailureSK(idHash string) string { return signInFailurePrefix + idHash }

// The admins' audit log: one partition, a line per action in time order.
const auditPrefix = "AUDIT#"

func auditSK(at time.Time, id string) string { return auditPrefix + sortableTime(at) + "#" + id }

// Free uses: the quota of a mailbox (MAILBOX#<id> / QUOTA), shared by every
// account whose address delivers to it (domain.CanonicalMailbox). The id is
// the SHA-256 of the canonical address: fixed length whatever the address,
// and the table keeps no address after its accounts are deleted (the count
// stays, so deleting an account gives no uses back). The account's own
// QUOTA item names the mailbox (quota_home.go).
func mailboxID(canonical string) string {
	sum := sha256.Sum256([]byte(canonical))
	return hex.EncodeToString(sum[:])
}

func mailboxPK(id string) string { return PKMailbox + id }

// Agents (agents.go): the agent under AGENT#<aid> / AGENT, each version
// that went live beside it (VER#<number, six digits>, a full snapshot) and
// its ratings (RATING#<uid>, one per user). GSI1 AGENTS lists the agents on
// sale, GSI2 CAGENTS#<uid> a creator's agents, both by <created>#<aid>.
const (
	skAgent            = "AGENT"
	agentVersionPrefix = "VER#"
	agentRatingPrefix  = "RATING#"
	// reviewAgentPrefix: an agent's item in the review queue (PKReviews,
	// creator_prompts.go), REVIEWS / AGENT#<aid>.
	reviewAgentPrefix = "AGENT#"
)

func agentPK(aid string) string                         { return PKAgent + aid }
func agentVersionSK(n int) string                       { return fmt.Sprintf("%s%06d", agentVersionPrefix, n) }
func agentRatingSK(uid string) string                   { return agentRatingPrefix + uid }
func creatorAgentsGSI2PK(uid string) string             { return GSI2CreatorAgents + uid }
func agentIndexSK(created time.Time, aid string) string { return sortableTime(created) + "#" + aid }
