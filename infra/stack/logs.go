package stack

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awss3"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// AccessLogRetentionDays is how long the log bucket keeps CloudFront's and
// the site bucket's access logs: long enough to investigate abuse or an
// incident noticed weeks later, short enough not to hoard visitors'
// addresses.
const AccessLogRetentionDays = 90

// Prefixes of the log bucket: one per source.
const (
	CloudFrontLogPrefix = "cloudfront/"
	SiteBucketLogPrefix = "site-bucket/"
)

// newLogBucket holds CloudFront's standard access logs and the site
// bucket's server access logs: private, SSE-S3, TLS only, expiring after
// AccessLogRetentionDays. CloudFront's standard logging writes through an
// ACL grant to its log-delivery account, so ACLs stay enabled
// (BUCKET_OWNER_PREFERRED: the bucket still owns every object). Kept when
// the stack is deleted: logs are evidence.
func newLogBucket(scope constructs.Construct) awss3.Bucket {
	return awss3.NewBucket(scope, jsii.String("LogBucket"), &awss3.BucketProps{
		BlockPublicAccess: awss3.BlockPublicAccess_BLOCK_ALL(),
		EnforceSSL:        jsii.Bool(true),
		Encryption:        awss3.BucketEncryption_S3_MANAGED,
		ObjectOwnership:   awss3.ObjectOwnership_BUCKET_OWNER_PREFERRED,
		LifecycleRules: &[]*awss3.LifecycleRule{{
			Id:                                  jsii.String("expire-access-logs"),
			Expiration:                          awscdk.Duration_Days(jsii.Number(AccessLogRetentionDays)),
			AbortIncompleteMultipartUploadAfter: awscdk.Duration_Days(jsii.Number(1)),
		}},
		RemovalPolicy: awscdk.RemovalPolicy_RETAIN,
	})
}

// functionLogging is a function's log group and its role. The role has no
// managed policy (AWSLambdaBasicExecutionRole would let it write to every
// log group of the account): an inline policy lets it write to its own log
// group only, which exists before the function runs, so it needs no
// logs:CreateLogGroup. Grants go to the role's default policy as before.
func functionLogging(scope constructs.Construct, id, description string) (awslogs.LogGroup, awsiam.Role) {
	logs := awslogs.NewLogGroup(scope, jsii.String(id+"Logs"), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_ONE_MONTH,
		RemovalPolicy: awscdk.RemovalPolicy_DESTROY,
	})
	role := awsiam.NewRole(scope, jsii.String(id+"Role"), &awsiam.RoleProps{
		AssumedBy:   awsiam.NewServicePrincipal(jsii.String("lambda.amazonaws.com"), nil),
		Description: jsii.String("Lambda " + description),
		InlinePolicies: &map[string]awsiam.PolicyDocument{
			LogsPolicyName: awsiam.NewPolicyDocument(&awsiam.PolicyDocumentProps{
				Statements: &[]awsiam.PolicyStatement{awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Actions:   jsii.Strings("logs:CreateLogStream", "logs:PutLogEvents"),
					Resources: &[]*string{logs.LogGroupArn()},
				})},
			}),
		},
	})
	return logs, role
}

// LogsPolicyName is the inline policy of a function's role that lets it
// write its logs.
const LogsPolicyName = "WriteOwnLogs"
