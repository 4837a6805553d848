package stack

import (
	"fmt"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awseventstargets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/lambdas"
)

// JobRuleID is the construct id of a job's EventBridge rule (McpSyncSchedule).
func JobRuleID(job string) string { return constructID(job) + "Schedule" }

// newJobs schedules every job of lambdas.All: an EventBridge rule with the
// job's schedule expression invokes its function with the constant input
// {"job": "<name>"}, the event the devserver builds for the same job.
func newJobs(scope constructs.Construct, fns map[string]awslambda.Function) error {
	seen := map[string]bool{}
	for _, j := range lambdas.Jobs() {
		fn, ok := fns[j.Function]
		if !ok {
			return fmt.Errorf("job %s runs on %q, which the stack did not make", j.Name, j.Function)
		}
		if seen[j.Name] {
			return fmt.Errorf("job %s is listed twice in shared/lambdas", j.Name)
		}
		seen[j.Name] = true
		if !strings.HasPrefix(j.Schedule, "rate(") && !strings.HasPrefix(j.Schedule, "cron(") {
			return fmt.Errorf("job %s: schedule %q is not an EventBridge rate(…) or cron(…) expression", j.Name, j.Schedule)
		}
		awsevents.NewRule(scope, jsii.String(JobRuleID(j.Name)), &awsevents.RuleProps{
			Description: jsii.String("job " + j.Name + " on " + j.Function + ", " + j.Schedule),
			Schedule:    awsevents.Schedule_Expression(jsii.String(j.Schedule)),
			Targets: &[]awsevents.IRuleTarget{
				awseventstargets.NewLambdaFunction(fn, &awseventstargets.LambdaFunctionProps{
					Event: awsevents.RuleTargetInput_FromObject(map[string]any{"job": j.Name}),
				}),
			},
		})
	}
	return nil
}
