package stack_test

import (
	"slices"
	"strings"
	"testing"

	"aiwork/infra/stack"
	"aiwork/shared/lambdas"
)

// CloudFront's standard access logs and the site bucket's server access
// logs go to one private, SSE-S3, TLS-only bucket that keeps ACLs enabled
// for CloudFront's log delivery (bucket owner preferred), expires them
// after AccessLogRetentionDays and is kept when the stack goes.
func TestEdgeLogsGoToAPrivateExpiringBucket(t *testing.T) {
	for _, name := range []string{mainStack, plainStack} {
		tp := synth(t, name)
		logID, lb := tp.one(t, "AWS::S3::Bucket", "LogBucket")
		if got := flat(props(lb, "PublicAccessBlockConfiguration")); got != `{"BlockPublicAcls":true,"BlockPublicPolicy":true,"IgnorePublicAcls":true,"RestrictPublicBuckets":true}` {
			t.Errorf("%s: log bucket public access block = %s", name, got)
		}
		if got := flat(props(lb, "BucketEncryption")); !strings.Contains(got, `"SSEAlgorithm":"AES256"`) {
			t.Errorf("%s: log bucket encryption = %s", name, got)
		}
		if got := flat(props(lb, "OwnershipControls")); got != `{"Rules":[{"ObjectOwnership":"BucketOwnerPreferred"}]}` {
			t.Errorf("%s: log bucket ownership = %s, want BucketOwnerPreferred (CloudFront logs through ACLs)", name, got)
		}
		rules := asList(props(lb, "LifecycleConfiguration", "Rules"))
		if len(rules) != 1 || asMap(rules[0])["ExpirationInDays"] != float64(stack.AccessLogRetentionDays) || asMap(rules[0])["Status"] != "Enabled" {
			t.Errorf("%s: log bucket lifecycle = %s, want expiry after %d days", name, flat(rules), stack.AccessLogRetentionDays)
		}
		if lb.DeletionPolicy != "Retain" {
			t.Errorf("%s: log bucket DeletionPolicy = %q, want Retain", name, lb.DeletionPolicy)
		}
		var tlsOnly bool
		for _, id := range tp.ofType("AWS::S3::BucketPolicy") {
			if ref(props(tp.Resources[id], "Bucket")) != logID {
				continue
			}
			for _, st := range statements(props(tp.Resources[id], "PolicyDocument", "Statement")) {
				s := flat(st.Raw)
				tlsOnly = tlsOnly || st.Effect == "Deny" && strings.Contains(s, `"aws:SecureTransport":"false"`)
				if st.Effect == "Allow" && !strings.Contains(s, `"Service":"logging.s3.amazonaws.com"`) {
					t.Errorf("%s: log bucket policy allows %s", name, s)
				}
			}
		}
		if !tlsOnly {
			t.Errorf("%s: log bucket does not refuse plain HTTP", name)
		}

		_, cfg := distribution(t, tp)
		want := `{"Bucket":{"Fn::GetAtt":["` + logID + `","RegionalDomainName"]},"Prefix":"` + stack.CloudFrontLogPrefix + `"}`
		if got := flat(cfg["Logging"]); got != want {
			t.Errorf("%s: distribution logging = %s, want %s", name, got, want)
		}
		_, site := tp.one(t, "AWS::S3::Bucket", "SiteBucket")
		want = `{"DestinationBucketName":{"Ref":"` + logID + `"},"LogFilePrefix":"` + stack.SiteBucketLogPrefix + `"}`
		if got := flat(props(site, "LoggingConfiguration")); got != want {
			t.Errorf("%s: site bucket logging = %s, want %s", name, got, want)
		}
		if got := ref(tp.Outputs[stack.OutputLogBucket]["Value"]); got != logID {
			t.Errorf("%s: output %s = %s, want the log bucket", name, stack.OutputLogBucket, got)
		}
	}
}

