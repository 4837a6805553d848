package stack_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"

	"aiwork/infra/stack"
)

// Secrets Manager rotates the JWT secret, and only that secret, with the
// jwt-rotation function every jwtRotationDays (30 by default); the first
// rotation waits for the schedule instead of running at deploy.
func TestJWTSecretRotatesOnSchedule(t *testing.T) {
	for name, days := range map[string]string{mainStack: "14", plainStack: "30"} {
		tp := synth(t, name)
		jwt := secretLogicalIDs(t, tp)[stack.SecretJWT]
		fnID, _ := tp.function(t, stack.RotationFunction)
		schedules := tp.ofType("AWS::SecretsManager::RotationSchedule")
		if len(schedules) != 1 {
			t.Fatalf("%s: rotation schedules %v, want the JWT secret's only", name, schedules)
		}
		s := tp.Resources[schedules[0]]
		if ref(props(s, "SecretId")) != jwt {
			t.Errorf("%s: rotation of %s, want %s", name, flat(props(s, "SecretId")), jwt)
		}
		if got := flat(props(s, "RotationLambdaARN")); got != flat(getAtt(fnID, "Arn")) {
			t.Errorf("%s: rotation function %s, want %s", name, got, fnID)
		}
		if got := props(s, "RotationRules", "ScheduleExpression"); got != "rate("+days+" days)" {
			t.Errorf("%s: schedule %v, want rate(%s days)", name, got, days)
		}
		if got := props(s, "RotateImmediatelyOnUpdate"); got != false {
			t.Errorf("%s: RotateImmediatelyOnUpdate = %v, want false", name, got)
		}
		var invoke bool
		for _, id := range tp.ofType("AWS::Lambda::Permission") {
			p := tp.Resources[id]
			if ref(props(p, "FunctionName")) == fnID {
				invoke = props(p, "Principal") == "secretsmanager.amazonaws.com" && props(p, "Action") == "lambda:InvokeFunction"
				if !invoke {
					t.Errorf("%s: permission %s on the rotation function", name, flat(p.Properties))
				}
			}
		}
		if !invoke {
			t.Errorf("%s: Secrets Manager may not invoke %s", name, stack.RotationFunction)
		}
	}
}

// The rotation function is built like the others (Go, provided.al2023,
// arm64, bootstrap), has no environment variables, and may touch the JWT
// secret only: the four rotation actions on it, and GetRandomPassword,
// which has no resource. No table, no other secret.
func TestRotationFunctionTouchesTheJWTSecretOnly(t *testing.T) {
	tp := synth(t, mainStack)
	jwt := secretLogicalIDs(t, tp)[stack.SecretJWT]
	_, fn := tp.function(t, stack.RotationFunction)
	for key, want := range map[string]any{"Runtime": "provided.al2023", "Handler": "bootstrap"} {
		if got := props(fn, key); got != want {
			t.Errorf("%s = %v, want %v", key, got, want)
		}
	}
	if got := flat(props(fn, "Architectures")); got != `["arm64"]` {
		t.Errorf("Architectures = %s", got)
	}
	if env := props(fn, "Environment"); env != nil {
		t.Errorf("environment %s, want none", flat(env))
	}
	var rotate, random bool
	for _, st := range rolePolicies(tp, ref(props(fn, "Role"))) {
		all := strings.Join(sortedSet(st.Actions), " ")
		switch {
		case all == "secretsmanager:DescribeSecret secretsmanager:GetSecretValue secretsmanager:PutSecretValue secretsmanager:UpdateSecretVersionStage":
			rotate = true
			if len(st.Resources) != 1 || ref(st.Resources[0]) != jwt {
				t.Errorf("rotation actions on %s, want the JWT secret %s only", flat(st.Resources), jwt)
			}
		case all == "secretsmanager:GetRandomPassword":
			random = true
		default:
			t.Errorf("unexpected statement %s", flat(st.Raw))
		}
	}
	if !rotate || !random {
		t.Errorf("rotation grants %v, GetRandomPassword %v; want both", rotate, random)
	}
}

// The API functions read the JWT key's previous version (AWSPREVIOUS) as
// well as the current one: their grant names no version stage.
func TestJWTReadersMayReadThePreviousKey(t *testing.T) {
	tp := synth(t, mainStack)
	jwt := secretLogicalIDs(t, tp)[stack.SecretJWT]
	readers := 0
	for _, g := range allFunctions() {
		_, fn := tp.function(t, g.Function)
		for _, st := range rolePolicies(tp, ref(props(fn, "Role"))) {
			for _, r := range st.Resources {
				if ref(r) != jwt {
					continue
				}
				readers++
				if c := st.Raw["Condition"]; c != nil {
					t.Errorf("%s reads the JWT secret under condition %s; want every version stage", g.Function, flat(c))
				}
			}
		}
	}
	if want := 9; readers != want { // every API function but the webhook
		t.Errorf("%d functions read the JWT secret, want %d", readers, want)
	}
}

func TestRotationDaysAreChecked(t *testing.T) {
	lambdaDir, webappDir, err := dummyAssets(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, days := range []int{-1, stack.MaxJWTRotationDays + 1} {
		_, err := stack.NewAIWorkStack(awscdk.NewApp(nil), "BadDays", &stack.Props{LambdaDir: lambdaDir, WebappDir: webappDir, JWTRotationDays: days})
		if err == nil || !strings.Contains(err.Error(), "days") {
			t.Errorf("JWTRotationDays %d: err = %v", days, err)
		}
	}
}
