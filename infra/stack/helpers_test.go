package stack_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"

	"aiwork/infra/stack"
	"aiwork/shared/lambdas"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if assetDir != "" {
		os.RemoveAll(assetDir)
	}
	os.Exit(code)
}

// tmpl is a synthesized template as JSON.
type tmpl struct {
	assertions.Template
	Resources map[string]resource
	Outputs   map[string]map[string]any
}

type resource struct {
	Type           string         `json:"Type"`
	Properties     map[string]any `json:"Properties"`
	Metadata       map[string]any `json:"Metadata"`
	DependsOn      []string       `json:"DependsOn"`
	DeletionPolicy string         `json:"DeletionPolicy"`
	UpdateReplace  string         `json:"UpdateReplacePolicy"`
}

const (
	mainStack    = "Test"
	plainStack   = "TestDefaults"
	testFreeUses = 7
	testAdmin    = "admin@example.com"
	testRegistry = "https://registry.example.com"
	// testMailFrom is MAIL_FROM: its SES identities are the address and
	// mail.example.com.
	testMailFrom      = "AIWork <No-Reply@Mail.Example.com>"
	testRegisterLimit = 25
	// testChatReserved, testWebhookReserved and testWAFRateLimit are the
	// main stack's reservations and WAF limit (the plain stack: defaults).
	testChatReserved    = 80
	testWebhookReserved = 7
	testWAFRateLimit    = 600
	// The main stack's own domain, certificate, rotation period and
	// environment (the plain stack: *.cloudfront.net, 30 days, no
	// environment).
	testDomain       = "app.example.com"
	testCertificate  = "arn:aws:acm:us-east-1:123456789012:certificate/abc"
	testRotationDays = 14
	testAccount      = "123456789012"
	testRegion       = "eu-west-1"
)

var (
	synthOnce sync.Once
	synthErr  error
	templates map[string]*tmpl
	stacks    map[string]awscdk.Stack
	assetDir  string
)

// synth builds the stacks once per test binary, on dummy assets in a
// temporary directory (dist/ and webapp/dist need not exist): one with
// every option set (an own domain and an environment included), one with
// the defaults. Both carry the cdk-nag checks, as `make synth` does.
func synth(t *testing.T, name string) *tmpl {
	t.Helper()
	synthOnce.Do(func() { synthErr = synthAll() })
	if synthErr != nil {
		t.Fatalf("synth: %v", synthErr)
	}
	return templates[name]
}

func synthAll() error {
	var err error
	if assetDir, err = os.MkdirTemp("", "infra-test-"); err != nil {
		return err
	}
	lambdaDir, webappDir, err := dummyAssets(assetDir)
	if err != nil {
		return err
	}
	templates, stacks = map[string]*tmpl{}, map[string]awscdk.Stack{}
	for name, props := range map[string]*stack.Props{
		mainStack: {LambdaDir: lambdaDir, WebappDir: webappDir, MetaBedrock: true,
			SiteDomain: testDomain, CertificateARN: testCertificate, JWTRotationDays: testRotationDays,
			StackProps:         awscdk.StackProps{Env: &awscdk.Environment{Account: jsii.String(testAccount), Region: jsii.String(testRegion)}},
			FreePromptsPerUser: testFreeUses, AdminEmails: []string{testAdmin}, MCPRegistryURL: testRegistry,
			MailFrom: testMailFrom, SkipEmailVerification: true, RegisterLimitPerIP: testRegisterLimit,
			ChatLimits:              map[string]int{"CHAT_MAX_CONCURRENT_STREAMS": 5, "CHAT_REQUESTS_PER_MINUTE": 30, "CHAT_DAILY_TOKEN_BUDGET": 0},
			ChatReservedConcurrency: testChatReserved, WebhookReservedConcurrency: testWebhookReserved, WAFRateLimit: testWAFRateLimit},
		plainStack: {LambdaDir: lambdaDir, WebappDir: webappDir},
	} {
		// One app per stack: Template_FromStack synthesizes the whole app.
		app := nagApp(filepath.Join(assetDir, name+".out"))
		st, err := stack.NewAIWorkStack(app, name, props)
		if err != nil {
			return err
		}
		stacks[name] = st
		at := assertions.Template_FromStack(st, nil)
		raw, err := json.Marshal(at.ToJSON())
		if err != nil {
			return err
		}
		tp := &tmpl{Template: at}
		if err := json.Unmarshal(raw, tp); err != nil {
			return err
		}
		templates[name] = tp
	}
	return nil
}

// nagApp is an app with cdk.json's context and the cdk-nag checks of
// infra/main.go. An unsuppressed error still only annotates here (the
// flag that turns error annotations into a failed synth is off), so that
// TestCdkNagLeavesNoUnsuppressedFinding lists every finding while the
// other tests run.
func nagApp(outdir string) awscdk.App {
	ctx := cdkContext()
	(*ctx)["@aws-cdk/core:annotationsInValidationReport"] = false
	app := awscdk.NewApp(&awscdk.AppProps{Context: ctx, Outdir: jsii.String(outdir)})
	stack.AddNagChecks(app)
	return app
}

