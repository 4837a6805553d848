package stack_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"aiwork/infra/stack"
	"aiwork/shared/local/lambdalocal"
	"aiwork/shared/routes"
)

// apiRoutes walks the AWS::ApiGateway::Resource tree and answers
// "METHOD /path" → the logical id of the Lambda its integration invokes,
// plus the integration of each.
type apiRoute struct {
	Function    string // logical id
	Integration map[string]any
}

func apiRoutes(t *testing.T, tp *tmpl) map[string]apiRoute {
	t.Helper()
	paths := map[string]string{} // resource logical id → path
	var pathOf func(id string, depth int) string
	pathOf = func(id string, depth int) string {
		if p, ok := paths[id]; ok {
			return p
		}
		r, ok := tp.Resources[id]
		if !ok || r.Type != "AWS::ApiGateway::Resource" || depth > 20 {
			return "" // the API's root resource
		}
		p := pathOf(ref(props(r, "ParentId")), depth+1) + "/" + props(r, "PathPart").(string)
		paths[id] = p
		return p
	}
	seen := map[string]string{}
	for _, id := range tp.ofType("AWS::ApiGateway::Resource") {
		p := pathOf(id, 0)
		if other, dup := seen[p]; dup {
			t.Errorf("resource %s created twice (%s and %s)", p, other, id)
		}
		seen[p] = id
	}
	out := map[string]apiRoute{}
	for _, id := range tp.ofType("AWS::ApiGateway::Method") {
		r := tp.Resources[id]
		path := "/"
		if rid := ref(props(r, "ResourceId")); tp.Resources[rid].Type == "AWS::ApiGateway::Resource" {
			path = pathOf(rid, 0)
		}
		integ, _ := props(r, "Integration").(map[string]any)
		fn := ""
		for _, dep := range refsIn(integ["Uri"]) {
			if tp.Resources[dep].Type == "AWS::Lambda::Function" {
				fn = dep
			}
		}
		key := props(r, "HttpMethod").(string) + " " + path
		if _, dup := out[key]; dup {
			t.Errorf("method %s defined twice", key)
		}
		out[key] = apiRoute{Function: fn, Integration: integ}
	}
	return out
}

func TestEveryRouteOfTheRouteTableReachesItsFunction(t *testing.T) {
	tp := synth(t, mainStack)
	got := apiRoutes(t, tp)
	want := map[string]string{} // "METHOD path" → function name
	for _, g := range routes.Groups {
		for _, p := range g.Prefixes {
			if base, ok := strings.CutSuffix(p, "/"); ok {
				want["ANY "+base] = g.Function
				want["ANY "+base+"/{proxy+}"] = g.Function
				continue
			}
			method := stack.ExactPathMethods[p]
			if method == "" {
				method = "ANY"
			}
			want[method+" "+p] = g.Function
		}
	}
	for key, fn := range want {
		id, _ := tp.function(t, fn)
		r, ok := got[key]
		switch {
		case !ok:
			t.Errorf("no API route %s (for %s)", key, fn)
		case r.Function != id:
			t.Errorf("%s reaches %s, want %s (%s)", key, r.Function, id, fn)
		}
	}
	for key := range got {
		if _, ok := want[key]; !ok {
			t.Errorf("API route %s is not in the route table", key)
		}
	}
}

