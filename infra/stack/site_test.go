package stack_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"aiwork/infra/stack"
	"aiwork/shared/httpx/secheaders"
)

// Managed CloudFront policy ids (AWS documentation, "Use managed policies").
const (
	cachingDisabled           = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"
	allViewerExceptHostHeader = "b689b0a8-53d0-40ab-baf2-68738e2966ac"
)

func distribution(t *testing.T, tp *tmpl) (string, map[string]any) {
	t.Helper()
	ids := tp.ofType("AWS::CloudFront::Distribution")
	if len(ids) != 1 {
		t.Fatalf("distributions = %v, want one", ids)
	}
	return ids[0], props(tp.Resources[ids[0]], "DistributionConfig").(map[string]any)
}

func origin(t *testing.T, cfg map[string]any, id string) map[string]any {
	t.Helper()
	for _, o := range asList(cfg["Origins"]) {
		if m := o.(map[string]any); m["Id"] == id {
			return m
		}
	}
	t.Fatalf("no origin %s", id)
	return nil
}

// functionCode answers the code of the CloudFront Function a behaviour
// runs on viewer-request.
func functionCode(t *testing.T, tp *tmpl, behaviour map[string]any) string {
	t.Helper()
	fas := asList(behaviour["FunctionAssociations"])
	if len(fas) != 1 {
		t.Fatalf("function associations = %s, want one", flat(fas))
	}
	fa := fas[0].(map[string]any)
	if fa["EventType"] != "viewer-request" {
		t.Errorf("function event = %v, want viewer-request", fa["EventType"])
	}
	fn := tp.Resources[ref(fa["FunctionARN"])]
	if fn.Type != "AWS::CloudFront::Function" {
		t.Fatalf("function association to %s", flat(fa["FunctionARN"]))
	}
	if rt := props(fn, "FunctionConfig", "Runtime"); rt != "cloudfront-js-2.0" {
		t.Errorf("function runtime = %v", rt)
	}
	code, _ := props(fn, "FunctionCode").(string)
	return code
}

func TestDefaultBehaviourServesTheBucketThroughOAC(t *testing.T) {
	tp := synth(t, mainStack)
	_, cfg := distribution(t, tp)
	def := cfg["DefaultCacheBehavior"].(map[string]any)
	if def["ViewerProtocolPolicy"] != "redirect-to-https" {
		t.Errorf("default ViewerProtocolPolicy = %v", def["ViewerProtocolPolicy"])
	}
	o := origin(t, cfg, def["TargetOriginId"].(string))
	if tp.Resources[ref(o["DomainName"])].Type != "AWS::S3::Bucket" {
		t.Errorf("default origin %s, want the site bucket", flat(o["DomainName"]))
	}
	if tp.Resources[ref(o["OriginAccessControlId"])].Type != "AWS::CloudFront::OriginAccessControl" {
		t.Errorf("default origin without origin access control: %s", flat(o))
	}
	if !strings.Contains(functionCode(t, tp, def), "/index.html") {
		t.Error("the default behaviour's function does not rewrite to /index.html")
	}
	if _, ok := cfg["CustomErrorResponses"]; ok {
		t.Errorf("distribution maps errors to pages (%s): API 404s must stay 404s", flat(cfg["CustomErrorResponses"]))
	}
	if cfg["DefaultRootObject"] != "index.html" {
		t.Errorf("DefaultRootObject = %v", cfg["DefaultRootObject"])
	}
}

