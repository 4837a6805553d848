package store

import (
	"testing"
	"time"
)

// Every key as stored: a key builder that changes its answer makes the
// items already in the table unreadable, so each one is pinned here.
func TestKeysAsStored(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 30, 0, 5, time.FixedZone("x", 3600))
	for _, tt := range []struct{ got, want string }{
		{userPK("u1"), "USER#u1"},
		{emailGuardPK("Ann@Example.com"), "EMAIL#ann@example.com"},
		{usernameGuardPK("Ann"), "USERNAME#ann"},
		{googleGuardPK("g1"), "GOOGLE#g1"},
		{throttlePK("signin", "Ann@X"), "THROTTLE#signin#ann@x"},
		{oauthStatePK("n1"), "OAUTHSTATE#n1"},
		{linkTokenPK(LinkVerifyEmail, "h1"), "LINK#VERIFY#h1"},
		{linkTokenPK(LinkResetPassword, "h1"), "LINK#RESET#h1"},
		{skLinkToken, "LINK"},
		{sessionSK("s1"), "SESSION#s1"},
		{skGuard + skThrottle + skOAuthState, "GUARDWINDOWSTATE"},
		{skProfile, "PROFILE"},
		{activitySK(at, "a1"), "ACT#2026-11-22T09:30:00.000000005Z#a1"},
		{skQuota, "QUOTA"},
		{mailboxPK(mailboxID("bob@example.com")), "MAILBOX#5ff860bf1190596c7188ab851db691f0f3169c453936e9e1eba2f9a47f7a0018"},
		{ownSK("p1"), "OWN#p1"},
		{checkoutSK("p1"), "CHECKOUT#p1"},
		{chatConnSK("c1"), "CONN#c1"},
		{pkCatalog + gsiCatalogKey, "CATALOGCATALOG"},
		{categorySK("c1"), "CAT#c1"},
		{promptPK("p1"), "PROMPT#p1"},
		{agentPK("a-1") + "/" + skAgent, "AGENT#a-1/AGENT"},
		{agentVersionSK(3), "VER#000003"},
		{agentRatingSK("u1"), "RATING#u1"},
		{GSI1Agents + "/" + agentIndexSK(at, "a-1"), "AGENTS/2026-11-22T09:30:00.000000005Z#a-1"},
		{creatorAgentsGSI2PK("u1"), "CAGENTS#u1"},
		{PKReviews + "/" + reviewAgentPrefix + "a-1", "REVIEWS/AGENT#a-1"},
		{skPromptMeta, "META"},
		{promptGSI1SK(at, "p1"), "2026-11-22T09:30:00.000000005Z#p1"},
		{ratingSK("u1"), "RATING#u1"},
		{ratingGSI1SK("p1"), "RATING#p1"},
		{orderPK("cs1"), "ORDER#cs1"},
		{skOrder, "ORDER"},
		{orderGSI1SK(at), "ORDER#2026-11-22T09:30:00.000000005Z"},
		{paymentPK("pi1"), "PAYMENTINTENT#pi1"},
		{stripeEventPK("ev1"), "STRIPEEVENT#ev1"},
		{skStripeEvent, "EVENT"},
		{localCheckoutPK("cs1"), "LOCALCHECKOUT#cs1"},
		{skLocalSession, "SESSION"},
		{localRefundSK("k1"), "REFUND#k1"},
		{GSI2Orders + "/" + orderGSI2SK(at, "cs1"), "ORDERS/2026-11-22T09:30:00.000000005Z#cs1"},
		{GSI2Users + "/" + userGSI2SK(at, "u1"), "USERS/2026-11-22T09:30:00.000000005Z#u1"},
		{orderEventSK("evt1"), "EVENT#evt1"},
		{PKAdminRights + "/" + skAdminLease, "ADMINRIGHTS/LEASE"},
		{mcpServerPK("s1"), "MCP#s1"},
		{skMCPServer, "SERVER"},
		{gsiMCPServersKey, "MCPSERVERS"},
		{mcpServersGSI1SK("My Server", "s1"), "my server#s1"},
		{pkMCPSync + "/" + skMCPSync, "MCPSYNC/STATE"},
		{mcpConnSK("c1"), "MCPCONN#c1"},
		{toolApprovalSK("h1"), "TOOLAPPROVAL#h1"},
		{toolAllowSK("s1", "t1"), "TOOLALLOW#s1#t1"},
		{chatUsageSK(at), "USAGE#2026-11-22"},
		{chatUsageMonthPrefix(at), "USAGE#2026-11-"},
		{chatUsageDate("USAGE#2026-11-22"), "2026-11-22"},
		{chatModelAttr("in", "openai", "gpt-4o-mini", true), "m#openai#gpt-4o-mini#demo#in"},
	} {
		if tt.got != tt.want {
			t.Errorf("key %q, stored items have %q", tt.got, tt.want)
		}
	}
}
