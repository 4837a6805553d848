package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Why an answer to a server's question (an elicitation) is refused.
var (
	ErrElicitationUnknown = errors.New("elicitation unknown")
	ErrElicitationUsed    = errors.New("elicitation already answered")
	ErrElicitationExpired = errors.New("elicitation expired")
	// ErrElicitationOtherConnection: a paused reply answered from another
	// chat connection than the one it was paused on; it is left unanswered.
	ErrElicitationOtherConnection = errors.New("elicitation of another chat connection")
)

// Elicitation is a question an MCP server asked the user in the middle of a
// tool call, waiting for the answer, in the user's partition under the
// SHA-256 of its single-use token. It waits in one of two ways:
//   - Held: the tool call is still open on the instance that asked (the
//     server asked inside its tools/call); an answer is written to the item
//     (AnswerElicitation) and that instance, which polls it, goes on.
//   - Paused: nothing is held (the server asked through request state);
//     State is the paused reply, taken once by the answer that resumes it
//     (TakeElicitation), as a tool approval is.
type Elicitation struct {
	Held  bool
	State []byte
	// Request is the question as the card shows it (JSON, opaque here): a
	// reload reads it back, an answer is checked against its schema.
	Request      []byte
	ConnectionID string
	Expires      time.Time
	// The answer (Held only): its action and content (JSON), once given.
	Action  string
	Content []byte
}

// Answered reports whether a held elicitation got its answer.
func (e Elicitation) Answered() bool { return e.Action != "" }

const elicitationPrefix = "ELICIT#"

func elicitationSK(tokenHash string) string { return elicitationPrefix + tokenHash }

type elicitationItem struct {
	PK           string `dynamodbav:"PK"`
	SK           string `dynamodbav:"SK"`
	Held         bool   `dynamodbav:"held,omitempty"`
	State        []byte `dynamodbav:"state,omitempty"`
	Request      []byte `dynamodbav:"request,omitempty"`
	ConnectionID string `dynamodbav:"connection_id,omitempty"`
	ValidTo      int64  `dynamodbav:"valid_to"` // unix ms
	Action       string `dynamodbav:"action,omitempty"`
	Content      []byte `dynamodbav:"content,omitempty"`
	UsedAt       int64  `dynamodbav:"used_at,omitempty"`
	// ClosedAt: the call stopped waiting (the reply ended, was stopped,
	// or the question expired); a late answer is refused.
	ClosedAt  int64 `dynamodbav:"closed_at,omitempty"`
	ExpiresAt int64 `dynamodbav:"expires_at"` // TTL (unix s)
}

func (it elicitationItem) elicitation() Elicitation {
	return Elicitation{Held: it.Held, State: it.State, Request: it.Request, ConnectionID: it.ConnectionID,
		Expires: time.UnixMilli(it.ValidTo), Action: it.Action, Content: it.Content}
}

// SaveElicitation stores a question of uid's under the hash of its token.
func (s *Store) SaveElicitation(ctx context.Context, uid, tokenHash string, e Elicitation) error {
	it := elicitationItem{PK: userPK(uid), SK: elicitationSK(tokenHash), Held: e.Held, State: e.State, Request: e.Request,
		ConnectionID: e.ConnectionID, ValidTo: e.Expires.UnixMilli(), ExpiresAt: e.Expires.Add(approvalGrace).Unix()}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("save elicitation: %w", err)
	}
	return nil
}

// GetElicitation reads uid's question (ErrElicitationUnknown when uid has
// none by that hash: another user's token names nothing here).
func (s *Store) GetElicitation(ctx context.Context, uid, tokenHash string) (Elicitation, error) {
	var it elicitationItem
	switch err := s.getItem(ctx, userPK(uid), elicitationSK(tokenHash), &it); {
	case errors.Is(err, ErrNotFound):
		return Elicitation{}, ErrElicitationUnknown
	case err != nil:
		return Elicitation{}, fmt.Errorf("get elicitation: %w", err)
	}
	return it.elicitation(), nil
}

