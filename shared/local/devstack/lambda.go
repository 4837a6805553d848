package devstack

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"aiwork/shared/api/paymentsapi"
	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/lambdas"
	"aiwork/shared/local/lambdalocal"
	"aiwork/shared/local/localcheckout"
	"aiwork/shared/local/outbox"
	"aiwork/shared/local/stripestandin"
	"aiwork/shared/payments"
	"aiwork/shared/random"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// LambdaOptions configure the product served by the function binaries
// (make run-lambda).
type LambdaOptions struct {
	// FunctionsDir holds one binary per function, named after it (the
	// folders of functions/), built for this machine.
	FunctionsDir string
	// StaticDir is the built web app ("" : none).
	StaticDir string
	// MailDir is the local outbox, which the SES stand-in writes to.
	MailDir string
	// PublicURL is where the browser reaches the product.
	PublicURL string
	// MaxInstances caps each function's processes (default 3).
	MaxInstances int
	// FunctionLog receives the functions' output (nil: dropped).
	FunctionLog io.Writer
	Log         *slog.Logger
}

// LambdaStack is the product served through lambdalocal: every route group
// by its function binary behind the local API Gateway, the jobs invoked
// on timers as EventBridge would, and the stand-ins of the services with
// no local equivalent.
type LambdaStack struct {
	Handler http.Handler
	Gateway *lambdalocal.Gateway
	stops   []func()
}

// Stop ends every process and stand-in the stack started.
func (s *LambdaStack) Stop() {
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
}

// StartLambda serves the product from the function binaries. The table must
// exist and be seeded (Prepare); AWS_ENDPOINT_URL_DYNAMODB names the local
// DynamoDB, which the functions reach as they reach DynamoDB in AWS.
func StartLambda(ctx context.Context, st *store.Store, cfg Config, opts LambdaOptions) (stack *LambdaStack, err error) {
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	stack = &LambdaStack{}
	defer func() {
		if err != nil {
			stack.Stop()
		}
	}()

	box, err := outbox.New(opts.MailDir, cfg.Auth.MailFrom)
	if err != nil {
		return stack, err
	}
	secrets := &lambdalocal.SecretsManager{}
	smURL, stop, err := serveLocal(secrets)
	if err != nil {
		return stack, err
	}
	stack.stops = append(stack.stops, stop)
	sesURL, stop, err := serveLocal(&lambdalocal.SES{Deliver: box.SendRaw})
	if err != nil {
		return stack, err
	}
	stack.stops = append(stack.stops, stop)

	// Lambda's Invoke API: the admin function runs Probe now and Sync in
	// mcp-jobs through it. The processes start only once functions is full.
	functions := map[string]*lambdalocal.Function{}
	lambdaURL, stop, err := serveLocal(&lambdalocal.InvokeAPI{Functions: functions})
	if err != nil {
		return stack, err
	}
	stack.stops = append(stack.stops, stop)

	originSecret := random.Hex(32)
	set := map[string]string{
		"AWS_ENDPOINT_URL_LAMBDA":          lambdaURL,
		"TABLE_NAME":                       cfg.Auth.Store.TableName,
		"AWS_ENDPOINT_URL_SECRETS_MANAGER": smURL,
		"AWS_ENDPOINT_URL_SESV2":           sesURL,
		"PUBLIC_URL":                       opts.PublicURL,
		"MAIL_FROM":                        "AIWork <no-reply@aiwork.local>",
		"AWS_ACCESS_KEY_ID":                "local",
		"AWS_SECRET_ACCESS_KEY":            "local",
	}
	for _, f := range lambdas.Served() {
		for variable, name := range f.Invokes {
			set[variable] = name // as the stack names the function it invokes
		}
	}
	environ := os.Environ()
	localCheckout := paymentsapi.NewProvider(st, cfg.Payments).Name() == "local"
	if localCheckout {
		// The payments and stripe-webhook functions need a Stripe key in
		// Lambda and call Stripe's API; without one they get a key for
		// the Stripe API stand-in, whose sessions are the local checkout's.
		stripeURL, stop, err := serveLocal(stripestandin.New(payments.NewLocal(st)))
		if err != nil {
			return stack, err
		}
		stack.stops = append(stack.stops, stop)
		set["STRIPE_SECRET_KEY"] = stripestandin.Key
		set["STRIPE_API_URL"] = stripeURL
		environ = slices.DeleteFunc(environ, func(kv string) bool { return strings.HasPrefix(kv, "STRIPE_API_URL=") })
	}
	env := lambdaEnvironment(environ, secrets, originSecret, set)

	// Every function the API or a schedule invokes, sized as the stack
	// sizes it (jwt-rotation is Secrets Manager's, not run here).
	var jobFunction string
	for _, f := range lambdas.Served() {
		if len(f.Jobs) > 0 {
			jobFunction = f.Name
		}
		bin := filepath.Join(opts.FunctionsDir, f.Name)
		if _, err := os.Stat(bin); err != nil {
			return stack, fmt.Errorf("function %s: %w (make run-lambda builds every function into %s)", f.Name, err, opts.FunctionsDir)
		}
		fn := &lambdalocal.Function{Name: f.Name, Binary: bin, Env: env, MaxInstances: cmp.Or(opts.MaxInstances, 3),
			Timeout: f.Timeout, MemoryMB: f.MemoryMB, Log: opts.FunctionLog}
		functions[f.Name] = fn
		stack.stops = append(stack.stops, fn.Stop)
	}

	gw := &lambdalocal.Gateway{Functions: functions, OriginSecret: originSecret, Methods: routes.ExactPathMethods, Log: log}
	if opts.StaticDir != "" {
		gw.Site = httpx.Site(opts.StaticDir, cfg.Auth.PublicURL)
	}
	stack.Gateway = gw

	mux := http.NewServeMux()
	if localCheckout {
		// The local test checkout stands in for Stripe's hosted page; its
		// signed event goes through the gateway to the webhook function.
		mux.Handle(payments.LocalCheckoutPath, localcheckout.New(st, gw, cfg.Webhook.WebhookSecret))
	}
	mux.Handle(outbox.Path, box.Handler())
	mux.Handle(outbox.Path+"/", box.Handler())
	mux.Handle("/dev/lambda", gw.StatsHandler())
	mux.Handle("/", gw)
	stack.Handler = mux

	jobs := functions[jobFunction]
	stopMCP, err := StartMCPWith(ctx, st, log, func(ctx context.Context, job string) error {
		return invokeJob(ctx, jobs, job)
	})
	if err != nil {
		return stack, err
	}
	stack.stops = append(stack.stops, stopMCP)
	return stack, nil
}

