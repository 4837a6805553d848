package stack

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/jsii-runtime-go"
)

// grantInvokes gives each function that invokes another (lambdas.Function's
// Invokes: admin runs Probe now and Sync in mcp-jobs) that function's name
// in its environment and lambda:InvokeFunction on it alone: its unqualified
// ARN, no version or alias wildcard.
func grantInvokes(defs []lambdaDef, fns map[string]awslambda.Function) error {
	for _, d := range defs {
		for _, variable := range slices.Sorted(maps.Keys(d.Invokes)) {
			target, ok := fns[d.Invokes[variable]]
			if !ok {
				return fmt.Errorf("function %s invokes %q, which is not a function the stack makes", d.Name, d.Invokes[variable])
			}
			fn := fns[d.Name]
			fn.AddEnvironment(jsii.String(variable), target.FunctionName(), nil)
			fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
				Sid:       jsii.String("Invoke" + strings.ReplaceAll(titleCase(strings.ReplaceAll(d.Invokes[variable], "-", "_")), "_", "")),
				Actions:   jsii.Strings("lambda:InvokeFunction"),
				Resources: &[]*string{target.FunctionArn()},
			}))
		}
	}
	return nil
}