// AnswerElicitation gives a held question its answer, once: one
// conditional write sets it only if the question exists, is held, has no
// answer, is not closed and is still valid at now, so of concurrent answers
// exactly one counts. Refusals say why (ErrElicitationUnknown,
// ErrElicitationUsed for an answered or closed one, ErrElicitationExpired).
func (s *Store) AnswerElicitation(ctx context.Context, uid, tokenHash, action string, content []byte, now time.Time) error {
	pk, sk := userPK(uid), elicitationSK(tokenHash)
	if !keyFits(pk, sk) {
		return ErrElicitationUnknown
	}
	// Held, and not closed: a call that stopped waiting takes no answer.
	u := use{
		set:    "#action = :action",
		cond:   "held = :t AND attribute_not_exists(closed_at)",
		names:  map[string]string{"#action": "action"},
		values: map[string]types.AttributeValue{":action": &types.AttributeValueMemberS{Value: action}, ":t": &types.AttributeValueMemberBOOL{Value: true}},
	}
	if len(content) > 0 {
		u.set += ", content = :content"
		u.values[":content"] = &types.AttributeValueMemberB{Value: content}
	}
	switch used, err := s.useOnce(ctx, pk, sk, u, now, nil); {
	case err != nil:
		return fmt.Errorf("answer elicitation: %w", err)
	case used:
		return nil
	}
	return s.whyRefused(ctx, pk, sk, now, true, "")
}

// whyRefused reads a question whose conditional write failed and says why.
func (s *Store) whyRefused(ctx context.Context, pk, sk string, now time.Time, held bool, connID string) error {
	var it elicitationItem
	switch err := s.getItem(ctx, pk, sk, &it); {
	case errors.Is(err, ErrNotFound), err == nil && it.Held != held:
		return ErrElicitationUnknown
	case err != nil:
		return fmt.Errorf("answer elicitation: %w", err)
	case it.UsedAt != 0 || it.ClosedAt != 0 && it.ValidTo > now.UnixMilli():
		return ErrElicitationUsed
	case !held && it.ConnectionID != connID:
		return ErrElicitationOtherConnection
	default:
		return ErrElicitationExpired
	}
}

// ReopenElicitation takes back the answer written at answeredAt (its
// session turned out ended): the question waits for an answer again. A
// question answered at another time is left as it is.
func (s *Store) ReopenElicitation(ctx context.Context, uid, tokenHash string, answeredAt time.Time) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(userPK(uid), elicitationSK(tokenHash)),
		UpdateExpression:          aws.String("REMOVE #action, used_at, content"),
		ConditionExpression:       aws.String("used_at = :at"),
		ExpressionAttributeNames:  map[string]string{"#action": "action"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":at": &types.AttributeValueMemberN{Value: strconv.FormatInt(answeredAt.UnixMilli(), 10)}},
	})
	return conditional("reopen elicitation", err, nil) // nothing to do: answered at another time, or gone
}

// CloseElicitation marks a held question no longer waited for (its call
// ended without the answer): a later answer is refused.
func (s *Store) CloseElicitation(ctx context.Context, uid, tokenHash string, now time.Time) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       key(userPK(uid), elicitationSK(tokenHash)),
		UpdateExpression:          aws.String("SET closed_at = :now"),
		ConditionExpression:       aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":now": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.UnixMilli(), 10)}},
	})
	return conditional("close elicitation", err, nil) // gone: nothing to close
}

// TakeElicitation takes a paused reply's question once, from chat
// connection connID (as TakeToolApproval does): its state is cleared with
// the answer.
func (s *Store) TakeElicitation(ctx context.Context, uid, tokenHash, connID string, now time.Time) (Elicitation, error) {
	pk, sk := userPK(uid), elicitationSK(tokenHash)
	if !keyFits(pk, sk) {
		return Elicitation{}, ErrElicitationUnknown
	}
	var it elicitationItem
	used, err := s.useOnce(ctx, pk, sk, use{
		remove: "#state",
		cond:   "attribute_not_exists(held) AND connection_id = :conn",
		names:  map[string]string{"#state": "state"},
		values: map[string]types.AttributeValue{":conn": &types.AttributeValueMemberS{Value: connID}},
	}, now, &it)
	if err != nil {
		return Elicitation{}, fmt.Errorf("take elicitation: %w", err)
	}
	if used {
		return it.elicitation(), nil
	}
	return Elicitation{}, s.whyRefused(ctx, pk, sk, now, false, connID)
}
