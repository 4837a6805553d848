package lambdas

import "aiwork/shared/store"

// DynamoDB actions a function may be granted on the table.
const (
	GetItem    = "GetItem"
	PutItem    = "PutItem"
	UpdateItem = "UpdateItem"
	DeleteItem = "DeleteItem"
	Query      = "Query"
	// BatchGetItem is granted where one request reads items of two
	// partitions in one call (a connect's session and registry entry).
	BatchGetItem = "BatchGetItem"
)

// Access is what one function may do on the product table (least
// privilege, DESIGN §8): each DynamoDB action it calls with the partition
// keys it calls it on, and the GSI1 and GSI2 partition keys it queries. Keys are
// IAM StringLike patterns of dynamodb:LeadingKeys: "USER#*" is every
// user's partition, "CATALOG" that one partition. The CDK stack turns each
// entry into the function's policy; shared/local/devstack's TestTableAccess runs
// the API and the jobs against a recording table and fails on any call a
// function's Access does not allow.
type Access struct {
	// Table maps each action on the table to the partition key patterns.
	Table map[string][]string
	// Index is the GSI1 partition key patterns the function queries.
	Index []string
	// Index2 is the GSI2 partition keys it queries (the admin listings).
	Index2 []string
}

// Partition key patterns.
const (
	users        = store.PKUser + "*"
	emails       = store.PKEmail + "*"
	usernames    = store.PKUsername + "*"
	googleSubs   = store.PKGoogle + "*"
	throttles    = store.PKThrottle + "*"
	oauthStates  = store.PKOAuthState + "*"
	links        = store.PKLink + "*"
	prompts      = store.PKPrompt + "*"
	orders       = store.PKOrder + "*"
	intents      = store.PKPaymentIntent + "*"
	events       = store.PKStripeEvent + "*"
	mcpServers   = store.PKMCPServer + "*"
	catalog      = store.PKCatalog
	mcpSync      = store.PKMCPSync
	oauthClients = store.PKOAuthClient + "*"
	audit        = store.PKAudit
	adminRights  = store.PKAdminRights
	mailboxes    = store.PKMailbox + "*"
	promptLists  = store.PKPromptList + "*"
	promptWords  = store.PKPromptToken + "*"
	serverLists  = store.PKRegistryList + "*"
	serverWords  = store.PKRegistryToken + "*"
	reviews      = store.PKReviews
	sales        = store.PKCreatorSales + "*"
	payoutAccts  = store.PKStripeAccount + "*"
	agents       = store.PKAgent + "*"
)

