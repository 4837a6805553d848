package stack_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/jsii-runtime-go"

	"aiwork/infra/stack"
	"aiwork/shared/config"
	"aiwork/shared/lambdas"
)

// The Makefile builds, and functions/ holds, exactly the functions of
// shared/lambdas; each main.go wires its group or job through one
// FromConfig-style constructor and nothing else decides its routes.
// localCommands are the folders of functions/ that are no Lambda: programs
// run on a developer's machine (make run, make bench, make test-conformance).
var localCommands = map[string]bool{"devserver": true, "bench": true, "mcpconformance": true}

func TestEveryFunctionHasAFunctionFolderAndIsBuilt(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^LAMBDAS\s*:?=\s*(.*)$`).FindSubmatch(raw)
	if m == nil {
		t.Fatal("Makefile has no LAMBDAS line")
	}
	want := lambdas.Names()
	for _, fn := range want {
		if _, err := os.Stat(filepath.Join("..", "..", "functions", fn, "main.go")); err != nil {
			t.Errorf("function %s has no functions/%s/main.go: %v", fn, fn, err)
		}
	}
	if got := sortedSet(strings.Fields(string(m[1]))); !equal(got, sortedSet(want)) {
		t.Errorf("Makefile LAMBDAS = %v, want shared/lambdas' functions %v", got, sortedSet(want))
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "functions", "*", "main.go"))
	for _, d := range dirs {
		name := filepath.Base(filepath.Dir(d))
		if _, ok := lambdas.Get(name); !ok && !localCommands[name] {
			t.Errorf("functions/%s is not in shared/lambdas (nor one of the local commands %v)", name, localCommands)
		}
	}
}

// Every Lambda of the template is one the Makefile builds (a route
// group's, a job function's or the key rotation's) or one of the CDK's
// own helpers, which ship their code in aws-cdk-lib.
func TestEveryLambdaIsBuiltByTheMakefileOrIsACDKHelper(t *testing.T) {
	for _, name := range []string{mainStack, plainStack} {
		tp := synth(t, name)
		known := map[string]bool{}
		for _, g := range allFunctions() {
			id, _ := tp.function(t, g.Function)
			known[id] = true
		}
		id, _ := tp.function(t, stack.RotationFunction)
		known[id] = true
		for _, id := range tp.ofType("AWS::Lambda::Function") {
			helper := strings.HasPrefix(id, "CustomCDKBucketDeployment") || strings.HasPrefix(id, "CustomS3AutoDeleteObjectsCustomResourceProvider")
			if !known[id] && !helper {
				t.Errorf("%s: Lambda %s is neither built by the Makefile nor a CDK helper", name, id)
			}
		}
	}
}

func TestFunctionsRunGoOnGravitonWithOnlyTheirSecretARNs(t *testing.T) {
	tp := synth(t, mainStack)
	tableID := tp.ofType("AWS::DynamoDB::Table")[0]
	secretIDs := secretLogicalIDs(t, tp)
	secretNames := map[string]bool{}
	for name := range secretIDs {
		secretNames[name] = true
	}
	// Literal settings a function may carry; everything else is a reference.
	literal := map[string]bool{"FREE_PROMPTS_PER_USER": true, "ADMIN_EMAILS": true, "META_BEDROCK": true,
		"MCP_HTTPS_ONLY": true, "MCP_REGISTRY_URL": true, "PUBLIC_URL": true,
		"MAIL_FROM": true, "REGISTER_LIMIT_PER_IP": true, "REQUIRE_EMAIL_VERIFICATION": true,
		"CHAT_MAX_CONCURRENT_STREAMS": true, "CHAT_REQUESTS_PER_MINUTE": true, "CHAT_DAILY_TOKEN_BUDGET": true}

	for _, g := range allFunctions() {
		t.Run(g.Function, func(t *testing.T) {
			_, fn := tp.function(t, g.Function)
			for key, want := range map[string]any{"Runtime": "provided.al2023", "Handler": "bootstrap"} {
				if got := props(fn, key); got != want {
					t.Errorf("%s = %v, want %v", key, got, want)
				}
			}
			if got := strs(props(fn, "Architectures")); !equal(got, []string{"arm64"}) {
				t.Errorf("Architectures = %v, want [arm64]", got)
			}
			timeout, _ := props(fn, "Timeout").(float64)
			switch {
			case g.Streaming, g.Job: // a streamed reply; a sync or probe run
				if timeout != 300 {
					t.Errorf("Timeout = %v s, want 300 (streaming %v, job %v)", timeout, g.Streaming, g.Job)
				}
			case timeout < 10 || timeout > 30: // behind a buffered integration
				t.Errorf("Timeout = %v s, want 10-30 s", timeout)
			}
			if mem, _ := props(fn, "MemorySize").(float64); mem < 256 {
				t.Errorf("MemorySize = %v", mem)
			}

			env, _ := props(fn, "Environment", "Variables").(map[string]any)
			if ref(env["TABLE_NAME"]) != tableID {
				t.Errorf("TABLE_NAME = %v, want a Ref to %s", flat(env["TABLE_NAME"]), tableID)
			}
			var gotARNs []string
			for key, v := range env {
				if secretNames[key] {
					t.Errorf("environment holds %s itself; only %s_ARN may be there", key, key)
				}
				name, isARN := strings.CutSuffix(key, "_ARN")
				switch {
				case isARN:
					if ref(v) != secretIDs[name] {
						t.Errorf("%s = %s, want a Ref to secret %s", key, flat(v), secretIDs[name])
					}
					gotARNs = append(gotARNs, name)
				case key == "TABLE_NAME":
				case key == config.MCPJobsFunctionVar && g.Function == "admin": // TestAdminInvokesMCPJobsOnly
				case literal[key]:
					if _, ok := v.(string); !ok {
						t.Errorf("%s = %s, want a literal", key, flat(v))
					}
				default:
					t.Errorf("unexpected environment variable %s = %s", key, flat(v))
				}
			}
			if want := sortedSet(wantSecrets[g.Function]); !equal(sortedSet(gotARNs), want) {
				t.Errorf("secret ARNs in the environment = %v, want %v", sortedSet(gotARNs), want)
			}
		})
	}
}

func TestFunctionSettingsFollowTheProps(t *testing.T) {
	// PUBLIC_URL follows the own domain, for the functions that build
	// links (OAuth redirect, Stripe return URLs, mail); without it they
	// take the host from x-forwarded-host.
	want := map[string]map[string]string{
		"auth":     {"ADMIN_EMAILS": testAdmin, "MAIL_FROM": testMailFrom, "REGISTER_LIMIT_PER_IP": "25", "PUBLIC_URL": "https://" + testDomain},
		"payments": {"PUBLIC_URL": "https://" + testDomain},
		"creators": {"PUBLIC_URL": "https://" + testDomain}, // Stripe's onboarding returns there
		"agents":   {"PUBLIC_URL": "https://" + testDomain}, // a paid agent's checkout returns there
		"prompts":  {"FREE_PROMPTS_PER_USER": "7", "REQUIRE_EMAIL_VERIFICATION": "false"},
		// The chat limits reach the function that enforces them and the one
		// that reports them; 0 (no limit) is passed like any value.
		"chat":  {"META_BEDROCK": "1", "CHAT_MAX_CONCURRENT_STREAMS": "5", "CHAT_REQUESTS_PER_MINUTE": "30", "CHAT_DAILY_TOKEN_BUDGET": "0"},
		"users": {"CHAT_MAX_CONCURRENT_STREAMS": "5", "CHAT_REQUESTS_PER_MINUTE": "30", "CHAT_DAILY_TOKEN_BUDGET": "0"},
		"mcp":   {"META_BEDROCK": "1"},
		// Without it mcp-jobs imports nothing and keeps the seed.
		"mcp-jobs": {"MCP_REGISTRY_URL": testRegistry},
		// Sync from registry now, and a confirmation resent by an admin.
		"admin": {"MCP_REGISTRY_URL": testRegistry, "MAIL_FROM": testMailFrom, "PUBLIC_URL": "https://" + testDomain},
	}
	main, plain := synth(t, mainStack), synth(t, plainStack)
	for fn, vars := range want {
		_, set := main.function(t, fn)
		_, unset := plain.function(t, fn)
		for key, value := range vars {
			if got := props(set, "Environment", "Variables", key); got != value {
				t.Errorf("%s %s = %v, want %q", fn, key, got, value)
			}
			if got := props(unset, "Environment", "Variables", key); got != nil {
				t.Errorf("%s %s = %v by default, want unset", fn, key, got)
			}
		}
	}
}

func TestEachFunctionWritesLogsForAMonth(t *testing.T) {
	tp := synth(t, mainStack)
	for _, g := range allFunctions() {
		_, fn := tp.function(t, g.Function)
		lg := ref(props(fn, "LoggingConfig", "LogGroup"))
		if lg == "" {
			t.Errorf("%s has no log group of its own", g.Function)
			continue
		}
		if got := props(tp.Resources[lg], "RetentionInDays"); got != float64(30) {
			t.Errorf("%s log retention = %v days, want 30", g.Function, got)
		}
	}
}

// wantSecrets is what each function's config loader reads (shared/config:
// LoadAuth, LoadUsers, LoadPrompts, LoadPayments, LoadWebhook, LoadChat, LoadCreators, LoadPayments (agents) and
// the MCP loaders), written out here rather than taken from
// shared/lambdas, so that a grant widened there fails. The MCP key
// encryption key is mcp's (it seals) and chat's (it opens a user's own key
// to call that user's tools); mcp-jobs handles public data only. Every
// API function reads the origin secret (lambdaadapter.OriginSecret), which
// it checks on every request; mcp-jobs, which has no route, does not.
var wantSecrets = map[string][]string{
	"auth":           {stack.SecretJWT, stack.SecretGoogleClientID, stack.SecretGoogleClientSecret, stack.SecretOrigin},
	"users":          {stack.SecretJWT, stack.SecretOrigin},
	"prompts":        {stack.SecretJWT, stack.SecretOrigin},
	"payments":       {stack.SecretJWT, stack.SecretStripeKey, stack.SecretOrigin},
	"stripe-webhook": {stack.SecretStripeWebhookSecret, stack.SecretStripeKey, stack.SecretOrigin}, // the key refunds duplicate payments
	"mcp":            {stack.SecretJWT, stack.SecretMCPKeyEncryptionKey, stack.SecretOpenAIKey, stack.SecretAnthropicKey, stack.SecretGeminiKey, stack.SecretOrigin},
	"chat":           {stack.SecretJWT, stack.SecretMCPKeyEncryptionKey, stack.SecretOpenAIKey, stack.SecretAnthropicKey, stack.SecretGeminiKey, stack.SecretOrigin},
	"mcp-jobs":       nil,
	"creators":       {stack.SecretJWT, stack.SecretStripeKey, stack.SecretOrigin},                                  // the Stripe key sets up creators' payouts (Connect)
	"admin":          {stack.SecretJWT, stack.SecretStripeKey, stack.SecretMCPKeyEncryptionKey, stack.SecretOrigin}, // the Stripe key refunds orders; the MCP key seals operators' OAuth client secrets
	"agents":         {stack.SecretJWT, stack.SecretStripeKey, stack.SecretOrigin},                                  // the Stripe key sells paid agents
}

// Only chat (which enforces them) and users (which reports them) get the
// chat limits; a name that is not a chat limit is refused.
func TestChatLimitsGoToChatAndUsersOnly(t *testing.T) {
	tp := synth(t, mainStack)
	for _, g := range allFunctions() {
		_, fn := tp.function(t, g.Function)
		for _, name := range []string{"CHAT_MAX_CONCURRENT_STREAMS", "CHAT_REQUESTS_PER_MINUTE", "CHAT_DAILY_TOKEN_BUDGET"} {
			got := props(fn, "Environment", "Variables", name)
			if want := g.Function == "chat" || g.Function == "users"; want != (got != nil) {
				t.Errorf("%s %s = %v, want it set: %v", g.Function, name, got, want)
			}
		}
	}
	lambdaDir, webappDir, err := dummyAssets(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, err = stack.NewAIWorkStack(awscdk.NewApp(nil), "BadLimit", &stack.Props{LambdaDir: lambdaDir, WebappDir: webappDir, ChatLimits: map[string]int{"CHAT_STREAMS": 2}})
	if err == nil || !strings.Contains(err.Error(), "CHAT_STREAMS") {
		t.Errorf("err = %v, want the unknown chat limit named", err)
	}
}

func TestMissingLambdaPackageSaysHowToBuildIt(t *testing.T) {
	dir := t.TempDir()
	_, err := stack.NewAIWorkStack(awscdk.NewApp(nil), "Missing", &stack.Props{LambdaDir: dir, WebappDir: dir})
	if err == nil || !strings.Contains(err.Error(), "make build") {
		t.Errorf("err = %v, want a hint to run make build", err)
	}
}

// secretLogicalIDs maps secret names (JWT_SECRET …) to logical ids.
func secretLogicalIDs(t *testing.T, tp *tmpl) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, id := range tp.ofType("AWS::SecretsManager::Secret") {
		name := flat(props(tp.Resources[id], "Name"))
		i := strings.LastIndex(name, "/")
		if i < 0 {
			t.Fatalf("secret %s has name %s, want <stack>/<NAME>", id, name)
		}
		out[strings.Trim(name[i+1:], `"`)] = id
	}
	return out
}

