package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"aiwork/shared/config"
	"aiwork/shared/lambdas"
)

// The cost part (DESIGN §10, cost): the product's monthly AWS bill, idle
// and at 1,000, 10,000 and 100,000 monthly active users, priced from what
// the capacity part measured (each action's table units, requests,
// handler time and answer bytes) under a stated usage model
// (productUsage) and list prices (cost_prices.go). It writes
// docs/cost.md.

// costUsers are the bill's columns: monthly active users.
var costUsers = []float64{0, 1_000, 10_000, 100_000}

// costServices are the bill's lines, in order.
var costServices = []string{"Lambda", "API Gateway", "DynamoDB", "CloudFront", "Secrets Manager", "WAF", "KMS"}

const (
	gib = 1 << 30
	// probeRunsPerMonth: mcp-probe runs every 15 minutes.
	probeRunsPerMonth = 30 * 24 * 4
	// probeRunSeconds is a probe run's time in AWS, where each server's
	// handshake crosses the internet (here none of the seeded servers is
	// reachable, so a run ends at once).
	probeRunSeconds = 5.0
	// catalogueBytes is what the table holds with no user: the sample
	// catalogue, its listing and the registry (an estimate: about a
	// megabyte).
	catalogueBytes = 1 << 20
	// keptMessageExtraBytes is what a kept message stores beside its
	// reply: the user's message and the conversation's growth.
	keptMessageExtraBytes = 1 << 10
)

// usageAction is one action of the usage model: how often a monthly
// active user does it in a month.
type usageAction struct {
	key     string // the capacity part's action
	perUser float64
	what    string
}

// usageModel is what a monthly active user does in a month.
type usageModel struct {
	actions []usageAction
	// appLoads, each staticRequests CloudFront requests sending
	// staticBytes (the app's HTML, scripts, styles and images, partly from
	// the browser's cache).
	appLoads, staticRequests, staticBytes float64
	// coldStartEvery is a function's invocations per cold start (each
	// reads the function's secrets from Secrets Manager).
	coldStartEvery float64
	// storageMonths is how many months of kept conversations the table
	// holds.
	storageMonths float64
}

// productUsage is the usage model docs/cost.md states.
var productUsage = usageModel{
	actions: []usageAction{
		{"me", 8, "app loads (each checks the session)"},
		{"signin", 2, "sign-ins"},
		{"marketplace", 12, "marketplace pages"},
		{"registry", 4, "registry pages"},
		{"history", 8, "History pages"},
		{"kept", 60, "chat messages kept with their conversation, each the measured reply (long: the bill leans high)"},
		{"tool", 20, "tool rounds (a model calling an MCP tool in a message)"},
		{"approval", 5, "approvals (of the tool rounds, those that asked first)"},
		{"connect", 1, "MCP server connects"},
		{"checkout", 0.2, "checkouts (one user in five buys a prompt)"},
	},
	appLoads: 8, staticRequests: 12, staticBytes: 200 << 10,
	coldStartEvery: 50, storageMonths: 12,
}

// unitCost is what one action, or a month of them, costs in the units AWS
// bills.
type unitCost struct {
	read, write float64 // DynamoDB request units
	requests    float64 // API requests (API Gateway, WAF, CloudFront)
	invocations float64 // Lambda invocations
	gbSeconds   float64 // Lambda duration × memory
	bytesOut    float64 // answer bytes (CloudFront out)
	storedBytes float64 // bytes it adds to the table
	secretReads float64 // Secrets Manager calls (cold starts' reads)
}

func (u unitCost) plus(v unitCost) unitCost {
	return unitCost{read: u.read + v.read, write: u.write + v.write, requests: u.requests + v.requests,
		invocations: u.invocations + v.invocations, gbSeconds: u.gbSeconds + v.gbSeconds, bytesOut: u.bytesOut + v.bytesOut,
		storedBytes: u.storedBytes + v.storedBytes, secretReads: u.secretReads + v.secretReads}
}