// TestAPIGatewayRoutesRequestsLikeTheDevserver resolves sample request paths
// the way API Gateway does (an exact resource first, else the deepest
// {proxy+} above it; "/x/" reaches the resource /x) and checks that each
// lands where routes.Match sends it locally.
func TestAPIGatewayRoutesRequestsLikeTheDevserver(t *testing.T) {
	tp := synth(t, mainStack)
	got := apiRoutes(t, tp)
	byPath := map[string]string{} // path → logical id, for any method
	for key, r := range got {
		_, path, _ := strings.Cut(key, " ")
		byPath[path] = r.Function
	}
	resolve := func(path string) string {
		path = strings.TrimSuffix(path, "/")
		if fn, ok := byPath[path]; ok {
			return fn
		}
		for dir := path; dir != ""; dir = dir[:strings.LastIndex(dir, "/")] {
			if fn, ok := byPath[dir+"/{proxy+}"]; ok && dir != path {
				return fn
			}
		}
		return ""
	}
	var samples []string
	for _, g := range routes.Groups {
		for _, p := range g.Prefixes {
			samples = append(samples, p, strings.TrimSuffix(p, "/"))
			if strings.HasSuffix(p, "/") {
				samples = append(samples, p+"abc", p+"abc/def/")
			}
		}
	}
	// The MCP sign-in's routes (its callback is the redirect URI that
	// authorization servers send browsers to) are the mcp function's.
	for _, p := range []string{routes.MCPOAuthStartPath, routes.MCPOAuthCallbackPath, routes.MCPOAuthMetadataPath} {
		if g, _ := routes.Match(p); g.Function != "mcp" {
			t.Errorf("%s is routed to %q, want mcp", p, g.Function)
		}
		samples = append(samples, p)
	}
	sort.Strings(samples)
	for _, path := range samples {
		g, ok := routes.Match(path)
		if !ok {
			continue
		}
		want, _ := tp.function(t, g.Function)
		if fn := resolve(path); fn != want {
			t.Errorf("API Gateway sends %s to %q, the devserver to %s (%s)", path, fn, want, g.Function)
		}
	}
}

func TestOnlyTheChatRouteStreams(t *testing.T) {
	tp := synth(t, mainStack)
	for key, r := range apiRoutes(t, tp) {
		uri := flat(r.Integration["Uri"])
		if r.Integration["Type"] != "AWS_PROXY" {
			t.Errorf("%s integration type = %v, want AWS_PROXY", key, r.Integration["Type"])
		}
		_, path, _ := strings.Cut(key, " ")
		g, _ := routes.Match(path)
		if g.Streaming {
			if r.Integration["ResponseTransferMode"] != "STREAM" {
				t.Errorf("%s ResponseTransferMode = %v, want STREAM", key, r.Integration["ResponseTransferMode"])
			}
			if !strings.Contains(uri, "response-streaming-invocations") {
				t.Errorf("%s URI = %s, want response-streaming-invocations", key, uri)
			}
			if ms, _ := r.Integration["TimeoutInMillis"].(float64); ms < 60_000 || ms > 900_000 {
				t.Errorf("%s TimeoutInMillis = %v, want a reply's length (streaming allows up to 15 min)", key, ms)
			}
			continue
		}
		if mode, ok := r.Integration["ResponseTransferMode"]; ok && mode != "BUFFERED" {
			t.Errorf("%s ResponseTransferMode = %v, want buffered", key, mode)
		}
		if strings.Contains(uri, "response-streaming") || !strings.Contains(uri, "/invocations") {
			t.Errorf("%s URI = %s, want the ordinary invocations path", key, uri)
		}
		if ms, ok := r.Integration["TimeoutInMillis"].(float64); ok && ms > 29_000 {
			t.Errorf("%s TimeoutInMillis = %v, buffered integrations stop at 29 s", key, ms)
		}
	}
	chat := 0
	for _, g := range routes.Groups {
		if g.Streaming {
			chat++
		}
	}
	if chat == 0 {
		t.Fatal("no streaming route group in the route table")
	}
}

func TestAPIStageThrottlesAndLogsJSON(t *testing.T) {
	tp := synth(t, mainStack)
	stages := tp.ofType("AWS::ApiGateway::Stage")
	if len(stages) != 1 {
		t.Fatalf("stages = %v, want one", stages)
	}
	st := tp.Resources[stages[0]]
	if got := props(st, "StageName"); got != stack.StageName {
		t.Errorf("StageName = %v", got)
	}
	var throttled bool
	for _, ms := range props(st, "MethodSettings").([]any) {
		m := ms.(map[string]any)
		if m["HttpMethod"] == "*" && m["ResourcePath"] == "/*" &&
			m["ThrottlingRateLimit"] == float64(stack.ThrottleRate) && m["ThrottlingBurstLimit"] == float64(stack.ThrottleBurst) {
			throttled = true
		}
	}
	if !throttled {
		t.Errorf("no stage-wide throttling in %s", flat(props(st, "MethodSettings")))
	}
	dest := ref(props(st, "AccessLogSetting", "DestinationArn"))
	if tp.Resources[dest].Type != "AWS::Logs::LogGroup" {
		t.Errorf("access log destination = %s, want a log group", flat(props(st, "AccessLogSetting")))
	}
	if f, _ := props(st, "AccessLogSetting", "Format").(string); !strings.HasPrefix(f, "{") || !strings.Contains(f, "$context.requestId") {
		t.Errorf("access log format = %q, want JSON", f)
	}
	api := tp.Resources[tp.ofType("AWS::ApiGateway::RestApi")[0]]
	if got := flat(props(api, "EndpointConfiguration", "Types")); got != `["REGIONAL"]` {
		t.Errorf("endpoint types = %s, want REGIONAL (CloudFront is in front)", got)
	}
	// Access logging needs API Gateway's account role; the stack sets it.
	accounts := tp.ofType("AWS::ApiGateway::Account")
	if len(accounts) != 1 {
		t.Fatalf("API Gateway account settings = %v, want one", accounts)
	}
}

