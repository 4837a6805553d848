package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// Attribute and index names of the table; the CDK stack uses the same ones.
const (
	AttrPK      = "PK"
	AttrSK      = "SK"
	AttrGSI1PK  = "GSI1PK"
	AttrGSI1SK  = "GSI1SK"
	IndexGSI1   = "GSI1"
	AttrExpires = "expires_at"
	// GSI2 is the admin listings' sparse index: only orders, accounts,
	// creators and creators' prompts carry its keys (keys.go, GSI2Orders
	// and GSI2Users; creators.go, GSI2Creators and GSI2CreatorPrompts).
	AttrGSI2PK = "GSI2PK"
	AttrGSI2SK = "GSI2SK"
	IndexGSI2  = "GSI2"
)

// tableSchema is the table as the product uses it: its key, GSI1 and GSI2
// (each projecting every attribute), on demand.
func tableSchema(name string) *dynamodb.CreateTableInput {
	str := types.ScalarAttributeTypeS
	attr := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: str}
	}
	return &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			attr(AttrPK), attr(AttrSK), attr(AttrGSI1PK), attr(AttrGSI1SK), attr(AttrGSI2PK), attr(AttrGSI2SK),
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(AttrPK), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(AttrSK), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			indexSchema(IndexGSI1, AttrGSI1PK, AttrGSI1SK),
			indexSchema(IndexGSI2, AttrGSI2PK, AttrGSI2SK),
		},
	}
}

func indexSchema(name, pk, sk string) types.GlobalSecondaryIndex {
	return types.GlobalSecondaryIndex{
		IndexName: aws.String(name),
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange},
		},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}
}

// EnsureTable creates the table with its indexes when it is missing and
// waits until it is active; a table made before GSI2 existed gets it (see
// addGSI2). Safe to call on every start. (In AWS the CDK stack owns the
// table: this runs on the local engine, and in tests.)
func (s *Store) EnsureTable(ctx context.Context) error {
	desc, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)})
	var notFound *types.ResourceNotFoundException
	switch {
	case errors.As(err, &notFound):
		if err := s.createTable(ctx, s.table); err != nil {
			return err
		}
	case err != nil:
		return fmt.Errorf("describe table: %w", err)
	case !hasIndex(desc.Table, IndexGSI2):
		return s.addGSI2(ctx)
	}
	// A rebuild (addGSI2) that stopped after deleting the table left its
	// items in the copy: put them back.
	return s.restoreFrom(ctx, rebuildName(s.table))
}

func hasIndex(t *types.TableDescription, name string) bool {
	return t != nil && slices.ContainsFunc(t.GlobalSecondaryIndexes, func(g types.GlobalSecondaryIndexDescription) bool {
		return aws.ToString(g.IndexName) == name
	})
}

// createTable creates table name with the product's schema (one already
// there is fine) and waits until it is active.
func (s *Store) createTable(ctx context.Context, name string) error {
	_, err := s.db.CreateTable(ctx, tableSchema(name))
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return fmt.Errorf("create table %s: %w", name, err)
	}
	return s.waitActive(ctx, name)
}

func (s *Store) waitActive(ctx context.Context, name string) error {
	waiter := dynamodb.NewTableExistsWaiter(s.db, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond
		o.MaxDelay = time.Second
	})
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 2*time.Minute); err != nil {
		return fmt.Errorf("wait for table %s: %w", name, err)
	}
	return nil
}

// waitGone waits until table name, being deleted, is gone.
func (s *Store) waitGone(ctx context.Context, name string) error {
	waiter := dynamodb.NewTableNotExistsWaiter(s.db, func(o *dynamodb.TableNotExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond
		o.MaxDelay = time.Second
	})
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 2*time.Minute); err != nil {
		return fmt.Errorf("wait for table %s to go: %w", name, err)
	}
	return nil
}

// rebuildName is the copy a local table is rebuilt through.
func rebuildName(table string) string { return table + ".rebuild" }

