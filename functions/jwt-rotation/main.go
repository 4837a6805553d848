// Command jwt-rotation is the rotation function of the JWT signing key's
// secret: Secrets Manager invokes it for each rotation step.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"aiwork/shared/lambdaadapter"
	"aiwork/shared/secretrotation"
)

func main() {
	_, awsCfg, _ := lambdaadapter.Boot()
	lambda.Start(secretrotation.Rotator{SM: secretsmanager.NewFromConfig(awsCfg)}.Handle)
}
