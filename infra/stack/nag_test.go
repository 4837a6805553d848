package stack_test

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/aws-cdk-go/awscdk/v2/cxapi"
	"github.com/aws/jsii-runtime-go"

	"aiwork/infra/stack"
	"aiwork/shared/lambdas"
)

// cdk-nag's AWS Solutions pack, applied as in infra/main.go, leaves no
// error (which would fail `make synth`) and no warning, with and without
// an own domain.
func TestCdkNagLeavesNoUnsuppressedFinding(t *testing.T) {
	for _, name := range []string{mainStack, plainStack} {
		synth(t, name)
		an := assertions.Annotations_FromStack(stacks[name])
		nag := assertions.Match_StringLikeRegexp(jsii.String("AwsSolutions-.*"))
		for level, found := range map[string]*[]*cxapi.SynthesisMessage{
			"error":   an.FindError(jsii.String("*"), nag),
			"warning": an.FindWarning(jsii.String("*"), nag),
		} {
			for _, m := range *found {
				msg := fmt.Sprint(m.Entry.Data)
				t.Errorf("%s: unsuppressed cdk-nag %s on %s: %s", name, level, *m.Id, strings.SplitN(msg, "\n", 2)[0])
			}
		}
	}
}

// nagRow is one line of cdk-nag's report (<pack>-<stack>-NagReport.csv in
// the app's output directory): a rule checked on one resource.
type nagRow struct{ Rule, Path, Compliance, Reason string }

func nagReport(t *testing.T, name string) []nagRow {
	t.Helper()
	synth(t, name)
	f, err := os.Open(filepath.Join(assetDir, name+".out", "AwsSolutions-"+name+"-NagReport.csv"))
	if err != nil {
		t.Fatalf("cdk-nag report: %v", err)
	}
	defer f.Close()
	lines, err := csv.NewReader(f).ReadAll()
	if err != nil || len(lines) < 2 {
		t.Fatalf("cdk-nag report: %d lines, %v", len(lines), err)
	}
	var rows []nagRow
	for _, l := range lines[1:] {
		rows = append(rows, nagRow{
			Rule:       strings.TrimPrefix(l[0], "AwsSolutions-"),
			Path:       strings.TrimPrefix(l[1], name+"/"),
			Compliance: l[2],
			Reason:     l[3],
		})
	}
	return rows
}

var (
	methodPath = regexp.MustCompile(`^Api/Default/.*/(ANY|GET|POST|PUT|PATCH|DELETE)/Resource$`)
	helperPath = regexp.MustCompile(`^Custom::CDKBucketDeployment[0-9A-F]{32}\d+MiB/`)
)