func (u unitCost) times(f float64) unitCost {
	return unitCost{read: u.read * f, write: u.write * f, requests: u.requests * f, invocations: u.invocations * f,
		gbSeconds: u.gbSeconds * f, bytesOut: u.bytesOut * f, storedBytes: u.storedBytes * f, secretReads: u.secretReads * f}
}

// fixedLoad is what runs and is kept whether or not anyone uses the
// product.
type fixedLoad struct {
	secrets, wafACLs, wafRules, kmsKeys float64
	// jobs is a month of the scheduled jobs.
	jobs unitCost
	// baseBytes is what the table holds with no user.
	baseBytes float64
}

// bill is a month's dollars by service.
type bill map[string]float64

func (b bill) total() float64 {
	t := 0.0
	for _, s := range costServices {
		t += b[s]
	}
	return t
}

// monthlyBill prices a month of users monthly active users doing u, with
// units[key] each action's cost, beside f.
func monthlyBill(units map[string]unitCost, u usageModel, f fixedLoad, users float64) bill {
	var used unitCost
	for _, a := range u.actions {
		used = used.plus(units[a.key].times(a.perUser * users))
	}
	all := used.plus(f.jobs)
	staticRequests := u.appLoads * u.staticRequests * users
	edgeRequests := used.requests + staticRequests
	stored := (f.baseBytes + used.storedBytes*u.storageMonths) / gib
	return bill{
		"Lambda":      all.gbSeconds*priceLambdaGBSecond + all.invocations/1e6*priceLambdaMillionCalls,
		"API Gateway": used.requests / 1e6 * priceAPIGatewayMillion,
		"DynamoDB": all.write/1e6*priceDynamoMillionWrites + all.read/1e6*priceDynamoMillionReads +
			stored*(priceDynamoGBMonth+priceDynamoPITRGBMonth),
		"CloudFront": (used.bytesOut+u.appLoads*u.staticBytes*users)/gib*priceCloudFrontGB +
			edgeRequests/1e4*priceCloudFront10kRequests + edgeRequests/1e6*priceCloudFrontFunctionMillion,
		"Secrets Manager": f.secrets*priceSecretMonth + all.secretReads/1e4*priceSecrets10kCalls,
		"WAF":             f.wafACLs*priceWAFACLMonth + f.wafRules*priceWAFRuleMonth + used.requests/1e6*priceWAFMillion,
		// The secrets are sealed with Secrets Manager's AWS managed key
		// (no monthly fee); each read decrypts with it.
		"KMS": f.kmsKeys*priceKMSKeyMonth + all.secretReads/1e4*priceKMS10kRequests,
	}
}

// unitOf is a measured action in billed units: each function's handler
// time at its memory size (shared/lambdas), its cold starts' secret reads.
func unitOf(c actionCost, coldStartEvery float64) unitCost {
	u := unitCost{read: c.read, write: c.write, bytesOut: float64(c.bytesOut)}
	for name, n := range c.invocations {
		fn, ok := lambdaNamed(name)
		if !ok {
			continue
		}
		u.requests += float64(n)
		u.invocations += float64(n)
		u.gbSeconds += c.busy[name].Seconds() * float64(fn.MemoryMB) / 1024
		u.secretReads += float64(n) / coldStartEvery * float64(secretsRead(fn))
	}
	return u
}

func lambdaNamed(name string) (lambdas.Function, bool) {
	for _, f := range lambdas.All {
		if f.Name == name {
			return f, true
		}
	}
	return lambdas.Function{}, false
}

// secretsRead is how many secrets fn reads when it starts: its own and,
// for an API function, the origin secret.
func secretsRead(fn lambdas.Function) int {
	n := len(fn.Secrets)
	if fn.API() {
		n++
	}
	return n
}

