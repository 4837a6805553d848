// Package store is the single-table DynamoDB data layer. Key builders and item
// shapes live only here; callers see domain types. Every state change is one
// conditional single-item write (DESIGN §5: no multi-item transactions; an
// admin's change is written after its audit line, audit.go).
//
// In AWS each function may make only the calls its IAM grant lists: the
// actions and partition key prefixes (keys.go) in lambdas (access.go). A
// handler that starts calling a method on another action or partition must
// add it there (shared/local/devstack's TestTableAccess fails on any call its run
// makes that a grant would refuse; extend its run with new paths).
package store

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/config"
)

// Store reads and writes the product table.
type Store struct {
	db    *dynamodb.Client
	table string
	// chatConns keeps the chat connections this process read.
	chatConns *chatConnCache
	// wordCounts keeps the counts of the search words' partitions.
	wordCounts *countCache
}

// ErrNotFound is returned when an item does not exist.
var ErrNotFound = errors.New("not found")

// ErrBadCursor: a page cursor this store did not give.
var ErrBadCursor = errors.New("bad page cursor")

// New connects to the table. With an endpoint override (dynalite) and no AWS
// credentials in the environment, static local credentials are used so a
// developer needs no AWS account.
func New(ctx context.Context, cfg config.Store) (*Store, error) {
	return NewFromAWS(config.AWS(cfg.Region), cfg), nil
}

// NewFromAWS builds the store from an already loaded SDK configuration.
func NewFromAWS(awsCfg aws.Config, cfg config.Store) *Store {
	if cfg.Endpoint != "" && os.Getenv("AWS_ACCESS_KEY_ID") == "" {
		awsCfg.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
	}
	db := dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) {
		o.EndpointResolverV2 = newCachedEndpoints()
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
	}, clientOptions(attemptTimeout(cfg)))
	return &Store{db: db, table: cfg.TableName, chatConns: &chatConnCache{}, wordCounts: &countCache{}}
}

// DB exposes the client for benchmarks and tests that compare raw queries.
func (s *Store) DB() *dynamodb.Client { return s.db }

// Table is the table name.
func (s *Store) Table() string { return s.table }

// conditional is a conditional write's outcome: failed when its condition
// did not hold, the error wrapped with op when it failed otherwise.
func conditional(op string, err, failed error) error {
	if isConditionFailed(err) {
		return failed
	}
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

func isConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}
