package store

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// A session is one sign-in: an item USER#<uid> / SESSION#<sid> that lives
// as long as the token naming it (expires_at, the table's TTL attribute).
// Logout deletes it; a password reset or a Google take-over deletes all of
// the user's. The sessions sit in the user's partition, so deleting an
// account (DeleteUser) ends them with it.
type sessionItem struct {
	PK        string `dynamodbav:"PK"`
	SK        string `dynamodbav:"SK"`
	CreatedAt string `dynamodbav:"created_at"`
	ExpiresAt int64  `dynamodbav:"expires_at"`
}

// CreateSession opens session sid of user uid until expires.
func (s *Store) CreateSession(ctx context.Context, uid, sid string, expires time.Time) error {
	it := sessionItem{PK: userPK(uid), SK: sessionSK(sid), CreatedAt: time.Now().UTC().Format(time.RFC3339Nano), ExpiresAt: expires.Unix()}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// SessionLive reports whether session sid of uid is open: the item exists
// and has not expired (DynamoDB's TTL deletes late, so expiry is checked
// here too). It is the check every signed-in request makes, so it is one
// eventually consistent GetItem of a ~100-byte item (half a read unit);
// a session ended a moment ago may be seen for the replication lag (well
// under a second), a delay the product accepts.
func (s *Store) SessionLive(ctx context.Context, uid, sid string) (bool, error) {
	res, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:                aws.String(s.table),
		Key:                      key(userPK(uid), sessionSK(sid)),
		ProjectionExpression:     aws.String("#e"),
		ExpressionAttributeNames: map[string]string{"#e": AttrExpires},
	})
	if err != nil {
		return false, fmt.Errorf("session live: %w", err)
	}
	return sessionOpen(res.Item), nil
}

// sessionOpen reports whether a read session item (nil: none) is open.
func sessionOpen(item map[string]types.AttributeValue) bool {
	n, ok := item[AttrExpires].(*types.AttributeValueMemberN)
	if !ok {
		return false
	}
	exp, err := strconv.ParseInt(n.Value, 10, 64)
	return err == nil && time.Now().Unix() < exp
}

// EndSession closes one session (logout). Ending a closed one is a no-op.
func (s *Store) EndSession(ctx context.Context, uid, sid string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(userPK(uid), sessionSK(sid))})
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// EndSessions closes every session of uid and answers how many it closed.
// It reads them with a strongly consistent query, so a session created
// before the call started is seen and ended; a sign-in racing with it
// re-checks the password after opening its session (see authapi).
func (s *Store) EndSessions(ctx context.Context, uid string) (int, error) {
	n, err := s.deleteAll(ctx, userPK(uid), sessionPrefix)
	if err != nil {
		return 0, fmt.Errorf("end sessions: %w", err)
	}
	return n, nil
}

// deleteAll removes pk's items whose SK starts with prefix, one by one (no
// function batches), and answers how many it removed.
func (s *Store) deleteAll(ctx context.Context, pk, prefix string) (int, error) {
	keys, err := s.partitionKeys(ctx, pk, prefix)
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if _, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: k}); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// partitionKeys lists the keys of pk's items whose SK starts with prefix
// ("" for all), strongly consistent.
func (s *Store) partitionKeys(ctx context.Context, pk, prefix string) ([]map[string]types.AttributeValue, error) {
	in := partitionQuery(pk, prefix)
	in.ProjectionExpression = aws.String("PK, SK")
	return queryItems(ctx, s, in, "partition keys")
}
