package stack_test

import (
	"strings"
	"testing"

	"aiwork/infra/stack"
)

type statement struct {
	Effect    string
	Actions   []string
	Resources []any
	Raw       map[string]any
}

// rolePolicies answers the statements of every AWS::IAM::Policy attached to
// the role with logical id role.
func rolePolicies(tp *tmpl, role string) []statement {
	var out []statement
	for _, id := range tp.ofType("AWS::IAM::Policy") {
		p := tp.Resources[id]
		attached := false
		for _, r := range props(p, "Roles").([]any) {
			attached = attached || ref(r) == role
		}
		if attached {
			out = append(out, statements(props(p, "PolicyDocument", "Statement"))...)
		}
	}
	return out
}

func statements(v any) []statement {
	var out []statement
	list, _ := v.([]any)
	for _, s := range list {
		m := s.(map[string]any)
		st := statement{Effect: m["Effect"].(string), Actions: strs(m["Action"]), Raw: m}
		switch r := m["Resource"].(type) {
		case []any:
			st.Resources = r
		case nil:
		default:
			st.Resources = []any{r}
		}
		out = append(out, st)
	}
	return out
}

func TestNoPolicyGrantsEveryActionOfAService(t *testing.T) {
	tp := synth(t, mainStack)
	check := func(where string, sts []statement) {
		for _, st := range sts {
			for _, a := range st.Actions {
				if st.Effect == "Allow" && (a == "*" || strings.HasSuffix(a, ":*")) {
					t.Errorf("%s allows %q", where, a)
				}
			}
		}
	}
	for _, id := range tp.ofType("AWS::IAM::Policy") {
		check(id, statements(props(tp.Resources[id], "PolicyDocument", "Statement")))
	}
	for _, id := range tp.ofType("AWS::IAM::Role") {
		for _, p := range asList(props(tp.Resources[id], "Policies")) {
			check(id, statements(p.(map[string]any)["PolicyDocument"].(map[string]any)["Statement"]))
		}
	}
}

func TestEachFunctionReadsOnlyItsSecretsAndUsesTheTable(t *testing.T) {
	tp := synth(t, mainStack)
	secretIDs := secretLogicalIDs(t, tp)
	tableID := tp.ofType("AWS::DynamoDB::Table")[0]
	for _, g := range allFunctions() {
		t.Run(g.Function, func(t *testing.T) {
			_, fn := tp.function(t, g.Function)
			role := ref(props(fn, "Role"))
			var secrets []string
			var bedrock, ses, invokes bool
			table := map[string]string{} // "GetItem" or "index:Query" → its partition key patterns
			for _, st := range rolePolicies(tp, role) {
				for _, a := range st.Actions {
					if strings.Contains(a, "*") {
						t.Errorf("action %q has a wildcard", a)
					}
				}
				all := strings.Join(st.Actions, " ")
				switch {
				case strings.Contains(all, "secretsmanager:"):
					if !strings.Contains(all, "secretsmanager:GetSecretValue") || strings.Contains(all, "Put") || strings.Contains(all, "Update") {
						t.Errorf("secret actions %v, want read only", st.Actions)
					}
					for _, r := range st.Resources {
						id := ref(r)
						if tp.Resources[id].Type != "AWS::SecretsManager::Secret" {
							t.Errorf("secret statement on %s, want one secret at a time", flat(r))
						}
						for name, sid := range secretIDs {
							if sid == id {
								secrets = append(secrets, name)
							}
						}
					}
				case strings.Contains(all, "dynamodb:"):
					tableGrant(t, st, tableID, table)
				case strings.Contains(all, "bedrock:"):
					bedrock = true
					for _, r := range st.Resources {
						if s := flat(r); !strings.Contains(s, "foundation-model/meta.llama") && !strings.Contains(s, "inference-profile/*.meta.llama") {
							t.Errorf("bedrock statement on %s, want Meta Llama models only", s)
						}
					}
					if want := "bedrock:InvokeModel bedrock:InvokeModelWithResponseStream"; all != want {
						t.Errorf("bedrock actions %q, want %q", all, want)
					}
				case strings.Contains(all, "ses:"):
					ses = true // checked in detail by TestOnlyAuthSendsMailAsTheSender
				case strings.Contains(all, "lambda:"):
					invokes = true // checked in detail by TestAdminInvokesMCPJobsOnly
				default:
					t.Errorf("unexpected statement %s", flat(st.Raw))
				}
			}
			if want := sortedSet(wantSecrets[g.Function]); !equal(sortedSet(secrets), want) {
				t.Errorf("reads secrets %v, want exactly %v", sortedSet(secrets), want)
			}
			if got, want := flat(table), flat(wantTable[g.Function]); got != want {
				t.Errorf("table access =\n%s\nwant\n%s", got, want)
			}
			if bedrock != g.Streaming {
				t.Errorf("Bedrock access = %v, want it for the chat function only", bedrock)
			}
			if ses != (g.Function == "auth" || g.Function == "admin") {
				t.Errorf("SES access = %v, want it for the auth and admin functions only", ses)
			}
			if invokes != (g.Function == "admin") {
				t.Errorf("invokes a function = %v, want the admin function only", invokes)
			}
		})
	}
}