func TestAPIBehaviourPassesEverythingThroughUncached(t *testing.T) {
	tp := synth(t, mainStack)
	_, cfg := distribution(t, tp)
	api := behaviour(t, cfg, stack.APIPathPattern)
	if api["CachePolicyId"] != cachingDisabled {
		t.Errorf("API CachePolicyId = %v, want CachingDisabled", api["CachePolicyId"])
	}
	if api["OriginRequestPolicyId"] != allViewerExceptHostHeader {
		t.Errorf("API OriginRequestPolicyId = %v, want AllViewerExceptHostHeader", api["OriginRequestPolicyId"])
	}
	if got := sortedSet(strs(api["AllowedMethods"])); !equal(got, sortedSet([]string{"GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"})) {
		t.Errorf("API AllowedMethods = %v, want all", got)
	}
	if p := api["ViewerProtocolPolicy"]; p != "https-only" && p != "redirect-to-https" {
		t.Errorf("API ViewerProtocolPolicy = %v, want HTTPS", p)
	}
	o := origin(t, cfg, api["TargetOriginId"].(string))
	if tp.Resources[ref(o["DomainName"])].Type != "AWS::ApiGateway::RestApi" && !strings.Contains(flat(o["DomainName"]), "execute-api") {
		t.Errorf("API origin = %s, want the REST API", flat(o["DomainName"]))
	}
	if !strings.Contains(flat(o["OriginPath"]), stack.StageName) {
		t.Errorf("API origin path = %s, want the stage", flat(o["OriginPath"]))
	}
	if rt := o["CustomOriginConfig"].(map[string]any)["OriginReadTimeout"]; rt != float64(stack.APIReadTimeoutSeconds) {
		t.Errorf("API origin read timeout = %v", rt)
	}
	if code := functionCode(t, tp, api); !strings.Contains(code, "x-forwarded-host") || !strings.Contains(code, "x-viewer-address") {
		t.Error("the API behaviour's function does not set x-forwarded-host and x-viewer-address")
	}
	// Every API function serves only requests carrying the origin secret,
	// and trusts those two headers only on them: CloudFront adds it as a
	// custom header whose value CloudFormation resolves from the generated
	// secret at deploy (a dynamic reference; the template holds no value).
	secretID := secretLogicalIDs(t, tp)[stack.SecretOrigin]
	headers := asList(o["OriginCustomHeaders"])
	if len(headers) != 1 {
		t.Fatalf("API origin custom headers = %s, want X-Origin-Secret only", flat(headers))
	}
	h := headers[0].(map[string]any)
	value := flat(h["HeaderValue"])
	if h["HeaderName"] != "X-Origin-Secret" || !strings.Contains(value, "{{resolve:secretsmanager:") ||
		!strings.Contains(value, `{"Ref":"`+secretID+`"}`) || !strings.Contains(value, ":SecretString:::}}") {
		t.Errorf("API origin custom header = %s, want X-Origin-Secret resolved from secret %s", flat(h), secretID)
	}
	gen := flat(props(tp.Resources[secretID], "GenerateSecretString"))
	if !strings.Contains(gen, `"PasswordLength":64`) || !strings.Contains(gen, `"ExcludePunctuation":true`) {
		t.Errorf("origin secret generator = %s, want 64 letters and digits made at deploy", gen)
	}
	if api["ResponseHeadersPolicyId"] == nil {
		t.Error("API responses lack the security headers")
	}
}

// TestCloudFrontFunctionsBehave runs both functions' code in Node, which
// jsii needs anyway, on requests shaped like CloudFront's events.
func TestCloudFrontFunctionsBehave(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	run := func(code string, req map[string]any) map[string]any {
		t.Helper()
		ev, _ := json.Marshal(map[string]any{"request": req, "viewer": map[string]any{"ip": "198.51.100.23"}})
		out, err := exec.Command(node, "-e", code+"\nprocess.stdout.write(JSON.stringify(handler("+string(ev)+")));").CombinedOutput()
		if err != nil {
			t.Fatalf("node: %v: %s", err, out)
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("function answered %s", out)
		}
		return got
	}
	for uri, want := range map[string]string{
		"/":                        "/index.html",
		"/dashboard":               "/index.html",
		"/prompts/abc/":            "/index.html",
		"/auth/callback":           "/index.html",
		"/assets/index-abc.js":     "/assets/index-abc.js",
		"/favicon.svg":             "/favicon.svg",
		"/v1.2/releases":           "/index.html",
		"/docs/guide.pdf":          "/docs/guide.pdf",
		"/index.html":              "/index.html",
		"/assets/font.woff2?x=1.2": "/assets/font.woff2?x=1.2",
	} {
		if got := run(stack.SPARewriteCode, map[string]any{"uri": uri, "headers": map[string]any{}})["uri"]; got != want {
			t.Errorf("SPA rewrite of %s = %v, want %s", uri, got, want)
		}
	}
	got := run(stack.ForwardedHostCode, map[string]any{"uri": "/api/v1/auth/google/login", "headers": map[string]any{
		"host":             map[string]any{"value": "d123.cloudfront.net"},
		"x-forwarded-host": map[string]any{"value": "evil.example"},
		"x-viewer-address": map[string]any{"value": "203.0.113.66"},
		"x-origin-secret":  map[string]any{"value": "forged"},
	}})
	headers := got["headers"].(map[string]any)
	if h := flat(headers["x-forwarded-host"]); h != `{"value":"d123.cloudfront.net"}` {
		t.Errorf("x-forwarded-host = %s, want the viewer's Host (never the client's own header)", h)
	}
	if h := flat(headers["x-viewer-address"]); h != `{"value":"198.51.100.23"}` {
		t.Errorf("x-viewer-address = %s, want the viewer's address (never the client's own header)", h)
	}
	if h, ok := headers["x-origin-secret"]; ok {
		t.Errorf("x-origin-secret = %s passed on; only the origin's custom header may carry it", flat(h))
	}
}

