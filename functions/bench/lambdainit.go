package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"aiwork/shared/local/lambdalocal"
	"aiwork/shared/routes"
)

// The Lambda init part: each function's process start to its first response
// on lambdalocal's Runtime API (make run-lambda's), against a hello-world
// aws-lambda-go binary.
const (
	initRuns = 41 // starts of each, interleaved; the median of 21 moved by ±0.08 between runs
	// initBudget is the ratio of medians to the hello world's; chat links
	// the providers' official SDKs and the MCP SDK, so it may take more.
	initBudget     = 2.0
	chatInitBudget = 2.5
	// benchOriginSecret is ORIGIN_SECRET of the functions, sent in the
	// event as CloudFront sends it, so the event reaches the handler.
	benchOriginSecret = "bench-origin-secret"
	// initEvent is an API Gateway REST proxy event for a cheap route.
	initEvent = `{"resource":"/{proxy+}","path":"/api/v1/auth/health","httpMethod":"GET",` +
		`"headers":{"Host":"bench.local","Accept":"application/json","X-Origin-Secret":"` + benchOriginSecret + `"},` +
		`"multiValueHeaders":{"Host":["bench.local"],"Accept":["application/json"],"X-Origin-Secret":["` + benchOriginSecret + `"]},` +
		`"pathParameters":{"proxy":"api/v1/auth/health"},` +
		`"requestContext":{"resourcePath":"/{proxy+}","httpMethod":"GET","path":"/prod/api/v1/auth/health","stage":"prod",` +
		`"requestId":"bench-request","identity":{"sourceIp":"127.0.0.1","userAgent":"bench"}},` +
		`"body":null,"isBase64Encoded":false}`
	helloMain = `// Command hello is the bench's reference Lambda: aws-lambda-go and nothing else.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
)

func main() {
	lambda.Start(func(ctx context.Context, ev events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error) {
		return events.APIGatewayProxyResponse{StatusCode: 200, Body: "{\"status\":\"ok\"}"}, nil
	})
}
`
)

// lambdaInit builds amd64 copies of every function (the deployed ones are
// arm64) and the hello world with the Makefile's flags, then starts each
// against a minimal Runtime API on loopback, interleaved round by round.
func (b *bench) lambdaInit(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "bench-lambda-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := b.buildLambdas(ctx, dir); err != nil {
		return err
	}
	names := []string{"hello"}
	for _, g := range routes.Groups {
		names = append(names, g.Function)
	}
	took := map[string][]time.Duration{}
	for range initRuns {
		for _, name := range names {
			d, err := b.initOnce(ctx, filepath.Join(dir, name))
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			took[name] = append(took[name], d)
		}
	}
	ref := ms(percentile(took["hello"], 50))
	for _, name := range names[1:] {
		budget := initBudget
		if name == "chat" {
			budget = chatInitBudget
		}
		b.rows = append(b.rows, ratioRow("lambda init "+name+" (median)", ms(percentile(took[name], 50)), ref, "ms", budget))
	}
	b.note("lambda init: amd64 builds on this machine, median of %d starts each; reference a hello-world aws-lambda-go binary", initRuns)
	return nil
}

// buildLambdas writes dir/<function> for every route group and dir/hello.
func (b *bench) buildLambdas(ctx context.Context, dir string) error {
	flags := []string{"build", "-trimpath", "-ldflags", "-s -w", "-tags", "lambda.norpc"}
	env := append(os.Environ(), "GOOS=linux", "GOARCH=amd64", "CGO_ENABLED=0")
	// One go build for all: -o dir/ names each binary after its folder.
	args := append(flags, "-o", dir+string(filepath.Separator))
	for _, g := range routes.Groups {
		args = append(args, "./functions/"+g.Function)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = b.root, env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build functions: %v\n%s", err, out)
	}
	// The hello world is its own module, pinned to the functions' version of
	// aws-lambda-go and built from the module cache.
	gomod, err := os.ReadFile(filepath.Join(b.root, "functions", "go.mod"))
	if err != nil {
		return err
	}
	m := regexp.MustCompile(`(?m)^\s*(?:require\s+)?github\.com/aws/aws-lambda-go\s+(v\S+)`).FindSubmatch(gomod)
	if m == nil {
		return fmt.Errorf("aws-lambda-go not required in functions/go.mod")
	}
	src := filepath.Join(dir, "hello-src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(b.root, "functions", "go.sum"))
	if err != nil {
		return err
	}
	files := map[string]string{
		"go.mod":  "module benchhello\n\ngo 1.24\n\nrequire github.com/aws/aws-lambda-go " + string(m[1]) + "\n",
		"go.sum":  string(sum),
		"main.go": helloMain,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	cmd = exec.CommandContext(ctx, "go", append(flags, "-mod=mod", "-o", filepath.Join(dir, "hello"), ".")...)
	cmd.Dir = src
	cmd.Env = append(env, "GOWORK=off", "GOFLAGS=", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build hello world: %v\n%s", err, out)
	}
	return nil
}

// initOnce starts bin as a fresh execution environment of lambdalocal (the
// Runtime API make run-lambda serves) and answers its cold start: process
// start to the first event asked for (init), plus that event's handling.
func (b *bench) initOnce(ctx context.Context, bin string) (time.Duration, error) {
	fn := &lambdalocal.Function{
		Name: filepath.Base(bin), Binary: bin, MaxInstances: 1,
		Env: []string{
			"PATH=" + os.Getenv("PATH"),
			"AWS_ACCESS_KEY_ID=bench",
			"AWS_SECRET_ACCESS_KEY=bench",
			"TABLE_NAME=aiwork",
			"AWS_ENDPOINT_URL_DYNAMODB=" + b.dynamo,
			"JWT_SECRET=bench-jwt-secret-0123456789abcdef0123456789",
			"STRIPE_SECRET_KEY=sk_test_x",
			"STRIPE_WEBHOOK_SECRET=whsec_x",
			"ORIGIN_SECRET=" + benchOriginSecret,
			"MCP_KEY_ENCRYPTION_KEY=" + strings.Repeat("ab", 32),
		},
	}
	defer fn.Stop()
	res, err := fn.Invoke(ctx, []byte(initEvent))
	if err != nil {
		return 0, err
	}
	if res.Err != nil {
		return 0, res.Err
	}
	if !res.Cold {
		return 0, fmt.Errorf("the first invocation was not a cold start")
	}
	return res.Timing.Init + res.Timing.Took, nil
}