// productFixed is the stack's fixed load (infra/stack): one secret per
// name, one regional web ACL with one rule, no customer managed key, and
// the probe (measured: probe) every 15 minutes.
func productFixed(probe actionCost) fixedLoad {
	jobs := unitCost{}
	if fn, ok := lambdaNamed("mcp-jobs"); ok {
		jobs = unitCost{read: probe.read, write: probe.write, invocations: 1,
			gbSeconds: probeRunSeconds * float64(fn.MemoryMB) / 1024}.times(probeRunsPerMonth)
	}
	return fixedLoad{secrets: float64(len(config.SecretNames)), wafACLs: 1, wafRules: 1, kmsKeys: 0, jobs: jobs, baseBytes: catalogueBytes}
}

func (b *bench) cost(ctx context.Context) error {
	f := b.capacityFigures
	if f == nil {
		return errors.New("needs the capacity part's figures (run it too); docs/cost.md is left as it was")
	}
	units := map[string]unitCost{}
	for _, r := range f.rows {
		u := unitOf(r.cost, productUsage.coldStartEvery)
		if r.key == "kept" {
			u.storedBytes = float64(f.keptBytes + keptMessageExtraBytes)
		}
		units[r.key] = u
	}
	for _, a := range productUsage.actions {
		if _, ok := units[a.key]; !ok {
			return fmt.Errorf("the capacity part did not measure %q", a.key)
		}
	}
	probe, _ := f.get("probe")
	fixed := productFixed(probe.cost)
	bills := make([]bill, len(costUsers))
	for i, n := range costUsers {
		bills[i] = monthlyBill(units, productUsage, fixed, n)
	}
	doc := costDoc(f, units, fixed, bills)
	path := filepath.Join(b.root, "docs", "cost.md")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		return err
	}
	var totals []string
	for i, n := range costUsers {
		totals = append(totals, fmt.Sprintf("%s %s", usersLabel(n), dollars(bills[i].total())))
	}
	b.note("cost: a month in AWS (list prices as of %s, us-east-1): %s; written to docs/cost.md", pricesAsOf, strings.Join(totals, ", "))
	return nil
}

func usersLabel(n float64) string {
	if n == 0 {
		return "idle"
	}
	return grouped(int(n)) + " users"
}

func dollars(v float64) string {
	switch {
	case v >= 100:
		return "$" + grouped(int(v+0.5))
	case v >= 1:
		return fmt.Sprintf("$%.2f", v)
	default:
		return fmt.Sprintf("$%.3f", v)
	}
}

