package stack_test

import (
	"strings"
	"testing"

	"aiwork/shared/config"
)

// TestAdminInvokesMCPJobsOnly: the admin function runs Probe now and Sync
// in mcp-jobs: it gets that function's name and may invoke it, that
// function alone (its unqualified ARN, no wildcard); no other function
// may invoke any.
func TestAdminInvokesMCPJobsOnly(t *testing.T) {
	for _, name := range []string{mainStack, plainStack} {
		t.Run(name, func(t *testing.T) {
			tp := synth(t, name)
			jobsID, _ := tp.function(t, "mcp-jobs")
			for _, g := range allFunctions() {
				_, fn := tp.function(t, g.Function)
				env, _ := props(fn, "Environment", "Variables").(map[string]any)
				v, named := env[config.MCPJobsFunctionVar]
				var invoke []statement
				for _, st := range rolePolicies(tp, ref(props(fn, "Role"))) {
					if strings.Contains(strings.Join(st.Actions, " "), "lambda:") {
						invoke = append(invoke, st)
					}
				}
				if g.Function != "admin" {
					if named || len(invoke) > 0 {
						t.Errorf("%s: %s = %s, invoke statements %d; want neither", g.Function, config.MCPJobsFunctionVar, flat(v), len(invoke))
					}
					continue
				}
				if ref(v) != jobsID {
					t.Errorf("admin: %s = %s, want a Ref to %s", config.MCPJobsFunctionVar, flat(v), jobsID)
				}
				if len(invoke) != 1 {
					t.Fatalf("admin: %d invoke statements, want 1", len(invoke))
				}
				st := invoke[0]
				if st.Effect != "Allow" || strings.Join(st.Actions, " ") != "lambda:InvokeFunction" || len(st.Resources) != 1 ||
					flat(st.Resources[0]) != flat(getAtt(jobsID, "Arn")) {
					t.Errorf("admin: invoke statement %s, want lambda:InvokeFunction on %s's Arn only", flat(st.Raw), jobsID)
				}
			}
		})
	}
}
