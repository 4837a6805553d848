package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"aiwork/shared/routes"
)

// The Lambda init part: each function's process start to its first response
// on an emulated Runtime API, against a hello-world aws-lambda-go binary.
const (
	initRuns   = 21
	initBudget = 1.5 // ratio of medians
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
	rt, err := newRuntimeAPI()
	if err != nil {
		return err
	}
	defer rt.close()

	names := []string{"hello"}
	for _, g := range routes.Groups {
		names = append(names, g.Function)
	}
	took := map[string][]time.Duration{}
	for range initRuns {
		for _, name := range names {
			d, err := b.initOnce(ctx, rt, filepath.Join(dir, name))
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			took[name] = append(took[name], d)
		}
	}
	ref := ms(percentile(took["hello"], 50))
	for _, name := range names[1:] {
		b.rows = append(b.rows, ratioRow("lambda init "+name+" (median)", ms(percentile(took[name], 50)), ref, "ms", initBudget))
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

// initOnce starts bin and answers the time until it posted its first response.
func (b *bench) initOnce(ctx context.Context, rt *runtimeAPI, bin string) (time.Duration, error) {
	posted := rt.arm()
	cmd := exec.Command(bin)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"AWS_LAMBDA_RUNTIME_API=" + rt.addr,
		"AWS_LAMBDA_FUNCTION_NAME=" + filepath.Base(bin),
		"AWS_LAMBDA_FUNCTION_VERSION=$LATEST",
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=512",
		"_HANDLER=bootstrap",
		"TZ=:UTC",
		"AWS_REGION=us-east-1",
		"AWS_DEFAULT_REGION=us-east-1",
		"AWS_ACCESS_KEY_ID=bench",
		"AWS_SECRET_ACCESS_KEY=bench",
		"TABLE_NAME=aiwork",
		"AWS_ENDPOINT_URL_DYNAMODB=" + b.dynamo,
		"JWT_SECRET=bench-jwt-secret-0123456789abcdef0123456789",
		"STRIPE_SECRET_KEY=sk_test_x",
		"STRIPE_WEBHOOK_SECRET=whsec_x",
		"ORIGIN_SECRET=" + benchOriginSecret,
		"MCP_KEY_ENCRYPTION_KEY=" + strings.Repeat("ab", 32),
	}
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	defer func() {
		_ = cmd.Process.Kill()
		<-exited
	}()
	select {
	case r := <-posted:
		if r.kind != "response" {
			return 0, fmt.Errorf("posted %s instead of a response: %s", r.kind, r.body)
		}
		return r.at.Sub(start), nil
	case <-exited:
		return 0, fmt.Errorf("exited before answering: %s", logs.String())
	case <-time.After(10 * time.Second):
		return 0, fmt.Errorf("no response within 10s: %s", logs.String())
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// runtimeAPI emulates the Lambda Runtime API's invocation routes: one event
// per armed run, then a next that waits until the process is killed.
type runtimeAPI struct {
	addr string
	srv  *http.Server
	mu   sync.Mutex
	cur  chan posted
	seq  int
}

type posted struct {
	kind string // response or error
	at   time.Time
	body string
}

func newRuntimeAPI() (*runtimeAPI, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rt := &runtimeAPI{addr: ln.Addr().String()}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /2018-06-01/runtime/invocation/next", rt.next)
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/response", func(w http.ResponseWriter, r *http.Request) {
		rt.post(w, r, "response")
	})
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/error", func(w http.ResponseWriter, r *http.Request) {
		rt.post(w, r, "error")
	})
	mux.HandleFunc("POST /2018-06-01/runtime/init/error", func(w http.ResponseWriter, r *http.Request) {
		rt.post(w, r, "init error")
	})
	rt.srv = &http.Server{Handler: mux}
	go func() { _ = rt.srv.Serve(ln) }()
	return rt, nil
}

// arm prepares the next run: one event to hand out, one answer to await.
func (rt *runtimeAPI) arm() <-chan posted {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.cur = make(chan posted, 1)
	rt.seq++
	return rt.cur
}

func (rt *runtimeAPI) next(w http.ResponseWriter, r *http.Request) {
	rt.mu.Lock()
	ch, seq := rt.cur, rt.seq
	rt.mu.Unlock()
	if ch == nil || len(ch) > 0 {
		<-r.Context().Done() // no more events for this process
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Lambda-Runtime-Aws-Request-Id", "bench-"+strconv.Itoa(seq))
	h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(30*time.Second).UnixMilli(), 10))
	h.Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:000000000000:function:bench")
	h.Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Sampled=0")
	_, _ = io.WriteString(w, initEvent)
}

func (rt *runtimeAPI) post(w http.ResponseWriter, r *http.Request, kind string) {
	at := time.Now()
	body, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
	rt.mu.Lock()
	ch := rt.cur
	rt.mu.Unlock()
	if ch != nil {
		select {
		case ch <- posted{kind: kind, at: at, body: string(body)}:
		default:
		}
	}
	w.WriteHeader(http.StatusAccepted)
}

func (rt *runtimeAPI) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = rt.srv.Shutdown(ctx)
	_ = rt.srv.Close()
}
