package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Why a tool approval is refused.
var (
	ErrApprovalUnknown = errors.New("tool approval unknown")
	ErrApprovalUsed    = errors.New("tool approval already answered")
	ErrApprovalExpired = errors.New("tool approval expired")
	// ErrApprovalOtherConnection: answered from another chat connection
	// than the one the reply was paused on; the approval is left unanswered
	// for the right one.
	ErrApprovalOtherConnection = errors.New("tool approval of another chat connection")
)

// ToolApproval is a chat reply paused until its user approves or denies a
// tool call. State is the paused reply, opaque here (shared/chat encodes it).
type ToolApproval struct {
	State   []byte
	Expires time.Time
	// ConnectionID is the chat connection the reply was paused on: only an
	// answer from it takes the approval.
	ConnectionID string
	// Kind is what the reply waits for: "" the user's decision on the
	// call, ToolPauseSignIn their sign-in to the call's server. Only an
	// answer of its kind takes it; another kind's finds nothing.
	Kind string
}

// ToolPauseSignIn is the kind of a reply paused until its user signs in to
// the server of a tool call that asked for it.
const ToolPauseSignIn = "signin"

// approvalGrace keeps an answered or expired approval readable (so a replay
// is told "already answered" or "expired", not "unknown") before TTL
// removes it.
const approvalGrace = 24 * time.Hour

type toolApprovalItem struct {
	PK           string `dynamodbav:"PK"`
	SK           string `dynamodbav:"SK"`
	State        []byte `dynamodbav:"state"`
	ConnectionID string `dynamodbav:"connection_id,omitempty"`
	Kind         string `dynamodbav:"kind,omitempty"`
	ValidTo      int64  `dynamodbav:"valid_to"` // unix ms
	UsedAt       int64  `dynamodbav:"used_at,omitempty"`
	ExpiresAt    int64  `dynamodbav:"expires_at"` // TTL (unix s)
}

// SaveToolApproval stores a paused reply of uid under the hash of its
// token, in uid's partition: no other user can name it.
func (s *Store) SaveToolApproval(ctx context.Context, uid, tokenHash string, a ToolApproval) error {
	it := toolApprovalItem{
		PK: userPK(uid), SK: toolApprovalSK(tokenHash), State: a.State, ConnectionID: a.ConnectionID, Kind: a.Kind,
		ValidTo: a.Expires.UnixMilli(), ExpiresAt: a.Expires.Add(approvalGrace).Unix(),
	}
	if err := s.putNew(ctx, it); err != nil {
		return fmt.Errorf("save tool approval: %w", err)
	}
	return nil
}

// TakeToolApproval answers a paused reply once, from chat connection
// connID: one conditional write marks it used only if it exists, is
// unanswered, unexpired at now and paused on connID, so of concurrent
// answers exactly one resumes the reply, and a refused answer leaves it
// for the right one. Refusals say why: ErrApprovalUnknown (also another
// user's token), ErrApprovalUsed, ErrApprovalOtherConnection,
// ErrApprovalExpired. The state is cleared with the answer: an answered
// approval keeps nothing of the conversation.
func (s *Store) TakeToolApproval(ctx context.Context, uid, tokenHash, connID string, now time.Time) (ToolApproval, error) {
	return s.TakeToolPause(ctx, uid, tokenHash, "", connID, now)
}

// TakeToolPause is TakeToolApproval for a paused reply of kind (a kind
// other than the item's is ErrApprovalUnknown: a sign-in's token resumes
// no approval, and the other way round).
func (s *Store) TakeToolPause(ctx context.Context, uid, tokenHash, kind, connID string, now time.Time) (ToolApproval, error) {
	pk, sk := userPK(uid), toolApprovalSK(tokenHash)
	if !keyFits(pk, sk) {
		return ToolApproval{}, ErrApprovalUnknown
	}
	// Of this connection (one saved before approvals recorded theirs is
	// checked by its caller) and of this kind.
	var it toolApprovalItem
	used, err := s.useOnce(ctx, pk, sk, use{
		remove: "#state",
		cond:   "(attribute_not_exists(connection_id) OR connection_id = :conn) AND " + kindCondition(kind),
		names:  map[string]string{"#state": "state", "#kind": "kind"},
		values: map[string]types.AttributeValue{
			":conn": &types.AttributeValueMemberS{Value: connID},
			":kind": &types.AttributeValueMemberS{Value: kind},
		},
	}, now, &it)
	if err != nil {
		return ToolApproval{}, fmt.Errorf("take tool approval: %w", err)
	}
	if used {
		return ToolApproval{State: it.State, Expires: time.UnixMilli(it.ValidTo), ConnectionID: it.ConnectionID, Kind: it.Kind}, nil
	}
	switch err := s.getItem(ctx, pk, sk, &it); {
	case errors.Is(err, ErrNotFound), it.Kind != kind:
		return ToolApproval{}, ErrApprovalUnknown
	case err != nil:
		return ToolApproval{}, fmt.Errorf("take tool approval: %w", err)
	case it.UsedAt != 0:
		return ToolApproval{}, ErrApprovalUsed
	case it.ConnectionID != "" && it.ConnectionID != connID:
		return ToolApproval{}, ErrApprovalOtherConnection
	default:
		return ToolApproval{}, ErrApprovalExpired
	}
}

// kindCondition: the item is of the kind taken (an approval's item has none).
func kindCondition(kind string) string {
	if kind == "" {
		return "(attribute_not_exists(#kind) OR #kind = :kind)"
	}
	return "#kind = :kind"
}