func TestBedrockOnlyWhenMetaLlamaIsOn(t *testing.T) {
	tp := synth(t, plainStack)
	for _, id := range tp.ofType("AWS::IAM::Policy") {
		if s := flat(props(tp.Resources[id], "PolicyDocument")); strings.Contains(s, "bedrock:") {
			t.Errorf("policy %s grants Bedrock without metaBedrock: %s", id, s)
		}
	}
}

func TestUsersCannotReadTheStripeKey(t *testing.T) {
	// The brief's example, spelled out: a function's policy names only its
	// own secrets.
	tp := synth(t, mainStack)
	stripe := secretLogicalIDs(t, tp)[stack.SecretStripeKey]
	_, users := tp.function(t, "users")
	for _, st := range rolePolicies(tp, ref(props(users, "Role"))) {
		for _, r := range st.Resources {
			if ref(r) == stripe {
				t.Fatalf("users may read the Stripe key: %s", flat(st.Raw))
			}
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// tableGrant checks one DynamoDB statement: allowed actions on the table,
// GSI1 or GSI2 only, each under a dynamodb:LeadingKeys condition
// (ForAllValues: StringLike) and nothing else, and records its keys by
// action into got ("index:" for GSI1, "index2:" for GSI2).
func tableGrant(t *testing.T, st statement, tableID string, got map[string]string) {
	t.Helper()
	if st.Effect != "Allow" || len(st.Resources) != 1 {
		t.Errorf("dynamodb statement %s, want Allow on one resource", flat(st.Raw))
		return
	}
	res := flat(st.Resources[0])
	index := ""
	switch res {
	case `{"Fn::GetAtt":["` + tableID + `","Arn"]}`:
	case `{"Fn::Join":["",[{"Fn::GetAtt":["` + tableID + `","Arn"]},"/index/GSI1"]]}`:
		index = "index:"
	case `{"Fn::Join":["",[{"Fn::GetAtt":["` + tableID + `","Arn"]},"/index/GSI2"]]}`:
		index = "index2:"
	default:
		t.Errorf("dynamodb statement on %s, want the table, GSI1 or GSI2", res)
	}
	cond, _ := st.Raw["Condition"].(map[string]any)
	like, _ := cond["ForAllValues:StringLike"].(map[string]any)
	keys := strs(like["dynamodb:LeadingKeys"])
	if len(cond) != 1 || len(like) != 1 || len(keys) == 0 {
		t.Errorf("dynamodb statement condition %s, want ForAllValues:StringLike on dynamodb:LeadingKeys only", flat(cond))
	}
	for _, a := range st.Actions {
		name := strings.TrimPrefix(a, "dynamodb:")
		switch {
		case !strings.HasPrefix(a, "dynamodb:") || !map[string]bool{"GetItem": true, "BatchGetItem": true, "PutItem": true, "UpdateItem": true, "DeleteItem": true, "Query": true}[name]:
			t.Errorf("dynamodb action %s, want GetItem, BatchGetItem, PutItem, UpdateItem, DeleteItem or Query", a)
		case index != "" && name != "Query":
			t.Errorf("%s on an index: only Query reads an index", a)
		}
		name = index + name
		if _, dup := got[name]; dup {
			t.Errorf("%s granted twice", name)
		}
		got[name] = strings.Join(sortedSet(keys), " ")
	}
}

// wantTable is each function's access to the table: every action with the
// partition keys it may address, and the GSI1 and GSI2 keys it may query. It is
// derived from the store methods each handler (or job) calls, written out
// here rather than taken from shared/lambdas so that a grant widened
// there fails; shared/local/devstack's TestTableAccess checks the other side
// (every call the functions make is allowed).
var wantTable = map[string]map[string]string{
	// The caller's stored user (every request), the catalogue and the
	// audit log (each change after its line); orders (refunds: the claim,
	// the buyer's ownership and activity), accounts (admin right,
	// disabled, sessions, the sign-in throttle, a confirmation link, the
	// lease that keeps an admin); GSI2: the orders and accounts listings.
	"admin": {
		"GetItem":      "AGENT#* CATALOG CSALES#* EMAIL#* MCP#* MCPSYNC ORDER#* PROMPT#* THROTTLE#* USER#*",
		"PutItem":      "ADMINRIGHTS AGENT#* AUDIT CATALOG CSALES#* LINK#* MCP#* MCPSYNC PLIST#* PROMPT#* PTOK#* RLIST#* RTOK#* USER#*",
		"UpdateItem":   "AGENT#* AUDIT CATALOG CSALES#* MCP#* ORDER#* PLIST#* PROMPT#* PTOK#* RLIST#* RTOK#* USER#*",       // CSALES#: a refunded creator's sale
		"DeleteItem":   "ADMINRIGHTS AUDIT CATALOG MCP#* PLIST#* PROMPT#* PTOK#* REVIEWS RLIST#* RTOK#* THROTTLE#* USER#*", // REVIEWS: a decided prompt leaves the queue
		"Query":        "AUDIT CATALOG MCP#* ORDER#* PLIST#* PROMPT#* REVIEWS USER#*",                                      // PLIST#: the prompt list's pages; REVIEWS: the review queue
		"BatchGetItem": "PLIST#* PROMPT#*",                                                                                 // the categories' counts, a page's prompts
		"index:Query":  "CATALOG MCPSERVERS USER#*",
		"index2:Query": "CAGENTS#* CPROMPTS#* CREATORS ORDERS USERS", // the creators list and each creator's prompts and agents
	},
	// A creator's item (USER#), their prompts (PROMPT#, listed through GSI2
	// CPROMPTS#) with their listing copies, and the review queue's item a
	// submit puts.
	"creators": {
		"GetItem":      "AGENT#* CSALES#* MCP#* PROMPT#* STRIPEACCT#* USER#* USERNAME#*", // MCP#: an agent's servers checked against the registry
		"PutItem":      "AGENT#* PLIST#* PROMPT#* PTOK#* REVIEWS STRIPEACCT#*",           // STRIPEACCT#: the payout account's lookup item
		"UpdateItem":   "AGENT#* PLIST#* PROMPT#* PTOK#* USER#*",
		"DeleteItem":   "AGENT#* PLIST#* PROMPT#* PTOK#* REVIEWS",
		"Query":        "AGENT#* CATALOG CSALES#* PROMPT#*", // CSALES#: the dashboard's ledger
		"index2:Query": "CAGENTS#* CPROMPTS#*",
	},
	// The agent marketplace: the agents on sale (GSI1 AGENTS), an agent
	// with the caller's purchase and MCP connections, its servers'
	// registry entries, the categories; a rating and the agent's
	// aggregate (AGENT#).
	// A paid agent's checkout: its order (ORDER#) and the buyer's
	// open-checkout record (USER#), as payments has them.
	"agents": {
		"GetItem":     "AGENT#* MCP#* ORDER#* USER#*",
		"PutItem":     "AGENT#* ORDER#* USER#*",
		"UpdateItem":  "AGENT#* ORDER#* USER#*",
		"DeleteItem":  "AGENT#* USER#*", // a rating taken back when the aggregate's write failed; a checkout record released
		"Query":       "CATALOG USER#*",
		"index:Query": "AGENTS",
	},
	"auth": {
		"GetItem":    "EMAIL#* GOOGLE#* LINK#* THROTTLE#* USER#* USERNAME#*",
		"PutItem":    "EMAIL#* GOOGLE#* LINK#* OAUTHSTATE#* THROTTLE#* USER#* USERNAME#*",
		"UpdateItem": "LINK#* THROTTLE#* USER#*",
		"DeleteItem": "EMAIL#* OAUTHSTATE#* THROTTLE#* USER#*",
		"Query":      "USER#*",
	},
	"users": {
		"GetItem": "USER#*",
		"Query":   "USER#*",
	},
	// Free uses count per mailbox (MAILBOX#: read and claimed). The
	// marketplace list's pages and counts (PLIST#, PTOK#), and the
	// featured list's; a rating brings the prompt's copies in line.
	"prompts": {
		"GetItem":      "MAILBOX#* PROMPT#* USER#*",
		"BatchGetItem": "PLIST#* PROMPT#* PTOK#*",
		"PutItem":      "CSALES#* PLIST#* PROMPT#* PTOK#* USER#*", // CSALES#: a creator's prompt's free uses
		"UpdateItem":   "CSALES#* MAILBOX#* PLIST#* PROMPT#* PTOK#* USER#*",
		"DeleteItem":   "PLIST#* PROMPT#* PTOK#*",
		"Query":        "CATALOG PLIST#* PROMPT#* PTOK#* USER#*", // PROMPT#: a creator's prompt's versions
		"index:Query":  "USER#*",
	},
	// The open-checkout record (USER#) and a user's pending orders (GSI1
	// USER#), to answer one session per prompt and expire the others.
	// The free uses left (MAILBOX#) decide whether checkout offers one.
	"payments": {
		"GetItem":     "AGENT#* CSALES#* MAILBOX#* ORDER#* PROMPT#* USER#*",
		"PutItem":     "CSALES#* ORDER#* PAYMENTINTENT#* USER#*",  // CSALES#: a creator's sale, counted once
		"UpdateItem":  "AGENT#* CSALES#* ORDER#* PROMPT#* USER#*", // a prompt's or an agent's purchase counts
		"DeleteItem":  "USER#*",
		"Query":       "USER#*",
		"index:Query": "USER#*",
	},
	// Fulfilment reads the buyer's free claims (MAILBOX#).
	"stripe-webhook": {
		"GetItem":     "AGENT#* CSALES#* MAILBOX#* ORDER#* PAYMENTINTENT#* PROMPT#* STRIPEACCT#* STRIPEEVENT#* USER#*",
		"PutItem":     "CSALES#* ORDER#* PAYMENTINTENT#* STRIPEEVENT#* USER#*",
		"UpdateItem":  "AGENT#* CSALES#* ORDER#* PROMPT#* USER#*", // USER#: a creator's payout status (account.updated); AGENT#: an agent's purchases
		"DeleteItem":  "USER#*",
		"index:Query": "USER#*",
	},
	"mcp": {
		"GetItem":      "MCP#* OAUTHCLIENT#* THROTTLE#* USER#*",
		"BatchGetItem": "MCP#* RLIST#* RTOK#* USER#*", // a connect's session and registry entry; the registry list's counts
		"PutItem":      "OAUTHCLIENT#* THROTTLE#* USER#*",
		"UpdateItem":   "MCP#* THROTTLE#* USER#*", // an operator client's authorization server, recorded at its first sign-in
		"DeleteItem":   "USER#*",
		"Query":        "RLIST#* RTOK#* USER#*", // RLIST#, RTOK#: the registry list's pages
		"index:Query":  "MCPSERVERS",
	},
	"chat": {
		"GetItem":      "AGENT#* MCP#* THROTTLE#* USER#*", // THROTTLE#: MCP App views' tool calls counted; AGENT#: a conversation's agent
		"BatchGetItem": "USER#*",                          // a History search's conversations
		"PutItem":      "THROTTLE#* USER#*",
		"UpdateItem":   "THROTTLE#* USER#*",
		"DeleteItem":   "USER#*", // a conversation and its messages
		"Query":        "USER#*",
		"index:Query":  "CONVLIST#*", // History's list
	},
	"mcp-jobs": {
		"GetItem":     "MCPSYNC",
		"PutItem":     "MCP#* MCPSYNC RLIST#* RTOK#*", // a probe kept in the server's history; the registry list's cards and counts
		"UpdateItem":  "MCP#* RLIST#* RTOK#*",
		"DeleteItem":  "MCP#* RLIST#* RTOK#*",
		"Query":       "MCP#*",
		"index:Query": "MCPSERVERS",
	},
}

// No function may scan, write in batches, run transactions or touch the
// table itself; every DynamoDB grant of a function's role (a BatchGetItem's
// too) carries a LeadingKeys condition.
func TestNoFunctionScansBatchWritesOrManagesTheTable(t *testing.T) {
	tp := synth(t, mainStack)
	for _, g := range allFunctions() {
		_, fn := tp.function(t, g.Function)
		for _, st := range rolePolicies(tp, ref(props(fn, "Role"))) {
			for _, a := range st.Actions {
				for _, bad := range []string{"Scan", "BatchWrite", "Transact", "PartiQL", "DescribeTable", "ConditionCheckItem", "DeleteTable", "UpdateTable", "CreateTable"} {
					if strings.HasPrefix(a, "dynamodb:") && strings.Contains(a, bad) {
						t.Errorf("%s may %s", g.Function, a)
					}
				}
			}
			if strings.Contains(strings.Join(st.Actions, " "), "dynamodb:") && !strings.Contains(flat(st.Raw["Condition"]), "dynamodb:LeadingKeys") {
				t.Errorf("%s: dynamodb grant without a LeadingKeys condition: %s", g.Function, flat(st.Raw))
			}
		}
	}
}