// addGSI2 adds GSI2 to a table made before it. DynamoDB adds an index to a
// live table (UpdateTable) and fills it from the items that have its keys;
// the local engine (dynalite) refuses that request, so there the table is
// rebuilt with the new schema: every item copied to a new table, the old
// one deleted and made again, the items copied back, the copy deleted. A
// run stopped midway is finished by the next EnsureTable (the copy is kept
// until the items are back). Either way the items stored before GSI2 have
// no GSI2 keys yet: BackfillAdminIndex gives them theirs.
func (s *Store) addGSI2(ctx context.Context) error {
	schema := tableSchema(s.table)
	_, err := s.db.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:            aws.String(s.table),
		AttributeDefinitions: schema.AttributeDefinitions,
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String(IndexGSI2), KeySchema: schema.GlobalSecondaryIndexes[1].KeySchema, Projection: schema.GlobalSecondaryIndexes[1].Projection,
		}}},
	})
	var apiErr smithy.APIError
	if err != nil && !(errors.As(err, &apiErr) && apiErr.ErrorCode() == "ValidationException") {
		return fmt.Errorf("add %s: %w", IndexGSI2, err)
	}
	if err == nil {
		desc, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)})
		if err != nil {
			return fmt.Errorf("describe table: %w", err)
		}
		if hasIndex(desc.Table, IndexGSI2) {
			return s.waitIndex(ctx, IndexGSI2)
		}
	}
	// The local engine refused or ignored the new index: rebuild.
	slog.InfoContext(ctx, "rebuilding the local table with the admin listings' index", "table", s.table, "index", IndexGSI2)
	copyName := rebuildName(s.table)
	if err := s.createTable(ctx, copyName); err != nil {
		return err
	}
	if err := s.copyItems(ctx, s.table, copyName); err != nil {
		return err
	}
	if _, err := s.db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(s.table)}); err != nil {
		return fmt.Errorf("delete table for rebuild: %w", err)
	}
	if err := s.waitGone(ctx, s.table); err != nil {
		return err
	}
	if err := s.createTable(ctx, s.table); err != nil {
		return err
	}
	return s.restoreFrom(ctx, copyName)
}

// waitIndex waits until index is active (DynamoDB builds a new index in
// the background).
func (s *Store) waitIndex(ctx context.Context, index string) error {
	for delay := 50 * time.Millisecond; ; delay = min(2*delay, 5*time.Second) {
		desc, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)})
		if err != nil {
			return fmt.Errorf("describe table: %w", err)
		}
		for _, g := range desc.Table.GlobalSecondaryIndexes {
			if aws.ToString(g.IndexName) == index && g.IndexStatus == types.IndexStatusActive {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}

// restoreFrom copies every item of table from (a rebuild's copy) into the
// table and deletes from, waiting until it is gone (a table is deleted in
// the background: a later call must not find it half there); nothing to do
// when from does not exist or is being deleted (restored already).
func (s *Store) restoreFrom(ctx context.Context, from string) error {
	desc, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(from)})
	var notFound *types.ResourceNotFoundException
	if errors.As(err, &notFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("describe %s: %w", from, err)
	}
	if desc.Table.TableStatus != types.TableStatusDeleting {
		if err := s.copyItems(ctx, from, s.table); err != nil {
			return err
		}
		if _, err := s.db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(from)}); err != nil && !errors.As(err, &notFound) {
			return fmt.Errorf("delete %s: %w", from, err)
		}
	}
	return s.waitGone(ctx, from)
}

// copyItems writes every item of table from into table to (overwriting).
// Local rebuilds only: a scan of the whole table.
func (s *Store) copyItems(ctx context.Context, from, to string) error {
	p := dynamodb.NewScanPaginator(s.db, &dynamodb.ScanInput{TableName: aws.String(from), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("copy %s: %w", from, err)
		}
		for _, item := range page.Items {
			if _, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(to), Item: item}); err != nil {
				return fmt.Errorf("copy %s to %s: %w", from, to, err)
			}
		}
	}
	return nil
}