// Chat, whose streamed replies each hold an execution for minutes, is
// capped by a reservation, and the Stripe webhook has one of its own; the
// other functions share the account's unreserved pool. The defaults apply
// without context; the props change them or turn them off.
func TestReservedConcurrency(t *testing.T) {
	want := map[string]map[string]any{
		mainStack:  {"chat": float64(testChatReserved), "stripe-webhook": float64(testWebhookReserved)},
		plainStack: {"chat": float64(stack.DefaultChatReservedConcurrency), "stripe-webhook": float64(stack.DefaultWebhookReservedConcurrency)},
	}
	for name, fns := range want {
		tp := synth(t, name)
		for _, g := range allFunctions() {
			_, fn := tp.function(t, g.Function)
			if got := props(fn, "ReservedConcurrentExecutions"); got != fns[g.Function] {
				t.Errorf("%s: %s reserved concurrency = %v, want %v", name, g.Function, got, fns[g.Function])
			}
		}
	}
	if stack.DefaultChatReservedConcurrency+stack.DefaultWebhookReservedConcurrency > 1000-100 {
		t.Error("the default reservations leave less than Lambda's minimum of 100 unreserved in a default account (1000)")
	}
	lambdaDir, webappDir, err := dummyAssets(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	app := awscdk.NewApp(&awscdk.AppProps{Context: cdkContext(), Outdir: jsii.String(t.TempDir())})
	st, err := stack.NewAIWorkStack(app, "NoReservations", &stack.Props{LambdaDir: lambdaDir, WebappDir: webappDir,
		ChatReservedConcurrency: stack.NoReservation, WebhookReservedConcurrency: stack.NoReservation})
	if err != nil {
		t.Fatal(err)
	}
	functions := 0
	for _, r := range templateResources(t, st) {
		if r.Type == "AWS::Lambda::Function" && strings.HasPrefix(flat(props(r, "Description")), `"route group`) {
			functions++
			if got := props(r, "ReservedConcurrentExecutions"); got != nil {
				t.Errorf("%s reserves %v with NoReservation", flat(props(r, "Description")), got)
			}
		}
	}
	if functions != len(allAPI()) {
		t.Errorf("found %d route group functions, want %d", functions, len(allAPI()))
	}
	if _, err := stack.NewAIWorkStack(awscdk.NewApp(nil), "BadReservation", &stack.Props{LambdaDir: lambdaDir, WebappDir: webappDir, ChatReservedConcurrency: -5}); err == nil {
		t.Error("a negative reservation was accepted")
	}
}

// No Lambda links the local stand-ins and engines (shared/local/...,
// shared/testbed/...): they would grow every bootstrap and could answer in
// AWS what only a developer's machine should.
func TestNoFunctionLinksLocalPackages(t *testing.T) {
	args := []string{"list", "-deps", "-f", "{{.ImportPath}}"}
	for _, name := range lambdas.Names() {
		args = append(args, "./functions/"+name)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, group := range []string{"aiwork/shared/local", "aiwork/shared/testbed"} {
			if pkg == group || strings.HasPrefix(pkg, group+"/") {
				t.Errorf("a function links %s", pkg)
			}
		}
	}
}
