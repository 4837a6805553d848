package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Attribute and index names of the table; the CDK stack uses the same ones.
const (
	AttrPK      = "PK"
	AttrSK      = "SK"
	AttrGSI1PK  = "GSI1PK"
	AttrGSI1SK  = "GSI1SK"
	IndexGSI1   = "GSI1"
	AttrExpires = "expires_at"
)

// EnsureTable creates the table with its GSI when it is missing and waits
// until it is active. Safe to call on every start.
func (s *Store) EnsureTable(ctx context.Context) error {
	_, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)})
	if err == nil {
		return nil
	}
	var notFound *types.ResourceNotFoundException
	if !errors.As(err, &notFound) {
		return fmt.Errorf("describe table: %w", err)
	}
	str := types.ScalarAttributeTypeS
	_, err = s.db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(s.table),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(AttrPK), AttributeType: str},
			{AttributeName: aws.String(AttrSK), AttributeType: str},
			{AttributeName: aws.String(AttrGSI1PK), AttributeType: str},
			{AttributeName: aws.String(AttrGSI1SK), AttributeType: str},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(AttrPK), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(AttrSK), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String(IndexGSI1),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(AttrGSI1PK), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(AttrGSI1SK), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return fmt.Errorf("create table: %w", err)
	}
	waiter := dynamodb.NewTableExistsWaiter(s.db, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond
		o.MaxDelay = time.Second
	})
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)}, 2*time.Minute); err != nil {
		return fmt.Errorf("wait for table: %w", err)
	}
	return nil
}
