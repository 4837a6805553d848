package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// An agent's review shares the prompts' queue (REVIEWS), under
// AGENT#<aid>: written before the agent moves to in_review (taken back
// when that write is refused), taken out by the decision. Decisions are
// kept on the agent (reviews), as on a prompt.

type agentQueueItem struct {
	PK          string `dynamodbav:"PK"`
	SK          string `dynamodbav:"SK"`
	AgentID     string `dynamodbav:"agent_id"`
	CreatorID   string `dynamodbav:"creator_id"`
	SubmittedAt string `dynamodbav:"submitted_at"`
}

// SubmitAgent writes next (the agent, or its pending version, in review)
// at version read, queued for review first.
func (s *Store) SubmitAgent(ctx context.Context, next domain.Agent, read int, now time.Time) error {
	q := agentQueueItem{PK: PKReviews, SK: reviewAgentPrefix + next.ID, AgentID: next.ID, CreatorID: next.CreatorID, SubmittedAt: formatTime(now)}
	if err := s.put(ctx, q); err != nil {
		return fmt.Errorf("submit agent: %w", err)
	}
	if err := s.UpdateAgent(ctx, next, read); err != nil {
		s.dequeueAgent(context.WithoutCancel(ctx), next.ID)
		return err
	}
	return nil
}

func (s *Store) dequeueAgent(ctx context.Context, aid string) {
	s.unqueue(ctx, "agent", reviewAgentPrefix, aid)
}

// DecideAgent writes next, the agent as an admin's decision d leaves it,
// at version read, with d kept on it; live, when not nil, is the version
// that goes live, kept first. The agent then leaves the queue.
func (s *Store) DecideAgent(ctx context.Context, next domain.Agent, read int, d ReviewDecision, live *AgentVersion) error {
	if live != nil {
		if err := s.PutAgentVersion(ctx, next.ID, *live); err != nil {
			return err
		}
	}
	entry, err := decisionEntry(d)
	if err != nil {
		return err
	}
	err = s.updateAgent(ctx, "decide agent", next, read, ", #rv = list_append(if_not_exists(#rv, :none), :entry)",
		map[string]string{"#rv": "reviews"},
		map[string]types.AttributeValue{":entry": entry, ":none": &types.AttributeValueMemberL{Value: []types.AttributeValue{}}})
	if err != nil {
		return err
	}
	s.dequeueAgent(context.WithoutCancel(ctx), next.ID)
	return nil
}

// QueuedAgent is an agent waiting for review with the decisions made on it
// before.
type QueuedAgent struct {
	Agent       domain.Agent
	SubmittedAt time.Time
	Decisions   []ReviewDecision
}

// AgentReviewQueue lists the agents in review (or whose next version is),
// oldest submitted first; a queue item left by a failure is skipped.
func (s *Store) AgentReviewQueue(ctx context.Context) ([]QueuedAgent, error) {
	queued, err := queryAll[agentQueueItem](ctx, s, partitionQuery(PKReviews, reviewAgentPrefix), "agent review queue")
	if err != nil {
		return nil, err
	}
	out := []QueuedAgent{}
	for _, q := range queued {
		var it agentItem
		err := s.getItem(ctx, agentPK(q.AgentID), skAgent, &it)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("agent review queue: %w", err)
		}
		if it.State != domain.PromptInReview && (it.Pending == nil || it.Pending.State != domain.PromptInReview) {
			continue
		}
		out = append(out, QueuedAgent{Agent: it.domain(), SubmittedAt: parseTime(q.SubmittedAt), Decisions: decisionsOf(it.Reviews)})
	}
	slices.SortFunc(out, func(a, b QueuedAgent) int { return a.SubmittedAt.Compare(b.SubmittedAt) })
	return out, nil
}

// ErrAgentInUse: an agent someone bought is not deleted (it is withdrawn).
var ErrAgentInUse = errors.New("agent is owned")

// DeleteAgent removes an agent nobody bought, at version read
// (ErrAgentInUse, ErrVersionConflict otherwise), with its versions, its
// ratings and its place in the review queue.
func (s *Store) DeleteAgent(ctx context.Context, aid string, read int) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: aws.String(s.table), Key: key(agentPK(aid), skAgent),
		ConditionExpression:      aws.String("attribute_exists(PK) AND #v = :read AND (attribute_not_exists(purchases) OR purchases = :zero)"),
		ExpressionAttributeNames: map[string]string{"#v": "version"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":read": &types.AttributeValueMemberN{Value: strconv.Itoa(read)},
			":zero": &types.AttributeValueMemberN{Value: "0"}},
	})
	if isConditionFailed(err) {
		var it agentItem
		if gerr := s.getItem(ctx, agentPK(aid), skAgent, &it); gerr == nil && it.Version == read && it.Purchases > 0 {
			return fmt.Errorf("delete agent: %w", ErrAgentInUse)
		}
		return fmt.Errorf("delete agent: %w", ErrVersionConflict)
	}
	if err != nil {
		return fmt.Errorf("delete agent: %w", err)
	}
	ctx = context.WithoutCancel(ctx)
	s.dequeueAgent(ctx, aid)
	for _, prefix := range []string{agentVersionPrefix, agentRatingPrefix} {
		if _, err := s.deleteAll(ctx, agentPK(aid), prefix); err != nil {
			slog.WarnContext(ctx, "items of a deleted agent left behind", "agent", aid, "err", err)
		}
	}
	return nil
}