func TestAPIGatewayErrorsUseTheAPIErrorShape(t *testing.T) {
	tp := synth(t, mainStack)
	got := map[string]resource{}
	for _, id := range tp.ofType("AWS::ApiGateway::GatewayResponse") {
		got[props(tp.Resources[id], "ResponseType").(string)] = tp.Resources[id]
	}
	for _, e := range stack.GatewayErrors {
		r, ok := got[e.Type]
		if !ok {
			t.Errorf("no gateway response %s", e.Type)
			continue
		}
		body, _ := props(r, "ResponseTemplates", "application/json").(string)
		if !strings.Contains(body, `"detail":`) || !strings.Contains(body, `"code":`) {
			t.Errorf("%s body = %s, want {detail, code}", e.Type, body)
		}
	}
	if s := props(got["MISSING_AUTHENTICATION_TOKEN"], "StatusCode"); s != "404" {
		t.Errorf("unknown API paths answer %v, want 404 like the devserver", s)
	}
	// A throttled function (chat at its reserved concurrency) is refused by
	// Lambda before it runs; the integration failure becomes a 429 with a
	// detail the web app shows and a Retry-After, not a 500.
	busy := got["INTEGRATION_FAILURE"]
	body, _ := props(busy, "ResponseTemplates", "application/json").(string)
	var e struct{ Detail, Code string }
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Code != "rate_limited" || e.Detail != stack.BusyDetail {
		t.Errorf("INTEGRATION_FAILURE body = %s, want rate_limited with the busy detail", body)
	}
	if s := props(busy, "StatusCode"); s != "429" {
		t.Errorf("INTEGRATION_FAILURE status = %v, want 429", s)
	}
	if h := flat(props(busy, "ResponseParameters")); h != `{"gatewayresponse.header.Retry-After":"'30'"}` {
		t.Errorf("INTEGRATION_FAILURE headers = %s, want Retry-After", h)
	}
}

// make run-lambda's gateway answers what API Gateway answers by itself with
// the bodies this stack configures, so a local run shows what AWS shows.
func TestLocalGatewayAnswersAsTheStackConfigures(t *testing.T) {
	bodies := map[string]string{}
	for _, e := range stack.GatewayErrors {
		bodies[e.Type] = e.Body
	}
	for typ, local := range map[string]string{
		"MISSING_AUTHENTICATION_TOKEN": lambdalocal.NotFoundBody,
		"DEFAULT_5XX":                  lambdalocal.Default5xxBody,
	} {
		if bodies[typ] != local {
			t.Errorf("%s: the stack answers %s, the local gateway %s", typ, bodies[typ], local)
		}
	}
	// DEFAULT_4XX carries API Gateway's own message; the local 413 has that shape.
	want := strings.Replace(bodies["DEFAULT_4XX"], "$context.error.messageString", `"Request Too Long"`, 1)
	if want != lambdalocal.TooLargeBody {
		t.Errorf("the local 413 answers %s, the stack's DEFAULT_4XX gives %s", lambdalocal.TooLargeBody, want)
	}
	if stack.StageName != lambdalocal.Stage {
		t.Errorf("stage %q, the local gateway's %q", stack.StageName, lambdalocal.Stage)
	}
}
