package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"aiwork/shared/random"
)

// AuditEntry is one admin action: who, when, what, and the target before
// and after (JSON; null for a target made or removed).
type AuditEntry struct {
	ID         string
	At         time.Time
	ActorID    string
	ActorEmail string
	Action     string
	TargetType string
	TargetID   string
	Before     json.RawMessage
	After      json.RawMessage
	// Pending: the line was written and its change not confirmed (see
	// WithAudit).
	Pending bool
}

type auditItem struct {
	PK         string `dynamodbav:"PK"`
	SK         string `dynamodbav:"SK"`
	ID         string `dynamodbav:"id"`
	At         string `dynamodbav:"at"`
	ActorID    string `dynamodbav:"actor_id"`
	ActorEmail string `dynamodbav:"actor_email"`
	Action     string `dynamodbav:"action"`
	TargetType string `dynamodbav:"target_type"`
	TargetID   string `dynamodbav:"target_id"`
	Before     string `dynamodbav:"before,omitempty"`
	After      string `dynamodbav:"after,omitempty"`
	// Pending: written before its change, not yet marked done (the change
	// is under way, or its process died midway: it may not have happened).
	Pending bool `dynamodbav:"pending,omitempty"`
}

func (it auditItem) domain() AuditEntry {
	at, _ := time.Parse(time.RFC3339Nano, it.At)
	e := AuditEntry{ID: it.ID, At: at, ActorID: it.ActorID, ActorEmail: it.ActorEmail, Action: it.Action,
		TargetType: it.TargetType, TargetID: it.TargetID, Pending: it.Pending}
	if it.Before != "" {
		e.Before = json.RawMessage(it.Before)
	}
	if it.After != "" {
		e.After = json.RawMessage(it.After)
	}
	return e
}

// AuditSnapshot renders a target for an audit line (nil: none).
func AuditSnapshot(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// WithAudit runs an admin's change after its audit line: the line is
// written first (pending), then change runs; done, the line is marked so,
// failed, it is removed (the change did not happen). No change is ever
// without its line: a process that dies midway leaves the line pending,
// and the audit log shows it so. (DynamoDB transactions would make the two
// one write, but the local engine has none: DESIGN §5.)
func (s *Store) WithAudit(ctx context.Context, e AuditEntry, change func() error) error {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	if e.ID == "" {
		e.ID = random.Hex(6)
	}
	it := auditItem{PK: PKAudit, SK: auditSK(e.At, e.ID), ID: e.ID, At: e.At.UTC().Format(time.RFC3339Nano), ActorID: e.ActorID,
		ActorEmail: e.ActorEmail, Action: e.Action, TargetType: e.TargetType, TargetID: e.TargetID,
		Before: string(e.Before), After: string(e.After), Pending: true}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	// Whatever happens to the request now, the line is settled.
	settle := context.WithoutCancel(ctx)
	if err := change(); err != nil {
		if _, derr := s.db.DeleteItem(settle, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(PKAudit, it.SK)}); derr != nil {
			slog.WarnContext(ctx, "audit line of a failed change left pending", "audit", e.ID, "err", derr)
		}
		return err
	}
	if _, err := s.db.UpdateItem(settle, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(PKAudit, it.SK), UpdateExpression: aws.String("REMOVE pending"),
	}); err != nil {
		slog.WarnContext(ctx, "audit line of a done change left pending", "audit", e.ID, "err", err)
	}
	return nil
}

// AuditQuery filters the audit log: by actor (id or email) and by target
// (id), each matched whole.
type AuditQuery struct {
	Actor, Target string
	Limit         int
	Cursor        string
}

// matches reports whether the line it passes q's filters.
func (q AuditQuery) matches(it auditItem) bool {
	return (q.Actor == "" || strings.EqualFold(q.Actor, it.ActorID) || strings.EqualFold(q.Actor, it.ActorEmail)) &&
		(q.Target == "" || q.Target == it.TargetID)
}

// AuditCount counts the audit lines that pass q's filters (its Limit and
// Cursor aside): the total of the listing. Only the filtered attributes
// are read.
func (s *Store) AuditCount(ctx context.Context, q AuditQuery) (int, error) {
	in := partitionQuery(PKAudit, auditPrefix)
	in.TableName = aws.String(s.table)
	in.ProjectionExpression = aws.String("actor_id, actor_email, target_id")
	n := 0
	for {
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return 0, fmt.Errorf("audit count: %w", err)
		}
		for _, raw := range out.Items {
			var it auditItem
			if err := attributevalue.UnmarshalMap(raw, &it); err != nil {
				return 0, fmt.Errorf("audit count: %w", err)
			}
			if q.matches(it) {
				n++
			}
		}
		if out.LastEvaluatedKey == nil {
			return n, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// AuditLog lists audit lines, newest first, a page at a time (next: the
// cursor of the next page, "" on the last).
func (s *Store) AuditLog(ctx context.Context, q AuditQuery) (entries []AuditEntry, next string, err error) {
	in := partitionQuery(PKAudit, auditPrefix)
	in.TableName = aws.String(s.table)
	in.ScanIndexForward = aws.Bool(false)
	if q.Cursor != "" {
		sk, err := base64.RawURLEncoding.DecodeString(q.Cursor)
		if err != nil || !strings.HasPrefix(string(sk), auditPrefix) {
			return nil, "", ErrBadCursor
		}
		in.ExclusiveStartKey = key(PKAudit, string(sk))
	}
	for {
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, "", fmt.Errorf("audit log: %w", err)
		}
		for _, raw := range out.Items {
			var it auditItem
			if err := attributevalue.UnmarshalMap(raw, &it); err != nil {
				return nil, "", fmt.Errorf("audit log: %w", err)
			}
			e := it.domain()
			if !q.matches(it) {
				continue
			}
			entries = append(entries, e)
			if len(entries) == q.Limit {
				return entries, base64.RawURLEncoding.EncodeToString([]byte(it.SK)), nil
			}
		}
		if out.LastEvaluatedKey == nil {
			return entries, "", nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}