// costDoc is docs/cost.md.
func costDoc(f *capacityFigures, units map[string]unitCost, fixed fixedLoad, bills []bill) string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format+"\n", args...) }
	p("# The monthly bill")
	p("")
	p("<!-- Generated by `make bench` (functions/bench/cost.go) from the run's measurements: do not edit.")
	p("     Regenerate with `make bench`, or only what it needs:")
	p("     `.bin/bench -skip sizes,api,relay,tools,elicitation,connect,init,lcp,mcpapp,chatlength,lighthouse,scale`. -->")
	p("")
	p("What the product costs to run in AWS (us-east-1) in a month, idle and at 1,000, 10,000 and 100,000")
	p("monthly active users doing what the usage model below says, priced from what `make bench` measured")
	p("(each action's DynamoDB capacity, API requests, handler time and answer bytes; docs/benchmarks.md).")
	p("**List prices as of %s, us-east-1**: the bench runs offline and does not fetch them (they are", pricesAsOf)
	p("constants in `functions/bench/cost_prices.go`, each beside the page it comes from): check them again before")
	p("relying on the bill. No free tier is taken off.")
	p("")
	header := "| service |"
	rule := "|---|"
	for _, n := range costUsers {
		header += " " + usersLabel(n) + " |"
		rule += "---:|"
	}
	p("%s", header)
	p("%s", rule)
	for _, s := range costServices {
		line := "| " + s + " |"
		for _, b := range bills {
			line += " " + dollars(b[s]) + " |"
		}
		p("%s", line)
	}
	line := "| **total** |"
	for _, b := range bills {
		line += " **" + dollars(b.total()) + "** |"
	}
	p("%s", line)
	p("")
	idle := bills[0]
	p("## Idle: what costs money when nobody uses the product")
	p("")
	p("- Secrets Manager: %.0f secrets × $%.2f a month = %s, whether or not anything reads them.", fixed.secrets, priceSecretMonth, dollars(fixed.secrets*priceSecretMonth))
	p("- WAF: the API's web ACL ($%.2f) and its one rate-based rule ($%.2f) = %s.", priceWAFACLMonth, priceWAFRuleMonth, dollars(fixed.wafACLs*priceWAFACLMonth+fixed.wafRules*priceWAFRuleMonth))
	p("- The registry's health probe (mcp-probe) every 15 minutes: %s runs a month of about %.0f s at the mcp-jobs function's memory (Lambda %s), each reading the registry and writing every server's health (%.1f RCU and %.1f WCU a run, measured: DynamoDB %s with the storage).",
		grouped(probeRunsPerMonth), probeRunSeconds, dollars(idle["Lambda"]), fixed.jobs.read/probeRunsPerMonth, fixed.jobs.write/probeRunsPerMonth, dollars(idle["DynamoDB"]))
	p("- DynamoDB storage of the catalogues with point-in-time recovery (about %.0f MB): a fraction of a cent.", fixed.baseBytes/(1<<20))
	p("- KMS: no customer managed key (the secrets use Secrets Manager's AWS managed key, the table and buckets AWS owned keys): $0.")
	p("- Free when idle: Lambda, API Gateway, CloudFront and DynamoDB requests are paid per use.")
	p("")
	p("## Usage model (one monthly active user, one month)")
	p("")
	p("| action | per user a month | what |")
	p("|---|---:|---|")
	for _, a := range productUsage.actions {
		p("| %s | %s | %s |", a.key, strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.2f", a.perUser), "0"), ".0"), a.what)
	}
	p("")
	p("Besides: %.0f app loads of %.0f CloudFront requests and %s KB each (the app's files, partly from the browser's cache);",
		productUsage.appLoads, productUsage.staticRequests, num(productUsage.staticBytes/1024))
	p("a function instance starts cold once every %.0f invocations and reads its secrets then; the table holds %.0f months of",
		productUsage.coldStartEvery, productUsage.storageMonths)
	p("kept conversations (each kept message about %.1f KB: its reply as measured and %d KB beside it).", float64(f.keptBytes+keptMessageExtraBytes)/1024, keptMessageExtraBytes>>10)
	p("")
	top := bills[len(bills)-1]
	users := costUsers[len(costUsers)-1]
	stored, keptWrites := 0.0, 0.0
	for _, a := range productUsage.actions {
		stored += units[a.key].storedBytes * a.perUser * users * productUsage.storageMonths
		if a.key == "kept" {
			keptWrites = units[a.key].write * a.perUser * users / 1e6 * priceDynamoMillionWrites
		}
	}
	storage := (fixed.baseBytes + stored) / gib * (priceDynamoGBMonth + priceDynamoPITRGBMonth)
	p("Where the money goes: at %s Lambda is %.0f%% of the bill, nearly all of it the chat function billed while", usersLabel(users), 100*top["Lambda"]/top.total())
	p("the model streams its reply (%s-token replies at %d tokens a second: %.0f s at 1 GB each). DynamoDB is %.0f%%: %s",
		grouped(replyTokens), replyTokensPerSecond, float64(replyTokens)/replyTokensPerSecond, 100*top["DynamoDB"]/top.total(), dollars(storage))
	p("of it storage (%.0f GB of kept conversations with point-in-time recovery), %s the kept replies' writes, each save", stored/gib, dollars(keptWrites))
	p("appending only what came since the last (docs/benchmarks.md, the kept reply's row).")
	p("")
	p("## Measured units per action (this run)")
	p("")
	p("| action | RCU | WCU | API requests | Lambda GB-s | bytes out |")
	p("|---|---:|---:|---:|---:|---:|")
	for _, r := range f.rows {
		u := units[r.key]
		gbs := fmt.Sprintf("%.4f", u.gbSeconds)
		if r.key == "probe" {
			jobs, _ := lambdaNamed("mcp-jobs")
			gbs = fmt.Sprintf("%.1f (%.0f s assumed)", probeRunSeconds*float64(jobs.MemoryMB)/1024, probeRunSeconds)
		}
		p("| %s | %.1f | %.1f | %.0f | %s | %.0f |", r.name, u.read, u.write, u.requests, gbs, u.bytesOut)
	}
	p("")
	p("Lambda GB-s are each function's handler time in the bench (its own process, the local table engine) at the")
	p("function's memory size (shared/lambdas). A chat message's is its whole stream: the model's %s tokens at %d a", grouped(replyTokens), replyTokensPerSecond)
	p("second, during which the chat function is billed. The checkout includes the local test checkout's own session")
	p("(Stripe's part in AWS) and the webhook.")
	p("")
	p("## Prices (us-east-1, on demand, as of %s)", pricesAsOf)
	p("")
	p("| service | price | page |")
	p("|---|---|---|")
	p("| Lambda (Arm) | $%.10f per GB-second, $%.2f per million requests | https://aws.amazon.com/lambda/pricing/ |", priceLambdaGBSecond, priceLambdaMillionCalls)
	p("| API Gateway (REST) | $%.2f per million requests (a streamed chat reply counted as one: check the streaming terms) | https://aws.amazon.com/api-gateway/pricing/ |", priceAPIGatewayMillion)
	p("| DynamoDB on-demand | $%.3f per million writes, $%.3f per million reads, $%.2f per GB-month, $%.2f per GB-month of point-in-time recovery | https://aws.amazon.com/dynamodb/pricing/on-demand/ |",
		priceDynamoMillionWrites, priceDynamoMillionReads, priceDynamoGBMonth, priceDynamoPITRGBMonth)
	p("| CloudFront | $%.3f per GB out, $%.4f per 10,000 HTTPS requests, $%.2f per million function invocations | https://aws.amazon.com/cloudfront/pricing/ |",
		priceCloudFrontGB, priceCloudFront10kRequests, priceCloudFrontFunctionMillion)
	p("| Secrets Manager | $%.2f per secret a month, $%.2f per 10,000 calls | https://aws.amazon.com/secrets-manager/pricing/ |", priceSecretMonth, priceSecrets10kCalls)
	p("| WAF | $%.2f per web ACL a month, $%.2f per rule a month, $%.2f per million requests | https://aws.amazon.com/waf/pricing/ |", priceWAFACLMonth, priceWAFRuleMonth, priceWAFMillion)
	p("| KMS | $%.2f per customer managed key a month, $%.2f per 10,000 requests | https://aws.amazon.com/kms/pricing/ |", priceKMSKeyMonth, priceKMS10kRequests)
	p("")
	p("## Not in the bill")
	p("")
	p("- Index writes: the local engine reports a write's units on the table only; DynamoDB also charges every index the")
	p("  item is in (prompts and registry entries are in GSI1, orders and accounts in GSI2), so those writes cost more.")
	p("- Cold starts' own time (a few milliseconds each: the init rows of docs/benchmarks.md), CloudWatch Logs (the")
	p("  functions' and the API's logs, priced per GB ingested), S3 (the site's files, the access logs), Route 53, SES mail.")
	p("- The model providers' bills (OpenAI, Anthropic, Gemini: per token, paid to them), Stripe's fees, and the free tiers.")
	return w.String()
}