// Exactly these findings are suppressed, each on its own resource with a
// reason, and nothing on the stack as a whole: the API methods' APIG4 and
// COG4 (the functions authorize; the webhook checks Stripe's signature),
// APIG2, the listing wildcard of API Gateway's logging role, the rotation
// function's GetRandomPassword, chat's Meta Llama wildcards (with
// metaBedrock), the nine secrets Secrets Manager cannot rotate, the
// distribution's CFR1 and CFR2 (and CFR4 only without an own domain), and
// the CDK BucketDeployment helper's role and runtime.
func TestCdkNagSuppressionsAreNarrowAndReasoned(t *testing.T) {
	for _, name := range []string{mainStack, plainStack} {
		t.Run(name, func(t *testing.T) {
			tp := synth(t, name)
			methods := len(tp.ofType("AWS::ApiGateway::Method"))
			if methods < len(stack.ExactPathMethods) {
				t.Fatalf("%d API methods", methods)
			}
			want := map[string][]string{
				"APIG2": {"Api/Resource"},
				"IAM4":  {"BucketDeploymentHelper/ServiceRole/Resource"},
				"IAM5": {"ApiGatewayCloudWatchRole/DefaultPolicy/Resource", "JwtRotationRole/DefaultPolicy/Resource",
					"BucketDeploymentHelper/ServiceRole/DefaultPolicy/Resource"},
				"L1":   {"BucketDeploymentHelper/Resource"},
				"CFR1": {"Site/Resource"},
				"CFR2": {"Site/Resource"},
			}
			for _, rule := range []string{"APIG4", "COG4"} {
				for range methods {
					want[rule] = append(want[rule], "API method")
				}
			}
			for _, secret := range []string{"StripeSecretKey", "StripeWebhookSecret", "GoogleClientId", "GoogleClientSecret",
				"OpenAiApiKey", "AnthropicApiKey", "GeminiApiKey", "McpKeyEncryptionKey", "OriginSecret"} {
				want["SMG4"] = append(want["SMG4"], secret+"/Resource")
			}
			if name == mainStack { // metaBedrock
				want["IAM5"] = append(want["IAM5"], "ChatRole/DefaultPolicy/Resource")
			} else { // no own domain
				want["CFR4"] = []string{"Site/Resource"}
			}

			got := map[string][]string{}
			// Granular rules (IAM4, IAM5) report one row per finding, and
			// each synthesis of the app appends its rows again.
			seen := map[string]bool{}
			for _, r := range nagReport(t, name) {
				switch r.Compliance {
				case "Non-Compliant":
					t.Errorf("%s on %s is not compliant", r.Rule, r.Path)
				case "Suppressed":
					if len(r.Reason) < 60 {
						t.Errorf("%s on %s suppressed with a short reason %q", r.Rule, r.Path, r.Reason)
					}
					if seen[r.Rule+" "+r.Path] {
						continue
					}
					seen[r.Rule+" "+r.Path] = true
					path := helperPath.ReplaceAllString(r.Path, "BucketDeploymentHelper/")
					if methodPath.MatchString(path) {
						webhook := strings.Contains(path, "/payments/webhook/POST/")
						if webhook != strings.Contains(r.Reason, "Stripe-Signature") {
							t.Errorf("%s on %s: reason %q", r.Rule, r.Path, r.Reason)
						}
						path = "API method"
					}
					got[r.Rule] = append(got[r.Rule], path)
				}
			}
			for _, rules := range []map[string][]string{want, got} {
				for _, paths := range rules {
					sort.Strings(paths)
				}
			}
			if flat(got) != flat(want) {
				t.Errorf("suppressed findings by rule\n%s\nwant\n%s", flat(got), flat(want))
			}
			if md := asMap(asMap(tp.ToJSON())["Metadata"])["cdk_nag"]; md != nil {
				t.Errorf("stack-wide cdk-nag suppression: %s", flat(md))
			}
		})
	}
}

// The fixes are checked by the rules themselves: edge logs (CFR3), the
// site bucket's access logs (S1), a rotating JWT secret (SMG4), execution
// logs (APIG6), no managed policy on our roles (IAM4) and, with an own
// domain, TLSv1.2_2021 (CFR4).
func TestCdkNagRulesFixedNotSuppressed(t *testing.T) {
	for _, name := range []string{mainStack, plainStack} {
		compliant := map[string]bool{}
		for _, r := range nagReport(t, name) {
			if r.Compliance == "Compliant" {
				compliant[r.Rule+" "+r.Path] = true
			}
		}
		want := []string{"CFR3 Site/Resource", "S1 SiteBucket/Resource", "S1 LogBucket/Resource", "SMG4 JwtSecret/Resource",
			"APIG6 Api/DeploymentStage.prod/Resource", "APIG1 Api/DeploymentStage.prod/Resource"}
		for _, fn := range lambdas.Names() {
			want = append(want, "IAM4 "+constructID(fn)+"Role/Resource")
		}
		if name == mainStack {
			want = append(want, "CFR4 Site/Resource")
		}
		for _, w := range want {
			if !compliant[w] {
				t.Errorf("%s: %s is not compliant", name, w)
			}
		}
	}
}

// The deploy guide's cdk-nag section lists every suppressed rule.
func TestDeployGuideListsTheSuppressions(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "deploy.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## cdk-nag")
	if !ok {
		t.Fatal(`docs/deploy.md has no "## cdk-nag" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, name := range []string{mainStack, plainStack} {
		for _, r := range nagReport(t, name) {
			if r.Compliance == "Suppressed" && !strings.Contains(section, "AwsSolutions-"+r.Rule) {
				t.Errorf("docs/deploy.md's cdk-nag section does not list AwsSolutions-%s", r.Rule)
			}
		}
	}
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// constructID turns stripe-webhook into StripeWebhook, as the stack names
// constructs.
func constructID(fn string) string {
	return strings.TrimSuffix(stack.FunctionID(fn), "Function")
}