// CountAgentPurchase adds n (1, or -1 for a refund) to aid's sales; an
// agent gone meanwhile is left alone.
func (s *Store) CountAgentPurchase(ctx context.Context, aid string, n int) error {
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(agentPK(aid), skAgent),
		UpdateExpression: aws.String("ADD purchases :n"), ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":n": &types.AttributeValueMemberN{Value: strconv.Itoa(n)}},
	})
	return conditional("count agent purchase", err, nil)
}

// AgentPurchases answers how many times aid was bought (0 when it is gone).
func (s *Store) AgentPurchases(ctx context.Context, aid string) (int, error) {
	var it agentItem
	err := s.getItem(ctx, agentPK(aid), skAgent, &it)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	return it.Purchases, err
}

type agentRatingItem struct {
	PK        string `dynamodbav:"PK"`
	SK        string `dynamodbav:"SK"`
	AgentID   string `dynamodbav:"agent_id"`
	Rating    int    `dynamodbav:"rating"`
	UpdatedAt string `dynamodbav:"updated_at"`
}

// RateAgent sets uid's rating of aid and moves the agent's aggregate by
// the difference (as Rate does for a prompt: the rating item replaced,
// then one ADD; the rating undone when the ADD fails). ErrNotFound when
// the agent is gone.
func (s *Store) RateAgent(ctx context.Context, uid, aid string, rating int, now time.Time) (domain.Agent, error) {
	it := agentRatingItem{PK: agentPK(aid), SK: agentRatingSK(uid), AgentID: aid, Rating: rating, UpdatedAt: formatTime(now)}
	av, err := attributevalue.MarshalMap(it)
	if err != nil {
		return domain.Agent{}, err
	}
	put, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av, ReturnValues: types.ReturnValueAllOld})
	if err != nil {
		return domain.Agent{}, fmt.Errorf("rate agent: %w", err)
	}
	delta, added := rating, 1
	if put.Attributes != nil {
		var old agentRatingItem
		if err := attributevalue.UnmarshalMap(put.Attributes, &old); err != nil {
			return domain.Agent{}, fmt.Errorf("rate agent: %w", err)
		}
		delta, added = rating-old.Rating, 0
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(agentPK(aid), skAgent),
		UpdateExpression: aws.String("ADD rating_sum :d, rating_count :a"), ConditionExpression: aws.String("attribute_exists(PK)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":d": &types.AttributeValueMemberN{Value: strconv.Itoa(delta)}, ":a": &types.AttributeValueMemberN{Value: strconv.Itoa(added)}},
		ReturnValues: types.ReturnValueAllNew,
	})
	if err != nil {
		s.undoAgentRating(ctx, it, put.Attributes)
		if isConditionFailed(err) {
			return domain.Agent{}, fmt.Errorf("rate agent: %w", ErrNotFound)
		}
		return domain.Agent{}, fmt.Errorf("rate agent: %w", err)
	}
	var a agentItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &a); err != nil {
		return domain.Agent{}, fmt.Errorf("rate agent: %w", err)
	}
	return a.domain(), nil
}

func (s *Store) undoAgentRating(ctx context.Context, it agentRatingItem, old map[string]types.AttributeValue) {
	ctx = context.WithoutCancel(ctx)
	cond := map[string]types.AttributeValue{":r": &types.AttributeValueMemberN{Value: strconv.Itoa(it.Rating)}, ":at": &types.AttributeValueMemberS{Value: it.UpdatedAt}}
	var err error
	if old == nil {
		_, err = s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(it.PK, it.SK),
			ConditionExpression: aws.String("rating = :r AND updated_at = :at"), ExpressionAttributeValues: cond})
	} else {
		_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: old,
			ConditionExpression: aws.String("rating = :r AND updated_at = :at"), ExpressionAttributeValues: cond})
	}
	if err != nil && !isConditionFailed(err) {
		slog.ErrorContext(ctx, "undo agent rating failed; aggregate may drift", "agent", it.AgentID, "err", err)
	}
}

// markCreatorAgents applies change to each of uid's agents, each a write
// at the version read (read again and retried when it moved on): a
// creator's suspension takes their agents off the marketplace in those
// writes, a new display name reaches their cards.
func (s *Store) markCreatorAgents(ctx context.Context, uid string, change func(*domain.Agent)) error {
	list, err := s.CreatorAgents(ctx, uid)
	if err != nil {
		return err
	}
	for _, listed := range list {
		for attempt := 0; ; attempt++ {
			cur, err := s.GetAgent(ctx, listed.ID)
			if errors.Is(err, ErrNotFound) {
				break
			}
			if err != nil {
				return err
			}
			next := cur
			change(&next)
			next.Version = cur.Version + 1
			err = s.UpdateAgent(ctx, next, cur.Version)
			if err == nil {
				break
			}
			if !errors.Is(err, ErrVersionConflict) || attempt == 4 {
				return err
			}
		}
	}
	return nil
}