// invokeJob invokes fn with {"job": name}, as an EventBridge rule does.
func invokeJob(ctx context.Context, fn *lambdalocal.Function, name string) error {
	payload, _ := json.Marshal(map[string]string{"job": name})
	res, err := fn.Invoke(ctx, payload)
	if err != nil {
		return err
	}
	if res.Err != nil {
		return res.Err
	}
	return nil
}

// lambdaEnvironment is every function's environment: this process's
// (the product's settings, as make run reads them) without the secrets'
// values, which move into the Secrets Manager stand-in and reach the
// functions as NAME_ARN, as in AWS; then set (values already set in this
// process's environment win, except the secrets').
func lambdaEnvironment(environ []string, secrets *lambdalocal.SecretsManager, originSecret string, set map[string]string) []string {
	values := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		values[k] = v
	}
	values[config.OriginSecretName] = originSecret
	var env []string
	for k, v := range set {
		if cur, ok := values[k]; !ok || cur == "" {
			values[k] = v
		}
	}
	for _, name := range config.SecretNames {
		v := strings.TrimSpace(values[name])
		delete(values, name)
		delete(values, name+"_ARN")
		if v != "" {
			values[name+"_ARN"] = secrets.Put(name, v)
		}
	}
	for k, v := range values {
		if strings.HasPrefix(k, "AWS_LAMBDA_") || k == "_HANDLER" {
			continue // the runtime's own
		}
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env
}

// serveLocal serves h on a loopback port.
func serveLocal(h http.Handler) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Warn("local stand-in stopped", "err", err)
		}
	}()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}
