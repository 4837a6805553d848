package stack

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"

	"aiwork/shared/store"
)

// newTable is the one table: on-demand, point-in-time recovery, TTL on
// expires_at, the overloaded GSI1 and the admin listings' sparse GSI2
// (only orders and accounts carry its keys), kept when the stack is
// deleted. Key and index names come from the store package, which the
// functions use.
func newTable(scope constructs.Construct) awsdynamodb.Table {
	str := awsdynamodb.AttributeType_STRING
	t := awsdynamodb.NewTable(scope, jsii.String("Table"), &awsdynamodb.TableProps{
		PartitionKey: &awsdynamodb.Attribute{Name: jsii.String(store.AttrPK), Type: str},
		SortKey:      &awsdynamodb.Attribute{Name: jsii.String(store.AttrSK), Type: str},
		BillingMode:  awsdynamodb.BillingMode_PAY_PER_REQUEST,
		PointInTimeRecoverySpecification: &awsdynamodb.PointInTimeRecoverySpecification{
			PointInTimeRecoveryEnabled: jsii.Bool(true),
		},
		TimeToLiveAttribute: jsii.String(store.AttrExpires),
		DeletionProtection:  jsii.Bool(true),
		RemovalPolicy:       awscdk.RemovalPolicy_RETAIN,
	})
	t.AddGlobalSecondaryIndex(&awsdynamodb.GlobalSecondaryIndexProps{
		IndexName:      jsii.String(store.IndexGSI1),
		PartitionKey:   &awsdynamodb.Attribute{Name: jsii.String(store.AttrGSI1PK), Type: str},
		SortKey:        &awsdynamodb.Attribute{Name: jsii.String(store.AttrGSI1SK), Type: str},
		ProjectionType: awsdynamodb.ProjectionType_ALL,
	})
	t.AddGlobalSecondaryIndex(&awsdynamodb.GlobalSecondaryIndexProps{
		IndexName:      jsii.String(store.IndexGSI2),
		PartitionKey:   &awsdynamodb.Attribute{Name: jsii.String(store.AttrGSI2PK), Type: str},
		SortKey:        &awsdynamodb.Attribute{Name: jsii.String(store.AttrGSI2SK), Type: str},
		ProjectionType: awsdynamodb.ProjectionType_ALL,
	})
	return t
}
