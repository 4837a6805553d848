package stack_test

import (
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/lambdas"
)

// wantJobs spells the schedules out rather than reading lambdas.Jobs(), so a
// changed schedule is a visible change here.
var wantJobs = []struct{ Name, Function, Schedule string }{
	{"mcp-sync", "mcp-jobs", "rate(1 day)"},
	{"mcp-probe", "mcp-jobs", "rate(15 minutes)"},
}

func TestEachJobIsAScheduleInvokingItsFunctionWithItsName(t *testing.T) {
	tp := synth(t, mainStack)
	if len(lambdas.Jobs()) != len(wantJobs) {
		t.Errorf("lambdas.Jobs() has %d jobs, this test knows %d", len(lambdas.Jobs()), len(wantJobs))
	}
	check(t, "one rule per job", func() {
		tp.ResourceCountIs(jsii.String("AWS::Events::Rule"), jsii.Number(len(lambdas.Jobs())))
	})
	for _, j := range wantJobs {
		t.Run(j.Name, func(t *testing.T) {
			fnID, _ := tp.function(t, j.Function)
			rule := map[string]any{
				"ScheduleExpression": j.Schedule,
				"State":              "ENABLED",
				// Exactly one target: the job's function, told which job.
				"Targets": assertions.Match_ArrayEquals(&[]any{
					assertions.Match_ObjectLike(&map[string]any{
						"Arn":   getAtt(fnID, "Arn"),
						"Input": assertions.Match_SerializedJson(assertions.Match_ObjectEquals(&map[string]any{"job": j.Name})),
					}),
				}),
			}
			check(t, "rule", func() { tp.HasResourceProperties(jsii.String("AWS::Events::Rule"), rule) })

			// EventBridge may invoke the function, from this rule only.
			rules := tp.FindResources(jsii.String("AWS::Events::Rule"), map[string]any{"Properties": rule})
			if rules == nil || len(*rules) != 1 {
				t.Fatalf("rules for %s: %v, want 1", j.Name, rules)
			}
			for ruleID := range *rules {
				check(t, "invoke permission", func() {
					tp.HasResourceProperties(jsii.String("AWS::Lambda::Permission"), map[string]any{
						"Action":       "lambda:InvokeFunction",
						"FunctionName": getAtt(fnID, "Arn"),
						"Principal":    "events.amazonaws.com",
						"SourceArn":    getAtt(ruleID, "Arn"),
					})
				})
			}
		})
	}
}

// Job functions serve schedules only: no API route, and no permission
// for anyone but EventBridge rules to invoke them.
func TestJobFunctionsHaveNoAPIRoute(t *testing.T) {
	tp := synth(t, mainStack)
	routesByKey := apiRoutes(t, tp)
	for _, f := range allFunctions() {
		if !f.Job {
			continue
		}
		t.Run(f.Function, func(t *testing.T) {
			fnID, _ := tp.function(t, f.Function)
			for key, r := range routesByKey {
				if r.Function == fnID {
					t.Errorf("API route %s reaches job function %s", key, f.Function)
				}
			}
			for _, id := range tp.ofType("AWS::ApiGateway::Method") {
				for _, dep := range refsIn(tp.Resources[id].Properties) {
					if dep == fnID {
						t.Errorf("API method %s refers to job function %s", id, f.Function)
					}
				}
			}
			var perms int
			for _, id := range tp.ofType("AWS::Lambda::Permission") {
				p := tp.Resources[id]
				if !contains(refsIn(props(p, "FunctionName")), fnID) {
					continue
				}
				perms++
				source := ref(props(p, "SourceArn"))
				if props(p, "Principal") != "events.amazonaws.com" || tp.Resources[source].Type != "AWS::Events::Rule" {
					t.Errorf("permission %s lets %v (source %s) invoke %s, want EventBridge rules only",
						id, props(p, "Principal"), flat(props(p, "SourceArn")), f.Function)
				}
			}
			var jobs int
			for _, j := range lambdas.Jobs() {
				if j.Function == f.Function {
					jobs++
				}
			}
			if perms != jobs {
				t.Errorf("%d invoke permissions, want one per job (%d)", perms, jobs)
			}
		})
	}
}

func contains(xs []string, x string) bool {
	for _, e := range xs {
		if e == x {
			return true
		}
	}
	return false
}
