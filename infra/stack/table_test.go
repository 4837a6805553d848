package stack_test

import (
	"strings"
	"testing"

	"aiwork/infra/stack"
	"aiwork/shared/store"
)

func TestTableIsOnDemandRecoverableAndKept(t *testing.T) {
	tp := synth(t, mainStack)
	tables := tp.ofType("AWS::DynamoDB::Table")
	if len(tables) != 1 {
		t.Fatalf("tables = %v, want one", tables)
	}
	tb := tp.Resources[tables[0]]
	checks := []struct {
		what string
		got  any
		want string
	}{
		{"BillingMode", props(tb, "BillingMode"), `"PAY_PER_REQUEST"`},
		{"PITR", props(tb, "PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled"), `true`},
		{"TTL", props(tb, "TimeToLiveSpecification"), `{"AttributeName":"` + store.AttrExpires + `","Enabled":true}`},
		{"KeySchema", props(tb, "KeySchema"), `[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}]`},
		{"DeletionPolicy", tb.DeletionPolicy, `"Retain"`},
		{"UpdateReplacePolicy", tb.UpdateReplace, `"Retain"`},
	}
	for _, c := range checks {
		if got := flat(c.got); got != c.want {
			t.Errorf("%s = %s, want %s", c.what, got, c.want)
		}
	}
	gsis := asList(props(tb, "GlobalSecondaryIndexes"))
	if len(gsis) != 2 {
		t.Fatalf("GSIs = %s, want GSI1 and GSI2", flat(gsis))
	}
	for i, name := range []string{store.IndexGSI1, store.IndexGSI2} {
		gsi := gsis[i].(map[string]any)
		if gsi["IndexName"] != name ||
			flat(gsi["KeySchema"]) != `[{"AttributeName":"`+name+`PK","KeyType":"HASH"},{"AttributeName":"`+name+`SK","KeyType":"RANGE"}]` ||
			flat(gsi["Projection"]) != `{"ProjectionType":"ALL"}` {
			t.Errorf("GSI = %s", flat(gsi))
		}
	}
}

func TestSecretsKeysGeneratedOthersForTheOperator(t *testing.T) {
	tp := synth(t, mainStack)
	ids := secretLogicalIDs(t, tp)
	if len(ids) != 10 {
		t.Errorf("secrets = %v, want 10", ids)
	}
	for name, id := range ids {
		s := tp.Resources[id]
		if want := `"` + stack.SecretName(mainStack, name) + `"`; flat(props(s, "Name")) != want {
			t.Errorf("%s name = %s, want %s", name, flat(props(s, "Name")), want)
		}
		gen, value := props(s, "GenerateSecretString"), props(s, "SecretString")
		if name == stack.SecretJWT || name == stack.SecretMCPKeyEncryptionKey || name == stack.SecretOrigin {
			if length, _ := props(s, "GenerateSecretString", "PasswordLength").(float64); length < 32 || value != nil {
				t.Errorf("%s: generate %s, value %v; want a generated key of 32+ characters", name, flat(gen), value)
			}
			continue
		}
		if gen != nil || value != stack.Unset || strings.TrimSpace(stack.Unset) != "" {
			t.Errorf("%s: generate %s, value %q; want the blank placeholder", name, flat(gen), value)
		}
	}
}
