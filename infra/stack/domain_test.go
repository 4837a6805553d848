package stack_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"

	"aiwork/infra/stack"
)

// With SITE_DOMAIN and CERTIFICATE_ARN the distribution answers to that
// name with the ACM certificate (SNI) and TLSv1.2_2021 at least, the
// functions that build links get PUBLIC_URL https://<domain>, and an
// output names the DNS record to create.
func TestOwnDomainServesModernTLS(t *testing.T) {
	tp := synth(t, mainStack)
	dist, cfg := distribution(t, tp)
	if got := flat(cfg["Aliases"]); got != `["`+testDomain+`"]` {
		t.Errorf("Aliases = %s, want [%s]", got, testDomain)
	}
	want := `{"AcmCertificateArn":"` + testCertificate + `","MinimumProtocolVersion":"TLSv1.2_2021","SslSupportMethod":"sni-only"}`
	if got := flat(cfg["ViewerCertificate"]); got != want {
		t.Errorf("ViewerCertificate = %s, want %s", got, want)
	}
	for _, g := range allFunctions() {
		_, fn := tp.function(t, g.Function)
		got := props(fn, "Environment", "Variables", "PUBLIC_URL")
		if links := g.Function == "auth" || g.Function == "payments" || g.Function == "mcp" || g.Function == "admin" || g.Function == "creators" || g.Function == "agents"; links != (got != nil) {
			t.Errorf("%s PUBLIC_URL = %v; want it on auth, payments, mcp (the MCP sign-in's redirect), admin (a confirmation resent), creators (Stripe's onboarding return) and agents (a paid agent's checkout return) only", g.Function, got)
		}
	}
	dns := flat(tp.Outputs[stack.OutputDNSRecord]["Value"])
	if !strings.Contains(dns, "CNAME "+testDomain) || !strings.Contains(dns, `{"Fn::GetAtt":["`+dist+`","DomainName"]}`) {
		t.Errorf("output %s = %s, want a CNAME from %s to the distribution's name", stack.OutputDNSRecord, dns, testDomain)
	}
}

// Without them the distribution keeps its *.cloudfront.net name and
// CloudFront's default certificate (CFR4 suppressed, docs/deploy.md says
// what it costs), and no DNS record is asked for.
func TestWithoutADomainTheDefaultNameStays(t *testing.T) {
	tp := synth(t, plainStack)
	_, cfg := distribution(t, tp)
	if cfg["Aliases"] != nil || cfg["ViewerCertificate"] != nil {
		t.Errorf("Aliases %s, ViewerCertificate %s; want neither", flat(cfg["Aliases"]), flat(cfg["ViewerCertificate"]))
	}
	if _, ok := tp.Outputs[stack.OutputDNSRecord]; ok {
		t.Errorf("output %s without a domain", stack.OutputDNSRecord)
	}
	for _, g := range allFunctions() {
		if _, fn := tp.function(t, g.Function); props(fn, "Environment", "Variables", "PUBLIC_URL") != nil {
			t.Errorf("%s has PUBLIC_URL without a domain: the functions take the host from x-forwarded-host", g.Function)
		}
	}
}

func TestDomainSettingsAreChecked(t *testing.T) {
	lambdaDir, webappDir, err := dummyAssets(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		domain, cert, publicURL, want string
	}{
		{testDomain, "", "", "set both or neither"},
		{"", testCertificate, "", "set both or neither"},
		{"https://" + testDomain, testCertificate, "", "host name"},
		{"*.example.com", testCertificate, "", "host name"},
		{testDomain, "arn:aws:acm:eu-west-1:123456789012:certificate/abc", "", "us-east-1"},
		{testDomain, testCertificate, "https://other.example.com", "disagrees"},
	} {
		_, err := stack.NewAIWorkStack(awscdk.NewApp(nil), "Bad", &stack.Props{LambdaDir: lambdaDir, WebappDir: webappDir,
			SiteDomain: c.domain, CertificateARN: c.cert, PublicURL: c.publicURL})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("domain %q, certificate %q, publicUrl %q: err = %v, want %q", c.domain, c.cert, c.publicURL, err, c.want)
		}
	}
	// publicUrl may repeat the domain (an older cdk.json).
	if _, err := stack.NewAIWorkStack(awscdk.NewApp(nil), "Same", &stack.Props{LambdaDir: lambdaDir, WebappDir: webappDir,
		SiteDomain: "App.Example.com.", CertificateARN: testCertificate, PublicURL: "https://app.example.com/"}); err != nil {
		t.Errorf("publicUrl equal to the domain refused: %v", err)
	}
}