// Each function's Access, derived from the store methods its handler (or
// job) calls; shared/store/keys.go says which partition each item lives
// in. No function scans, writes in batches or runs transactions.
var (
	// Accounts: profile, sessions and activity (USER#), the uniqueness
	// guards, sign-in and registration throttles, Google sign-in state and
	// mailed links. Query: a user's sessions, to end them all. Deletes: a
	// session, a lost registration's profile and email guard, a throttle
	// cleared, a spent sign-in state (accounts are never deleted here).
	accessAuth = Access{Table: map[string][]string{
		GetItem:    {users, emails, usernames, googleSubs, throttles, links},
		PutItem:    {users, emails, usernames, googleSubs, throttles, oauthStates, links},
		UpdateItem: {users, throttles, links},
		DeleteItem: {users, emails, throttles, oauthStates},
		Query:      {users},
	}}
	// The session check, activities and chat usage: reads of USER# only.
	accessUsers = Access{Table: map[string][]string{
		GetItem: {users},
		Query:   {users},
	}}
	// Catalogue (categories, prompts), free uses, ownership, activity and
	// ratings (the rating item and the aggregate under PROMPT#; a failed
	// aggregate update deletes or restores the rating). Free uses count
	// per mailbox (MAILBOX#, read and claimed), the account's QUOTA item
	// naming its mailbox. GSI1: a user's ratings (USER#). The marketplace list reads its pages (PLIST#,
	// PTOK#, Query) with their counts, and the caller's own prompts on a
	// page, in one BatchGetItem each; the featured list its order's first
	// copies (PLIST#FEAT) and its prompts. A rating brings the prompt's
	// copies in line, as an edit does (PLIST#, PTOK#: put, moved in the
	// featured order, deleted, counted).
	accessPrompts = Access{Table: map[string][]string{
		GetItem:      {users, prompts, mailboxes},
		BatchGetItem: {prompts, promptLists, promptWords},
		PutItem:      {users, prompts, promptLists, promptWords, sales}, // CSALES#: a creator's prompt's free uses
		UpdateItem:   {users, prompts, mailboxes, promptLists, promptWords, sales},
		DeleteItem:   {prompts, promptLists, promptWords},
		Query:        {users, catalog, prompts, promptLists, promptWords}, // PROMPT#: a creator's prompt's versions
	}, Index: []string{users}}
	// Checkout and its verification, which fulfils like the webhook does:
	// the order, its payment intent, ownership and activity (and the
	// ownership revoked when a refund raced the fulfilment); the user's
	// open-checkout record (USER#), and their pending orders (GSI1 USER#)
	// to expire once the prompt is owned. The free uses left (MAILBOX#,
	// read) decide whether checkout offers a free use instead.
	// An agent's order: the agent read when the order is made from the
	// session, its purchases counted (AGENT#).
	accessPayments = Access{Table: map[string][]string{
		GetItem:    {users, prompts, orders, mailboxes, sales, agents},
		PutItem:    {users, orders, intents, sales},         // CSALES#: a creator's sale, counted once
		UpdateItem: {users, orders, prompts, sales, agents}, // a prompt's or an agent's purchase counts
		DeleteItem: {users},
		Query:      {users},
	}, Index: []string{users}}
	// Stripe's events: fulfil (reading the buyer's ownership, free uses and
	// open-checkout record under USER#, the free claims under MAILBOX#),
	// expire, fail, refund; the processed-event record. No session check
	// (Stripe signs the request).
	accessWebhook = Access{Table: map[string][]string{
		GetItem:    {events, orders, intents, prompts, users, mailboxes, sales, payoutAccts, agents},
		PutItem:    {events, orders, intents, users, sales},
		UpdateItem: {orders, prompts, sales, users, agents}, // a prompt's or an agent's purchase counts, given and taken back; a creator's ledger and payout status
		DeleteItem: {users},
	}, Index: []string{users}}
	// The registry (read), connections and sign-ins under way (USER#),
	// connect throttles, and the site's client at each OAuth server. A
	// first sign-in with an operator's client records the authorization
	// server it met on the entry (MCP#, updated). The registry list reads
	// its pages (RLIST#, RTOK#, Query) with their counts (BatchGetItem).
	accessMCP = Access{Table: map[string][]string{
		GetItem:      {users, mcpServers, throttles, oauthClients},
		BatchGetItem: {users, mcpServers, serverLists, serverWords}, // a connect's session and entry; a page's counts
		PutItem:      {users, throttles, oauthClients},
		UpdateItem:   {users, throttles, mcpServers},
		DeleteItem:   {users},
		Query:        {users, serverLists, serverWords},
	}, Index: []string{store.GSI1MCPServers}}
	// The connection and the day's usage item, which is also the meter of
	// the chat limits (USER#).
	// Tools in chat add, in the caller's partition: the MCP connections
	// (read, their tools list refreshed), paused replies (put, taken once)
	// and always-allowed tools (put, queried); and a registry entry read
	// for a connection's key header. The tool calls of MCP App views are
	// counted per user in a throttle (THROTTLE#, read, opened, counted).
	// History's list: its pages (GSI1 CONVLIST#), a search's conversations
	// read in batches (USER#).
	// A conversation with an agent reads the agent (AGENT#): its
	// instructions, model and tool allow-list.
	accessChat = Access{Table: map[string][]string{
		GetItem:      {users, mcpServers, throttles, agents},
		BatchGetItem: {users},
		PutItem:      {users, throttles},
		UpdateItem:   {users, throttles},
		DeleteItem:   {users}, // a conversation and its messages
		Query:        {users},
	}, Index: []string{store.GSI1ConversationList + "*"}}
	// Registry sync and health probes: the servers and the sync state.
	// Each probe is also kept in the server's history (put, the oldest
	// past 50 listed and deleted). A server's change brings its registry
	// cards in line (RLIST#, RTOK#: put, moved, deleted, counted), and a
	// probe that changes what a card shows of its health updates them.
	accessMCPJobs = Access{Table: map[string][]string{
		GetItem:    {mcpSync},
		PutItem:    {mcpSync, mcpServers, serverLists, serverWords},
		UpdateItem: {mcpServers, serverLists, serverWords},
		DeleteItem: {mcpServers, serverLists, serverWords},
		Query:      {mcpServers},
	}, Index: []string{store.GSI1MCPServers}}
	// The admin area: the caller's stored user read on every request
	// (USER#); the catalogue (prompts with their ratings, categories and
	// their name guards under CATALOG), each change after its audit line
	// (AUDIT: written, marked done or removed, listed). The registry
	// (MCP#: entries added and edited, and what Probe now and Sync write,
	// as mcp-jobs does, with the sync state). GSI1: the prompt listing
	// (CATALOG: a search of the prompts) and the registry's (MCPSERVERS).
	// The prompt list's pages and the categories' counts are the
	// listing's copies (PLIST#: Query, its COUNT items and the page's
	// prompts in one BatchGetItem). A prompt's change brings
	// its marketplace cards in line (PLIST#, PTOK#: put, moved, deleted,
	// counted); a registry entry's change its registry cards (RLIST#,
	// RTOK#, the same).
	// Orders: read, their events (ORDER#), the refund's claim and
	// transition, the buyer's ownership and activity (USER#) and the
	// prompt's counts; a buyer's orders (GSI1 USER#), a buyer named by
	// email (EMAIL#, read). Users: the profile (admin right, disabled),
	// sessions counted and ended, purchases, connections and usage counted
	// (USER#), the sign-in throttle read and cleared, a confirmation link
	// saved (LINK#), the lease that keeps an admin (ADMINRIGHTS). GSI2: the
	// orders and accounts listings. Reviews: the queue (REVIEWS, listed,
	// a decided prompt's item deleted); creators (their item under USER#,
	// listed through GSI2 CREATORS, their prompts through CPROMPTS#<uid>).
	// Agents: the queue's agents read and decided (AGENT#: the agent
	// written, its approved version put), the admins' agent list (each
	// creator's agents through GSI2 CAGENTS#<uid>), suspended and
	// unsuspended; a creator's suspension marks their agents.
	accessAdmin = Access{Table: map[string][]string{
		GetItem:      {users, prompts, catalog, mcpServers, mcpSync, orders, throttles, emails, sales, agents},
		PutItem:      {prompts, catalog, audit, mcpServers, mcpSync, users, links, adminRights, promptLists, promptWords, serverLists, serverWords, sales, agents},
		UpdateItem:   {prompts, catalog, audit, mcpServers, orders, users, promptLists, promptWords, serverLists, serverWords, sales, agents},
		DeleteItem:   {prompts, catalog, audit, mcpServers, users, throttles, adminRights, promptLists, promptWords, serverLists, serverWords, reviews},
		Query:        {catalog, prompts, audit, mcpServers, orders, users, promptLists, reviews},
		BatchGetItem: {prompts, promptLists},
	}, Index: []string{catalog, store.GSI1MCPServers, users}, Index2: []string{store.GSI2Orders, store.GSI2Users, store.GSI2Creators, store.GSI2CreatorPrompts + "*", store.GSI2CreatorAgents + "*"}}
	// The agent marketplace: the agents on sale (GSI1 AGENTS), an agent
	// (AGENT#) with the caller's purchase and MCP connections (USER#), its
	// servers' registry entries (MCP#) and the categories (CATALOG). A
	// rating is its item and the agent's aggregate under AGENT# (put,
	// added to, taken back when the aggregate's write fails). A paid
	// agent's checkout is the prompts': the order (ORDER#: read for reuse,
	// put, its split set) and the buyer's open-checkout record (USER#:
	// claimed, opened, released); the creator's payout account is read
	// under USER#.
	accessAgents = Access{Table: map[string][]string{
		GetItem:    {users, agents, mcpServers, orders},
		PutItem:    {agents, users, orders},
		UpdateItem: {agents, users, orders},
		DeleteItem: {agents, users},
		Query:      {users, catalog},
	}, Index: []string{store.GSI1Agents}}
	// Creators: the session check and the creator item (USER#), the
	// categories (CATALOG), their prompts (PROMPT#: created, edited,
	// submitted, deleted with their ratings, listed through GSI2
	// CPROMPTS#<uid>), and the review queue's item a submit puts (or takes
	// back when refused). A creator's public page finds them by the
	// username guard (USERNAME#, read). A prompt's write brings its listing copies in
	// line (PLIST#, PTOK#), as the admins' does.
	// Their agents (AGENT#: created, edited, submitted, deleted with their
	// versions and ratings, listed through GSI2 CAGENTS#<uid>), each
	// checked against the registry (MCP#, read); a new display name is
	// copied to them.
	accessCreators = Access{Table: map[string][]string{
		GetItem:    {users, usernames, prompts, sales, payoutAccts, agents, mcpServers},
		PutItem:    {prompts, promptLists, promptWords, reviews, payoutAccts, agents}, // STRIPEACCT#: the payout account's lookup item
		UpdateItem: {users, prompts, promptLists, promptWords, agents},
		DeleteItem: {prompts, promptLists, promptWords, reviews, agents},
		Query:      {catalog, prompts, sales, agents}, // CSALES#: the dashboard's ledger
	}, Index2: []string{store.GSI2CreatorPrompts + "*", store.GSI2CreatorAgents + "*"}}
)
