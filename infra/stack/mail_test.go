package stack_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"

	"aiwork/infra/stack"
)

// The auth function sends account mail through SES as MAIL_FROM only:
// ses:SendEmail on the identity ARNs of the address and of its domain, in
// the stack's account and region; no other function may send mail, and
// without mailFrom nobody may.
func TestOnlyAuthSendsMailAsTheSender(t *testing.T) {
	tp := synth(t, mainStack)
	_, fn := tp.function(t, "auth")
	if got := props(fn, "Environment", "Variables", "MAIL_FROM"); got != testMailFrom {
		t.Errorf("auth MAIL_FROM = %v, want %q", got, testMailFrom)
	}
	var found []statement
	for _, st := range rolePolicies(tp, ref(props(fn, "Role"))) {
		if strings.Contains(strings.Join(st.Actions, " "), "ses:") {
			found = append(found, st)
		}
	}
	if len(found) != 1 {
		t.Fatalf("auth has %d SES statements, want 1", len(found))
	}
	st := found[0]
	if st.Effect != "Allow" || strings.Join(st.Actions, " ") != "ses:SendEmail" {
		t.Errorf("SES statement %s, want Allow ses:SendEmail only", flat(st.Raw))
	}
	want := []string{
		"arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/no-reply@mail.example.com",
		"arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/mail.example.com",
	}
	if len(st.Resources) != len(want) {
		t.Fatalf("SES resources %v, want %v", st.Resources, want)
	}
	all := flat(st.Resources)
	for _, w := range want {
		if !strings.Contains(all, `{"Fn::Sub":"`+w+`"}`) {
			t.Errorf("SES resources %s, want %s among them", all, w)
		}
	}

	// Without mailFrom: no MAIL_FROM and no SES grant anywhere.
	plain := synth(t, plainStack)
	_, pfn := plain.function(t, "auth")
	if got := props(pfn, "Environment", "Variables", "MAIL_FROM"); got != nil {
		t.Errorf("MAIL_FROM = %v without mailFrom", got)
	}
	for _, id := range plain.ofType("AWS::IAM::Policy") {
		if s := flat(props(plain.Resources[id], "PolicyDocument")); strings.Contains(s, "ses:") {
			t.Errorf("policy %s grants SES without mailFrom: %s", id, s)
		}
	}
}

func TestSenderIdentities(t *testing.T) {
	for _, tt := range []struct{ in, address, domain string }{
		{"no-reply@example.com", "no-reply@example.com", "example.com"},
		{"AIWork <Hello@Mail.Example.org>", "hello@mail.example.org", "mail.example.org"},
	} {
		a, d, err := stack.SenderIdentities(tt.in)
		if err != nil || a != tt.address || d != tt.domain {
			t.Errorf("SenderIdentities(%q) = %q, %q, %v", tt.in, a, d, err)
		}
	}
	lambdaDir, webappDir, err := dummyAssets(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, err = stack.NewAIWorkStack(awscdk.NewApp(nil), "BadSender", &stack.Props{LambdaDir: lambdaDir, WebappDir: webappDir, MailFrom: "not an address"})
	if err == nil || !strings.Contains(err.Error(), "mailFrom") {
		t.Errorf("err = %v, want the bad mailFrom named", err)
	}
}
