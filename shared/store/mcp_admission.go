package store

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// SessionAndServer is what a connect reads before anything leaves: whether
// the caller's session is open, and the registry entry (Found false when
// there is none).
type SessionAndServer struct {
	Live   bool
	Server domain.MCPServer
	Found  bool
}

// maxBatchRounds bounds the re-reads of keys DynamoDB left unprocessed.
const maxBatchRounds = 5

// SessionAndMCPServer reads session sid of uid and registry entry
// serverID ("" for none) in one BatchGetItem: one table call instead of
// two on a connect's critical path. Both reads are strongly consistent
// (the session costs a full read unit, not SessionLive's half).
func (s *Store) SessionAndMCPServer(ctx context.Context, uid, sid, serverID string) (SessionAndServer, error) {
	var out SessionAndServer
	sessionPK, serverPK := userPK(uid), mcpServerPK(serverID)
	keys := []map[string]types.AttributeValue{key(sessionPK, sessionSK(sid))}
	if serverID != "" && keyFits(serverPK, skMCPServer) {
		keys = append(keys, key(serverPK, skMCPServer))
	}
	for round := range maxBatchRounds {
		if round > 0 {
			// Keys come back unprocessed when throughput ran out: back off.
			select {
			case <-ctx.Done():
				return SessionAndServer{}, fmt.Errorf("session and mcp server: %w", ctx.Err())
			case <-time.After(time.Duration(round) * 20 * time.Millisecond):
			}
		}
		res, err := s.db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			s.table: {Keys: keys, ConsistentRead: aws.Bool(true)},
		}})
		if err != nil {
			return SessionAndServer{}, fmt.Errorf("session and mcp server: %w", err)
		}
		for _, item := range res.Responses[s.table] {
			switch pk, _ := item[AttrPK].(*types.AttributeValueMemberS); {
			case pk == nil:
			case pk.Value == sessionPK:
				out.Live = sessionOpen(item)
			case pk.Value == serverPK:
				var it mcpServerItem
				if err := attributevalue.UnmarshalMap(item, &it); err != nil {
					return SessionAndServer{}, fmt.Errorf("session and mcp server: %w", err)
				}
				out.Server, out.Found = it.domain(), true
			}
		}
		keys = res.UnprocessedKeys[s.table].Keys
		if len(keys) == 0 {
			return out, nil
		}
	}
	return SessionAndServer{}, fmt.Errorf("session and mcp server: keys left unprocessed")
}
