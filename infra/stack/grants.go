package stack

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/lambdas"
	"aiwork/shared/store"
)

// grantTable gives fn exactly its Access (shared/lambdas) on the table: each
// action only on the partition keys it uses (a dynamodb:LeadingKeys
// condition, ForAllValues:StringLike), one statement per set of actions
// sharing the same keys, and Query on GSI1 and GSI2 only for the index
// keys it queries there. Nothing else: no Scan, batched write,
// transaction or table-level action (a BatchGetItem is held to the keys
// of every item it reads, as GetItem is).
func grantTable(fn awslambda.Function, table awsdynamodb.Table, f lambdas.Function) error {
	function, access := f.Name, f.Access
	if len(access.Table)+len(access.Index)+len(access.Index2) == 0 {
		return fmt.Errorf("function %q has no table access in shared/lambdas", function)
	}
	byKeys := map[string][]string{} // joined keys → actions
	for action, keys := range access.Table {
		if len(keys) == 0 {
			return fmt.Errorf("function %s: action %s on no partition key", function, action)
		}
		k := strings.Join(sortedCopy(keys), "\x00")
		byKeys[k] = append(byKeys[k], action)
	}
	for _, k := range slices.Sorted(maps.Keys(byKeys)) {
		actions := sortedCopy(byKeys[k])
		fn.AddToRolePolicy(leadingKeysStatement("Table"+strings.Join(actions, ""), actions, table.TableArn(), strings.Split(k, "\x00")))
	}
	if len(access.Index) > 0 {
		index := jsii.String(*table.TableArn() + "/index/" + store.IndexGSI1)
		fn.AddToRolePolicy(leadingKeysStatement("IndexQuery", []string{lambdas.Query}, index, sortedCopy(access.Index)))
	}
	if len(access.Index2) > 0 {
		index := jsii.String(*table.TableArn() + "/index/" + store.IndexGSI2)
		fn.AddToRolePolicy(leadingKeysStatement("Index2Query", []string{lambdas.Query}, index, sortedCopy(access.Index2)))
	}
	return nil
}

func leadingKeysStatement(sid string, actions []string, resource *string, keys []string) awsiam.PolicyStatement {
	full := make([]*string, len(actions))
	for i, a := range actions {
		full[i] = jsii.String("dynamodb:" + a)
	}
	return awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String(sid),
		Actions:   &full,
		Resources: &[]*string{resource},
		Conditions: &map[string]any{
			"ForAllValues:StringLike": map[string]any{"dynamodb:LeadingKeys": keys},
		},
	})
}

func sortedCopy(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}
