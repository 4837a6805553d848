package stack_test

import (
	"strings"
	"testing"

	"aiwork/infra/stack"
)

type statement struct {
	Effect    string
	Actions   []string
	Resources []any
	Raw       map[string]any
}

// rolePolicies answers the statements of every AWS::IAM::Policy attached to
// the role with logical id role.
func rolePolicies(tp *tmpl, role string) []statement {
	var out []statement
	for _, id := range tp.ofType("AWS::IAM::Policy") {
		p := tp.Resources[id]
		attached := false
		for _, r := range props(p, "Roles").([]any) {
			attached = attached || ref(r) == role
		}
		if attached {
			out = append(out, statements(props(p, "PolicyDocument", "Statement"))...)
		}
	}
	return out
}

func statements(v any) []statement {
	var out []statement
	list, _ := v.([]any)
	for _, s := range list {
		m := s.(map[string]any)
		st := statement{Effect: m["Effect"].(string), Actions: strs(m["Action"]), Raw: m}
		switch r := m["Resource"].(type) {
		case []any:
			st.Resources = r
		case nil:
		default:
			st.Resources = []any{r}
		}
		out = append(out, st)
	}
	return out
}

func TestNoPolicyGrantsEveryActionOfAService(t *testing.T) {
	tp := synth(t, mainStack)
	check := func(where string, sts []statement) {
		for _, st := range sts {
			for _, a := range st.Actions {
				if st.Effect == "Allow" && (a == "*" || strings.HasSuffix(a, ":*")) {
					t.Errorf("%s allows %q", where, a)
				}
			}
		}
	}
	for _, id := range tp.ofType("AWS::IAM::Policy") {
		check(id, statements(props(tp.Resources[id], "PolicyDocument", "Statement")))
	}
	for _, id := range tp.ofType("AWS::IAM::Role") {
		for _, p := range asList(props(tp.Resources[id], "Policies")) {
			check(id, statements(p.(map[string]any)["PolicyDocument"].(map[string]any)["Statement"]))
		}
	}
}

func TestOnlyTheBasicExecutionRoleIsAManagedPolicy(t *testing.T) {
	tp := synth(t, mainStack)
	for _, id := range tp.ofType("AWS::IAM::Role") {
		for _, arn := range asList(props(tp.Resources[id], "ManagedPolicyArns")) {
			if !strings.Contains(flat(arn), `:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"`) {
				t.Errorf("role %s has managed policy %s", id, flat(arn))
			}
		}
	}
}

func TestEachFunctionReadsOnlyItsSecretsAndUsesTheTable(t *testing.T) {
	tp := synth(t, mainStack)
	secretIDs := secretLogicalIDs(t, tp)
	tableID := tp.ofType("AWS::DynamoDB::Table")[0]
	for _, g := range allFunctions() {
		t.Run(g.Function, func(t *testing.T) {
			_, fn := tp.function(t, g.Function)
			role := ref(props(fn, "Role"))
			var secrets []string
			var table, bedrock, ses bool
			for _, st := range rolePolicies(tp, role) {
				for _, a := range st.Actions {
					if strings.Contains(a, "*") {
						t.Errorf("action %q has a wildcard", a)
					}
				}
				all := strings.Join(st.Actions, " ")
				switch {
				case strings.Contains(all, "secretsmanager:"):
					if !strings.Contains(all, "secretsmanager:GetSecretValue") || strings.Contains(all, "Put") || strings.Contains(all, "Update") {
						t.Errorf("secret actions %v, want read only", st.Actions)
					}
					for _, r := range st.Resources {
						id := ref(r)
						if tp.Resources[id].Type != "AWS::SecretsManager::Secret" {
							t.Errorf("secret statement on %s, want one secret at a time", flat(r))
						}
						for name, sid := range secretIDs {
							if sid == id {
								secrets = append(secrets, name)
							}
						}
					}
				case strings.Contains(all, "dynamodb:"):
					for _, r := range st.Resources {
						if !strings.Contains(flat(r), tableID) {
							t.Errorf("dynamodb statement on %s, want the table and its indexes", flat(r))
						}
					}
					table = table || strings.Contains(all, "dynamodb:PutItem")
				case strings.Contains(all, "bedrock:"):
					bedrock = true
					for _, r := range st.Resources {
						if s := flat(r); !strings.Contains(s, "foundation-model/meta.llama") && !strings.Contains(s, "inference-profile/*.meta.llama") {
							t.Errorf("bedrock statement on %s, want Meta Llama models only", s)
						}
					}
					if want := "bedrock:InvokeModel bedrock:InvokeModelWithResponseStream"; all != want {
						t.Errorf("bedrock actions %q, want %q", all, want)
					}
				case strings.Contains(all, "ses:"):
					ses = true // checked in detail by TestOnlyAuthSendsMailAsTheSender
				default:
					t.Errorf("unexpected statement %s", flat(st.Raw))
				}
			}
			if want := sortedSet(wantSecrets[g.Function]); !equal(sortedSet(secrets), want) {
				t.Errorf("reads secrets %v, want exactly %v", sortedSet(secrets), want)
			}
			if !table {
				t.Error("no read/write grant on the table")
			}
			if bedrock != g.Streaming {
				t.Errorf("Bedrock access = %v, want it for the chat function only", bedrock)
			}
			if ses != (g.Function == "auth") {
				t.Errorf("SES access = %v, want it for the auth function only", ses)
			}
		})
	}
}

func TestBedrockOnlyWhenMetaLlamaIsOn(t *testing.T) {
	tp := synth(t, plainStack)
	for _, id := range tp.ofType("AWS::IAM::Policy") {
		if s := flat(props(tp.Resources[id], "PolicyDocument")); strings.Contains(s, "bedrock:") {
			t.Errorf("policy %s grants Bedrock without metaBedrock: %s", id, s)
		}
	}
}

func TestUsersCannotReadTheStripeKey(t *testing.T) {
	// The brief's example, spelled out: a function's policy names only its
	// own secrets.
	tp := synth(t, mainStack)
	stripe := secretLogicalIDs(t, tp)[stack.SecretStripeKey]
	_, users := tp.function(t, "users")
	for _, st := range rolePolicies(tp, ref(props(users, "Role"))) {
		for _, r := range st.Resources {
			if ref(r) == stripe {
				t.Fatalf("users may read the Stripe key: %s", flat(st.Raw))
			}
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