// templateResources synthesizes a stack of its own app (a test's variant)
// and answers its resources.
func templateResources(t *testing.T, st awscdk.Stack) map[string]resource {
	t.Helper()
	raw, err := json.Marshal(assertions.Template_FromStack(st, nil).ToJSON())
	if err != nil {
		t.Fatal(err)
	}
	var tp tmpl
	if err := json.Unmarshal(raw, &tp); err != nil {
		t.Fatal(err)
	}
	return tp.Resources
}

// dummyAssets writes a zip per function (route groups, job functions and
// the key rotation) and a one-page web app.
func dummyAssets(dir string) (lambdaDir, webappDir string, err error) {
	lambdaDir, webappDir = filepath.Join(dir, "lambda"), filepath.Join(dir, "webapp")
	for _, d := range []string{lambdaDir, filepath.Join(webappDir, "assets")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", "", err
		}
	}
	for _, fn := range lambdas.Names() {
		if err := os.WriteFile(filepath.Join(lambdaDir, fn+".zip"), []byte("dummy "+fn), 0o644); err != nil {
			return "", "", err
		}
	}
	// With the build's precompressed copies, which the deploy leaves out.
	files := map[string]string{"index.html": "<!doctype html><title>t</title>", "assets/index-abc.js": "console.log(1)",
		"index.html.br": "br", "assets/index-abc.js.gz": "gz"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(webappDir, name), []byte(body), 0o644); err != nil {
			return "", "", err
		}
	}
	return lambdaDir, webappDir, nil
}

// lambdaFn is one Lambda of the route table: a route group's or a job
// function's.
type lambdaFn struct {
	Function  string
	Streaming bool // the chat group
	Job       bool // no API route, run by schedules
}

// allFunctions lists the functions of shared/lambdas that the API or a
// schedule invokes.
func allFunctions() []lambdaFn {
	var out []lambdaFn
	for _, f := range lambdas.Served() {
		out = append(out, lambdaFn{Function: f.Name, Streaming: f.Streaming, Job: !f.API()})
	}
	return out
}

// cdkContext is the context (feature flags) of the repository's cdk.json,
// so the tests synthesize what `cdk synth` does.
func cdkContext() *map[string]any {
	raw, err := os.ReadFile(filepath.Join("..", "..", "cdk.json"))
	if err != nil {
		panic(err)
	}
	var c struct {
		Context map[string]any `json:"context"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		panic(err)
	}
	return &c.Context
}

// ofType lists the logical ids of resources of one type, sorted.
func (tp *tmpl) ofType(typ string) []string {
	var ids []string
	for id, r := range tp.Resources {
		if r.Type == typ {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// one answers the single resource of typ whose logical id starts with
// the construct id prefix (CDK appends an 8-digit hash).
func (tp *tmpl) one(t *testing.T, typ, constructID string) (string, resource) {
	t.Helper()
	re := regexp.MustCompile("^" + regexp.QuoteMeta(constructID) + "[0-9A-F]{8}$")
	var found []string
	for _, id := range tp.ofType(typ) {
		if re.MatchString(id) {
			found = append(found, id)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s %s*: found %v, want one", typ, constructID, found)
	}
	return found[0], tp.Resources[found[0]]
}

// function answers the logical id and resource of a function's Lambda.
func (tp *tmpl) function(t *testing.T, fn string) (string, resource) {
	t.Helper()
	return tp.one(t, "AWS::Lambda::Function", stack.FunctionID(fn))
}

// check runs an assertions call (Template.HasResourceProperties and the
// like panic with CDK's explanation when they fail) as a test error, so a
// failed match does not end the test binary.
func check(t *testing.T, what string, assert func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: %v", what, r)
		}
	}()
	assert()
}

// getAtt is {"Fn::GetAtt": [logicalID, attr]}, as a template pattern.
func getAtt(logicalID, attr string) map[string]any {
	return map[string]any{"Fn::GetAtt": []any{logicalID, attr}}
}

// ref answers the logical id a {"Ref": id} or {"Fn::GetAtt": [id, …]} names.
func ref(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	if r, ok := m["Ref"].(string); ok {
		return r
	}
	if ga, ok := m["Fn::GetAtt"].([]any); ok && len(ga) > 0 {
		s, _ := ga[0].(string)
		return s
	}
	return ""
}

// refsIn lists every logical id referenced anywhere inside v.
func refsIn(v any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if r := ref(x); r != "" {
				out = append(out, r)
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	return out
}

// flat renders v as compact JSON, for "contains" checks on intrinsics.
func flat(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// strs turns a JSON string-or-list into a list.
func strs(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			out = append(out, fmt.Sprint(e))
		}
		return out
	}
	return nil
}

func props(r resource, path ...string) any {
	var v any = r.Properties
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func sortedSet(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

func equal(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// allAPI lists the functions that serve API routes.
func allAPI() []lambdaFn {
	var out []lambdaFn
	for _, f := range allFunctions() {
		if !f.Job {
			out = append(out, f)
		}
	}
	return out
}
