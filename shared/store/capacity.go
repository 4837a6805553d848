package store

import (
	"context"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// Capacity adds up the read and write capacity DynamoDB reports for the
// calls made under a context from MeterCapacity: what an action costs on
// an on-demand table, measured rather than estimated (the local engine
// reports it the same way).
type Capacity struct {
	mu          sync.Mutex
	read, write float64
	calls       int
	scans       int
}

// Read is the read capacity units consumed so far.
func (c *Capacity) Read() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.read
}

// Write is the write capacity units consumed so far.
func (c *Capacity) Write() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.write
}

// Calls is how many metered calls were made.
func (c *Capacity) Calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// Scans is how many of the metered calls were Scans (each page one call):
// a request's work should find its items by key, never by reading the
// whole table.
func (c *Capacity) Scans() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scans
}

func (c *Capacity) add(units []types.ConsumedCapacity, write bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	for _, u := range units {
		if write {
			c.write += aws.ToFloat64(u.CapacityUnits)
		} else {
			c.read += aws.ToFloat64(u.CapacityUnits)
		}
	}
}

func (c *Capacity) scanned() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scans++
}

type capacityKey struct{}

// MeterCapacity answers a context under which every store call asks
// DynamoDB for its consumed capacity (ReturnConsumedCapacity TOTAL) and
// adds it to the Capacity answered.
func MeterCapacity(ctx context.Context) (context.Context, *Capacity) {
	c := &Capacity{}
	return context.WithValue(ctx, capacityKey{}, c), c
}

// meterCapacity is the client middleware MeterCapacity relies on: nothing
// for a call whose context is not metered.
func meterCapacity(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("meterCapacity",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			c, _ := ctx.Value(capacityKey{}).(*Capacity)
			if c == nil {
				return next.HandleInitialize(ctx, in)
			}
			total := types.ReturnConsumedCapacityTotal
			switch p := in.Parameters.(type) {
			case *dynamodb.GetItemInput:
				p.ReturnConsumedCapacity = total
			case *dynamodb.QueryInput:
				p.ReturnConsumedCapacity = total
			case *dynamodb.ScanInput:
				p.ReturnConsumedCapacity = total
			case *dynamodb.BatchGetItemInput:
				p.ReturnConsumedCapacity = total
			case *dynamodb.PutItemInput:
				p.ReturnConsumedCapacity = total
			case *dynamodb.UpdateItemInput:
				p.ReturnConsumedCapacity = total
			case *dynamodb.DeleteItemInput:
				p.ReturnConsumedCapacity = total
			case *dynamodb.BatchWriteItemInput:
				p.ReturnConsumedCapacity = total
			}
			out, md, err := next.HandleInitialize(ctx, in)
			one := func(u *types.ConsumedCapacity) []types.ConsumedCapacity {
				if u == nil {
					return nil
				}
				return []types.ConsumedCapacity{*u}
			}
			switch r := out.Result.(type) {
			case *dynamodb.GetItemOutput:
				c.add(one(r.ConsumedCapacity), false)
			case *dynamodb.QueryOutput:
				c.add(one(r.ConsumedCapacity), false)
			case *dynamodb.ScanOutput:
				c.add(one(r.ConsumedCapacity), false)
				c.scanned()
			case *dynamodb.BatchGetItemOutput:
				c.add(r.ConsumedCapacity, false)
			case *dynamodb.PutItemOutput:
				c.add(one(r.ConsumedCapacity), true)
			case *dynamodb.UpdateItemOutput:
				c.add(one(r.ConsumedCapacity), true)
			case *dynamodb.DeleteItemOutput:
				c.add(one(r.ConsumedCapacity), true)
			case *dynamodb.BatchWriteItemOutput:
				c.add(r.ConsumedCapacity, true)
			}
			return out, md, err
		}), middleware.After)
}