// No role of ours carries a managed policy: each function's role (route
// groups, jobs, jwt-rotation) writes logs through an inline policy on its
// own log group only, kept a month. AWSLambdaBasicExecutionRole remains on
// the CDK's helper roles alone.
func TestFunctionRolesWriteOnlyTheirOwnLogGroup(t *testing.T) {
	tp := synth(t, mainStack)
	ours := map[string]bool{}
	for _, fn := range lambdas.Names() {
		_, f := tp.function(t, fn)
		role := ref(props(f, "Role"))
		ours[role] = true
		logs := ref(props(f, "LoggingConfig", "LogGroup"))
		if tp.Resources[logs].Type != "AWS::Logs::LogGroup" || props(tp.Resources[logs], "RetentionInDays") != float64(30) {
			t.Errorf("%s: log group %s, want its own with 30 days' retention", fn, logs)
		}
		r := tp.Resources[role]
		if got := props(r, "ManagedPolicyArns"); got != nil {
			t.Errorf("%s: role has managed policies %s", fn, flat(got))
		}
		inline := asList(props(r, "Policies"))
		if len(inline) != 1 || asMap(inline[0])["PolicyName"] != stack.LogsPolicyName {
			t.Fatalf("%s: inline policies %s, want %s only", fn, flat(inline), stack.LogsPolicyName)
		}
		sts := statements(asMap(asMap(inline[0])["PolicyDocument"])["Statement"])
		want := `[{"Action":["logs:CreateLogStream","logs:PutLogEvents"],"Effect":"Allow","Resource":{"Fn::GetAtt":["` + logs + `","Arn"]}}]`
		if got := flat(rawStatements(sts)); got != want {
			t.Errorf("%s: %s = %s, want %s", fn, stack.LogsPolicyName, got, want)
		}
		for _, st := range rolePolicies(tp, role) {
			if strings.Contains(strings.Join(st.Actions, " "), "logs:") {
				t.Errorf("%s: more log permissions %s", fn, flat(st.Raw))
			}
		}
	}
	for _, id := range tp.ofType("AWS::IAM::Role") {
		arns := asList(props(tp.Resources[id], "ManagedPolicyArns"))
		helper := strings.HasPrefix(id, "CustomCDKBucketDeployment") || strings.HasPrefix(id, "CustomS3AutoDeleteObjectsCustomResourceProvider")
		for _, arn := range arns {
			if ours[id] || !helper || !strings.Contains(flat(arn), `:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"`) {
				t.Errorf("role %s has managed policy %s", id, flat(arn))
			}
		}
	}
}

// The stage logs failures (ERROR) to a log group of API Gateway's fixed
// name made by the stack with a month's retention, never request or
// response bodies; the account role may write there.
func TestAPIExecutionLogsErrorsOnly(t *testing.T) {
	tp := synth(t, mainStack)
	stageID := tp.ofType("AWS::ApiGateway::Stage")[0]
	st := tp.Resources[stageID]
	var logged bool
	for _, ms := range asList(props(st, "MethodSettings")) {
		m := asMap(ms)
		if m["HttpMethod"] == "*" && m["ResourcePath"] == "/*" {
			logged = m["LoggingLevel"] == "ERROR" && m["DataTraceEnabled"] == false
		}
	}
	if !logged {
		t.Errorf("stage method settings %s, want LoggingLevel ERROR without data trace for every method", flat(props(st, "MethodSettings")))
	}
	execID, lg := tp.one(t, "AWS::Logs::LogGroup", "ApiExecutionLogs")
	api := tp.ofType("AWS::ApiGateway::RestApi")[0]
	if got, want := flat(props(lg, "LogGroupName")), `{"Fn::Join":["",["API-Gateway-Execution-Logs_",{"Ref":"`+api+`"},"/`+stack.StageName+`"]]}`; got != want {
		t.Errorf("execution log group name = %s, want %s", got, want)
	}
	if props(lg, "RetentionInDays") != float64(30) {
		t.Errorf("execution log retention = %v", props(lg, "RetentionInDays"))
	}
	if !slices.Contains(st.DependsOn, execID) {
		t.Errorf("stage DependsOn %v, want the execution log group first", st.DependsOn)
	}
	roleID, _ := tp.one(t, "AWS::IAM::Role", "ApiGatewayCloudWatchRole")
	var writes bool
	for _, s := range rolePolicies(tp, roleID) {
		if strings.Contains(strings.Join(s.Actions, " "), "logs:PutLogEvents") && strings.Contains(flat(s.Resources), `"Fn::GetAtt":["`+execID+`","Arn"]`) {
			writes = true
		}
	}
	if !writes {
		t.Error("API Gateway's CloudWatch role may not write the execution log group")
	}
}

func rawStatements(sts []statement) []map[string]any {
	out := make([]map[string]any, len(sts))
	for i, s := range sts {
		out[i] = s.Raw
	}
	return out
}
