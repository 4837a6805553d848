package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// DynamoDB holds a number of at most 38 significant digits whose magnitude
// is 0 or from 1E-130 to 9.99…E+125; it refuses any other with a
// ValidationException, which would be an internal error. The routes hold
// each field to its own range; numberGuard is the last line: a number the
// table cannot hold is refused before the call, as the client's mistake.
const (
	maxNumberDigits   = 38
	maxNumberExponent = 125
	minNumberExponent = -130
)

// NumberRangeError is a write refused because a number in it is one the
// table cannot hold.
type NumberRangeError struct {
	Attribute string // where in the item, as stored ("usage.CostUSD")
	Number    string
}

func (e *NumberRangeError) Error() string {
	return fmt.Sprintf("number out of the table's range: %s = %s", e.Attribute, e.Number)
}

// InvalidDetail is what the client is told (httpx answers it as a 400
// without importing the store).
func (e *NumberRangeError) InvalidDetail() string {
	return fmt.Sprintf("%s is out of range: a number can have at most %d significant digits and must be 0 or from 1e%d to 1e%d in size.",
		e.Attribute, maxNumberDigits, minNumberExponent, maxNumberExponent+1)
}

// numberFits reports whether DynamoDB can hold the number n (its decimal
// text, as the SDK encodes it). Text that is no number is left to
// DynamoDB to refuse.
func numberFits(n string) bool {
	s := strings.TrimLeft(n, "+-")
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			e = 1 << 30 // beyond any range; zero still fits (below)
			if strings.HasPrefix(s[i+1:], "-") {
				e = -e
			}
		}
		s, exp = s[:i], e
	}
	intPart, frac, _ := strings.Cut(s, ".")
	digits := intPart + frac
	lead := len(digits) - len(strings.TrimLeft(digits, "0"))
	sig := strings.TrimRight(digits[lead:], "0")
	if sig == "" {
		return true // zero
	}
	if len(sig) > maxNumberDigits {
		return false
	}
	// The exponent of the first significant digit (1.23E+e).
	e := len(intPart) - lead - 1 + exp
	return e >= minNumberExponent && e <= maxNumberExponent
}

// outOfRange answers the path of the first number in avs the table cannot
// hold, under prefix.
func outOfRange(avs map[string]types.AttributeValue, prefix string) (path, number string, found bool) {
	for name, av := range avs {
		if p, n, ok := badNumber(av, prefix+name); ok {
			return p, n, true
		}
	}
	return "", "", false
}

func badNumber(av types.AttributeValue, path string) (string, string, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberN:
		if !numberFits(v.Value) {
			return path, v.Value, true
		}
	case *types.AttributeValueMemberNS:
		for _, n := range v.Value {
			if !numberFits(n) {
				return path, n, true
			}
		}
	case *types.AttributeValueMemberL:
		for i, e := range v.Value {
			if p, n, ok := badNumber(e, fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, n, true
			}
		}
	case *types.AttributeValueMemberM:
		return outOfRange(v.Value, path+".")
	}
	return "", "", false
}

// writtenValues are the attribute values a call sends: an item's, and an
// expression's (named by their placeholder without its colon).
func writtenValues(params any) []map[string]types.AttributeValue {
	var out []map[string]types.AttributeValue
	values := func(eav map[string]types.AttributeValue) {
		if len(eav) == 0 {
			return
		}
		named := make(map[string]types.AttributeValue, len(eav))
		for k, v := range eav {
			named[strings.TrimPrefix(k, ":")] = v
		}
		out = append(out, named)
	}
	switch in := params.(type) {
	case *dynamodb.PutItemInput:
		out = append(out, in.Item)
		values(in.ExpressionAttributeValues)
	case *dynamodb.UpdateItemInput:
		values(in.ExpressionAttributeValues)
	case *dynamodb.DeleteItemInput:
		values(in.ExpressionAttributeValues)
	case *dynamodb.QueryInput:
		values(in.ExpressionAttributeValues)
	case *dynamodb.ScanInput:
		values(in.ExpressionAttributeValues)
	case *dynamodb.BatchWriteItemInput:
		for _, reqs := range in.RequestItems {
			for _, r := range reqs {
				if r.PutRequest != nil {
					out = append(out, r.PutRequest.Item)
				}
			}
		}
	case *dynamodb.TransactWriteItemsInput:
		for _, t := range in.TransactItems {
			switch {
			case t.Put != nil:
				out = append(out, t.Put.Item)
				values(t.Put.ExpressionAttributeValues)
			case t.Update != nil:
				values(t.Update.ExpressionAttributeValues)
			case t.Delete != nil:
				values(t.Delete.ExpressionAttributeValues)
			case t.ConditionCheck != nil:
				values(t.ConditionCheck.ExpressionAttributeValues)
			}
		}
	}
	return out
}

// numberGuard refuses a call carrying a number the table cannot hold with
// a NumberRangeError, before it is sent.
func numberGuard(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("numberGuard",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			for _, avs := range writtenValues(in.Parameters) {
				if path, n, bad := outOfRange(avs, ""); bad {
					return middleware.InitializeOutput{}, middleware.Metadata{}, &NumberRangeError{Attribute: path, Number: n}
				}
			}
			return next.HandleInitialize(ctx, in)
		}), middleware.After)
}
