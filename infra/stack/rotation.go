package stack

import (
	"fmt"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/lambdas"
)

// RotationFunction rotates the JWT signing key (functions/jwt-rotation):
// Secrets Manager's four rotation steps (createSecret, setSecret,
// testSecret, finishSecret) on the secret it is invoked for, each new key 64
// letters and digits. The functions accept tokens signed by the current or
// the previous key (the token's kid header), so a rotation signs nobody out.
const RotationFunction = "jwt-rotation"

// JWT key rotation period (context jwtRotationDays): Secrets Manager
// schedules allow 1 to 1000 days.
const (
	DefaultJWTRotationDays = 30
	MaxJWTRotationDays     = 1000
)

// newJWTRotation schedules the rotation of the JWT secret every days days.
// The CDK's rotation schedule grants the function DescribeSecret,
// GetSecretValue, PutSecretValue and UpdateSecretVersionStage on that
// secret alone (and GetRandomPassword, which has no resource), and lets
// Secrets Manager invoke it. Nothing else: no table, no other secret, no
// environment beyond Lambda's own.
//
// The first rotation comes days after the schedule is created, not at
// deploy: in the deploy that adds it, functions still running the one-key
// code would refuse tokens signed by a key they have not loaded.
func newJWTRotation(scope constructs.Construct, lambdaDir string, secret awssecretsmanager.Secret, days int) (awslambda.Function, error) {
	if days < 1 || days > MaxJWTRotationDays {
		return nil, fmt.Errorf("JWT rotation every %d days: want 1 to %d", days, MaxJWTRotationDays)
	}
	spec, ok := lambdas.Get(RotationFunction)
	if !ok {
		return nil, fmt.Errorf("no %s in shared/lambdas", RotationFunction)
	}
	fn, err := newGoFunction(scope, goFunctionProps{
		Function:       RotationFunction,
		Description:    "rotates " + SecretJWT + " (Secrets Manager rotation, every " + fmt.Sprint(days) + " days)",
		LambdaDir:      lambdaDir,
		MemoryMB:       spec.MemoryMB,
		TimeoutSeconds: int(spec.Timeout.Seconds()),
	})
	if err != nil {
		return nil, err
	}
	secret.AddRotationSchedule(jsii.String("Rotation"), &awssecretsmanager.RotationScheduleOptions{
		RotationLambda:            fn,
		AutomaticallyAfter:        awscdk.Duration_Days(jsii.Number(days)),
		RotateImmediatelyOnUpdate: jsii.Bool(false),
	})
	return fn, nil
}