// behaviour answers the distribution's cache behaviour for pattern.
func behaviour(t *testing.T, cfg map[string]any, pattern string) map[string]any {
	t.Helper()
	for _, b := range asList(cfg["CacheBehaviors"]) {
		if m := b.(map[string]any); m["PathPattern"] == pattern {
			return m
		}
	}
	t.Fatalf("no %s behaviour in %s", pattern, flat(cfg["CacheBehaviors"]))
	return nil
}

func TestSecurityHeaders(t *testing.T) {
	tp := synth(t, mainStack)
	ids := tp.ofType("AWS::CloudFront::ResponseHeadersPolicy")
	if len(ids) != 3 {
		t.Fatalf("response headers policies = %v, want the site's, the MCP Apps sandbox page's and the registry API's", ids)
	}
	_, cfg := distribution(t, tp)
	site := ref(cfg["DefaultCacheBehavior"].(map[string]any)["ResponseHeadersPolicyId"])
	if tp.Resources[site].Type != "AWS::CloudFront::ResponseHeadersPolicy" {
		t.Fatalf("default behaviour headers policy = %s", site)
	}
	sec := props(tp.Resources[site], "ResponseHeadersPolicyConfig", "SecurityHeadersConfig").(map[string]any)
	csp, _ := sec["ContentSecurityPolicy"].(map[string]any)["ContentSecurityPolicy"].(string)
	for _, want := range []string{"default-src 'self'", "script-src 'self'", "connect-src 'self'", "img-src 'self' data:", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	for _, bad := range []string{"'unsafe-eval'", "script-src 'self' 'unsafe-inline'", "*;"} {
		if strings.Contains(csp, bad) {
			t.Errorf("CSP %q allows %q", csp, bad)
		}
	}
	// One definition: the policy sends exactly what the devserver sends.
	if want := secheaders.ContentSecurityPolicy(false, true); csp != want {
		t.Errorf("CSP %q, want the shared definition %q", csp, want)
	}
	if !strings.Contains(csp, "upgrade-insecure-requests") {
		t.Errorf("CSP %q lacks upgrade-insecure-requests (the site is HTTPS)", csp)
	}
	if hsts := sec["StrictTransportSecurity"].(map[string]any); hsts["AccessControlMaxAgeSec"].(float64) != secheaders.HSTSMaxAge.Seconds() ||
		hsts["AccessControlMaxAgeSec"].(float64) < 31536000 || hsts["IncludeSubdomains"] != secheaders.HSTSIncludeSubdomains || hsts["Override"] != true {
		t.Errorf("HSTS = %s", flat(hsts))
	}
	if flat(sec["ContentTypeOptions"]) != `{"Override":true}` || secheaders.ContentTypeOptions != "nosniff" {
		t.Errorf("nosniff = %s", flat(sec["ContentTypeOptions"]))
	}
	if rp := sec["ReferrerPolicy"].(map[string]any); rp["ReferrerPolicy"] != secheaders.ReferrerPolicy {
		t.Errorf("referrer policy = %s, want %s", flat(rp), secheaders.ReferrerPolicy)
	}
	if fo := sec["FrameOptions"].(map[string]any); fo["FrameOption"] != secheaders.FrameOptions || fo["Override"] != true {
		t.Errorf("frame options = %s, want %s", flat(fo), secheaders.FrameOptions)
	}
	if api := behaviour(t, cfg, stack.APIPathPattern); ref(api["ResponseHeadersPolicyId"]) != site {
		t.Errorf("API behaviour headers policy = %s, want the site's", flat(api["ResponseHeadersPolicyId"]))
	}
	if !strings.Contains(secheaders.ContentSecurityPolicy(true, true), "googletagmanager.com") || strings.Contains(secheaders.ContentSecurityPolicy(false, true), "google") {
		t.Error("analytics must widen the CSP only when asked")
	}
}

// The registry API (/api/registry/*) is reached like the rest of the API,
// through the same origin with the origin secret and the same
// viewer-request function (the WAF counts X-Viewer-Address), by a
// behaviour listed before /api/*; its answers are cached at the edge for
// a short time, one per query string, and carry CORS for any origin.
func TestRegistryBehaviourCachesBrieflyAndIsTheAPIOtherwise(t *testing.T) {
	tp := synth(t, mainStack)
	_, cfg := distribution(t, tp)
	if stack.RegistryPathPattern != "/api/registry/*" {
		t.Errorf("registry path pattern %q", stack.RegistryPathPattern)
	}
	reg := behaviour(t, cfg, stack.RegistryPathPattern)
	api := behaviour(t, cfg, stack.APIPathPattern)
	order := map[string]int{}
	for i, b := range asList(cfg["CacheBehaviors"]) {
		order[b.(map[string]any)["PathPattern"].(string)] = i
	}
	if order[stack.RegistryPathPattern] > order[stack.APIPathPattern] {
		t.Errorf("behaviours %s: the registry's must come before /api/*, which would take its requests", flat(cfg["CacheBehaviors"]))
	}
	if reg["TargetOriginId"] != api["TargetOriginId"] {
		t.Errorf("registry origin %v, want the API's %v (with the origin secret)", reg["TargetOriginId"], api["TargetOriginId"])
	}
	if functionCode(t, tp, reg) != functionCode(t, tp, api) {
		t.Error("the registry behaviour does not run the API's viewer-request function (x-viewer-address for the WAF, no forged origin secret)")
	}
	if reg["OriginRequestPolicyId"] != allViewerExceptHostHeader || reg["ViewerProtocolPolicy"] != "https-only" || reg["Compress"] != true {
		t.Errorf("registry behaviour = %s, want all viewer headers but Host, HTTPS only, compressed", flat(reg))
	}
	if got := sortedSet(strs(reg["AllowedMethods"])); !equal(got, sortedSet([]string{"GET", "HEAD", "OPTIONS"})) {
		t.Errorf("registry AllowedMethods = %v, want GET, HEAD, OPTIONS (read-only, preflights pass)", got)
	}
	if got := sortedSet(strs(reg["CachedMethods"])); !equal(got, sortedSet([]string{"GET", "HEAD"})) {
		t.Errorf("registry CachedMethods = %v", got)
	}

	cache := ref(reg["CachePolicyId"])
	if tp.Resources[cache].Type != "AWS::CloudFront::CachePolicy" {
		t.Fatalf("registry cache policy = %s, want its own", flat(reg["CachePolicyId"]))
	}
	cp := props(tp.Resources[cache], "CachePolicyConfig").(map[string]any)
	key := cp["ParametersInCacheKeyAndForwardedToOrigin"].(map[string]any)
	if cp["DefaultTTL"] != float64(60) || cp["MaxTTL"] != float64(60) || cp["MinTTL"] != float64(0) || stack.RegistryCacheSeconds != 60 {
		t.Errorf("registry cache TTLs = %s, want at most 60 s, none when the answer says no-store", flat(cp))
	}
	if qs := key["QueryStringsConfig"].(map[string]any); qs["QueryStringBehavior"] != "all" {
		t.Errorf("registry cache key query strings = %s, want all (cursor, limit, search...)", flat(qs))
	}
	if h := key["HeadersConfig"].(map[string]any); h["HeaderBehavior"] != "none" {
		t.Errorf("registry cache key headers = %s, want none (public answers)", flat(h))
	}
	if c := key["CookiesConfig"].(map[string]any); c["CookieBehavior"] != "none" {
		t.Errorf("registry cache key cookies = %s, want none", flat(c))
	}
	if key["EnableAcceptEncodingGzip"] != true || key["EnableAcceptEncodingBrotli"] != true {
		t.Errorf("registry cache key encodings = %s", flat(key))
	}

	policy := ref(reg["ResponseHeadersPolicyId"])
	if tp.Resources[policy].Type != "AWS::CloudFront::ResponseHeadersPolicy" {
		t.Fatalf("registry headers policy = %s", flat(reg["ResponseHeadersPolicyId"]))
	}
	hp := props(tp.Resources[policy], "ResponseHeadersPolicyConfig").(map[string]any)
	cors, _ := hp["CorsConfig"].(map[string]any)
	if cors == nil || flat(cors["AccessControlAllowOrigins"]) != `{"Items":["*"]}` || cors["AccessControlAllowCredentials"] != false ||
		!strings.Contains(flat(cors["AccessControlAllowMethods"]), "GET") || !strings.Contains(flat(cors["AccessControlAllowMethods"]), "OPTIONS") {
		t.Errorf("registry CORS = %s, want any origin, GET and OPTIONS, no credentials", flat(cors))
	}
	if h := flat(cors["AccessControlAllowHeaders"]); !strings.Contains(h, "Authorization") || !strings.Contains(h, "Content-Type") {
		t.Errorf("registry CORS headers = %s, want Authorization and Content-Type (what GitHub Copilot asks)", h)
	}
	site := ref(cfg["DefaultCacheBehavior"].(map[string]any)["ResponseHeadersPolicyId"])
	if flat(hp["SecurityHeadersConfig"]) != flat(props(tp.Resources[site], "ResponseHeadersPolicyConfig", "SecurityHeadersConfig")) {
		t.Errorf("registry security headers %s, want the site's", flat(hp["SecurityHeadersConfig"]))
	}
}

// The MCP Apps sandbox page alone is served with its own headers, from the
// same definition as the devserver's without the http: sources: framed by
// the site's pages only, its CSP the ceiling of the views it renders. It
// comes from the site bucket like the rest of the app, with no route
// rewrite.
func TestSandboxPageHasItsOwnHeaders(t *testing.T) {
	tp := synth(t, mainStack)
	_, cfg := distribution(t, tp)
	sb := behaviour(t, cfg, secheaders.SandboxPath)
	def := cfg["DefaultCacheBehavior"].(map[string]any)
	if sb["TargetOriginId"] != def["TargetOriginId"] {
		t.Errorf("sandbox page origin %v, want the site bucket's %v", sb["TargetOriginId"], def["TargetOriginId"])
	}
	if sb["ViewerProtocolPolicy"] != "redirect-to-https" || sb["CachePolicyId"] != def["CachePolicyId"] || sb["Compress"] != true {
		t.Errorf("sandbox behaviour = %s, want HTTPS, cached and compressed like the app", flat(sb))
	}
	if got := sortedSet(strs(sb["AllowedMethods"])); !equal(got, sortedSet([]string{"GET", "HEAD"})) {
		t.Errorf("sandbox AllowedMethods = %v", got)
	}
	if _, ok := sb["FunctionAssociations"]; ok {
		t.Errorf("sandbox behaviour runs a function: %s", flat(sb["FunctionAssociations"]))
	}
	policy := ref(sb["ResponseHeadersPolicyId"])
	if policy == "" || policy == ref(def["ResponseHeadersPolicyId"]) || tp.Resources[policy].Type != "AWS::CloudFront::ResponseHeadersPolicy" {
		t.Fatalf("sandbox behaviour headers policy = %s, want its own", flat(sb["ResponseHeadersPolicyId"]))
	}
	sec := props(tp.Resources[policy], "ResponseHeadersPolicyConfig", "SecurityHeadersConfig").(map[string]any)
	csp, _ := sec["ContentSecurityPolicy"].(map[string]any)["ContentSecurityPolicy"].(string)
	const want = "default-src 'none'; script-src 'unsafe-inline' https:; style-src 'unsafe-inline' https:; img-src data: blob: https:; " +
		"font-src data: https:; media-src data: blob: https:; connect-src https:; frame-src 'self' blob: data:; form-action 'none'; " +
		"base-uri 'none'; frame-ancestors 'self'"
	if csp != want || csp != secheaders.SandboxContentSecurityPolicy(false) {
		t.Errorf("sandbox CSP\n %q\nwant\n %q", csp, want)
	}
	if strings.Contains(csp, "http:") || strings.Contains(csp, "*") {
		t.Errorf("sandbox CSP %q allows plain HTTP or a wildcard", csp)
	}
	if fo := sec["FrameOptions"].(map[string]any); fo["FrameOption"] != "SAMEORIGIN" || fo["Override"] != true {
		t.Errorf("sandbox frame options = %s, want SAMEORIGIN", flat(fo))
	}
	if rp := sec["ReferrerPolicy"].(map[string]any); rp["ReferrerPolicy"] != "no-referrer" || rp["Override"] != true {
		t.Errorf("sandbox referrer policy = %s, want no-referrer", flat(rp))
	}
	if flat(sec["ContentTypeOptions"]) != `{"Override":true}` {
		t.Errorf("sandbox nosniff = %s", flat(sec["ContentTypeOptions"]))
	}
	if hsts := sec["StrictTransportSecurity"].(map[string]any); hsts["AccessControlMaxAgeSec"].(float64) != secheaders.HSTSMaxAge.Seconds() ||
		hsts["IncludeSubdomains"] != secheaders.HSTSIncludeSubdomains || hsts["Override"] != true {
		t.Errorf("sandbox HSTS = %s", flat(hsts))
	}
}

func TestBucketIsPrivateEncryptedTLSOnlyAndFilled(t *testing.T) {
	tp := synth(t, mainStack)
	site, b := tp.one(t, "AWS::S3::Bucket", "SiteBucket")
	if got := flat(props(b, "PublicAccessBlockConfiguration")); got != `{"BlockPublicAcls":true,"BlockPublicPolicy":true,"IgnorePublicAcls":true,"RestrictPublicBuckets":true}` {
		t.Errorf("public access block = %s", got)
	}
	if !strings.Contains(flat(props(b, "BucketEncryption")), "AES256") {
		t.Errorf("encryption = %s", flat(props(b, "BucketEncryption")))
	}
	var tlsOnly, oac bool
	for _, id := range tp.ofType("AWS::S3::BucketPolicy") {
		if ref(props(tp.Resources[id], "Bucket")) != site {
			continue
		}
		for _, st := range statements(props(tp.Resources[id], "PolicyDocument", "Statement")) {
			s := flat(st.Raw)
			tlsOnly = tlsOnly || st.Effect == "Deny" && strings.Contains(s, `"aws:SecureTransport":"false"`)
			oac = oac || st.Effect == "Allow" && strings.Contains(s, "cloudfront.amazonaws.com") && strings.Contains(s, "AWS:SourceArn")
			if st.Effect == "Allow" && strings.Contains(s, `"Principal":{"AWS":"*"}`) || strings.Contains(s, `"Principal":"*"`) && st.Effect == "Allow" {
				t.Errorf("bucket policy allows anyone: %s", s)
			}
		}
	}
	if !tlsOnly || !oac {
		t.Errorf("bucket policy: TLS-only deny %v, CloudFront OAC allow %v", tlsOnly, oac)
	}
	deployments := tp.ofType("Custom::CDKBucketDeployment")
	if len(deployments) != 2 {
		t.Fatalf("bucket deployments = %v, want the hashed assets and the pages", deployments)
	}
	for _, id := range deployments {
		if ref(props(tp.Resources[id], "DestinationBucketName")) != site {
			t.Errorf("deployment %s does not fill the site bucket", id)
		}
	}
}

// Without an own domain the outputs name the distribution's address; with
// one (the main stack), that domain.
func TestOutputsGiveTheSiteAndWebhookURLs(t *testing.T) {
	tp := synth(t, plainStack)
	dist, _ := distribution(t, tp)
	for name, suffix := range map[string]string{
		stack.OutputSiteURL:           `"DomainName"]}]]}`,
		stack.OutputWebhookURL:        `"/api/v1/payments/webhook"]]}`,
		stack.OutputGoogleRedirectURI: `"/api/v1/auth/google/callback"]]}`,
	} {
		o, ok := tp.Outputs[name]
		if !ok {
			t.Errorf("no output %s", name)
			continue
		}
		v := flat(o["Value"])
		if !strings.HasPrefix(v, `{"Fn::Join":["",["https://",{"Fn::GetAtt":["`+dist+`","DomainName"]}`) || !strings.HasSuffix(v, suffix) {
			t.Errorf("output %s = %s", name, v)
		}
	}
	main := synth(t, mainStack)
	for name, want := range map[string]string{
		stack.OutputSiteURL:           "https://" + testDomain,
		stack.OutputWebhookURL:        "https://" + testDomain + stack.WebhookPath,
		stack.OutputGoogleRedirectURI: "https://" + testDomain + stack.GoogleCallbackPath,
	} {
		if got := flat(main.Outputs[name]["Value"]); !strings.Contains(got, want) || strings.Contains(got, "cloudfront") {
			t.Errorf("with a domain, output %s = %s, want %s", name, got, want)
		}
	}
}
