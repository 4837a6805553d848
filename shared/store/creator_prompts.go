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

// A creator's prompts are catalogue prompts (PROMPT#<pid> / META) with a
// creator_id and a review state, listed in the creator's GSI2 partition
// (CPROMPTS#<uid>). Until approved a prompt is unpublished, so every read
// path of the marketplace (listing, search, prompt page, free use) keeps
// it from everyone but its creator and the admins. Submitting puts it in
// the review queue (REVIEWS / PROMPT#<pid>, oldest first by the time it
// was submitted); a decision takes it out. Each state change moves the
// version on, so an edit made from before it is refused as stale.

// PKReviews is the partition of the admins' review queue.
const PKReviews = "REVIEWS"

const reviewPromptPrefix = "PROMPT#"

// ErrWrongState: the prompt is not in the state the change starts from.
var ErrWrongState = errors.New("prompt is not in the state the change needs")

// Review decisions.
const (
	DecisionApprove = "approve"
	DecisionReject  = "reject"
)

// ReviewDecision is one decision on a prompt, kept on it (the queue shows
// the earlier ones).
type ReviewDecision struct {
	At       time.Time
	Decision string
	Reason   string
	AdminID  string
}

type reviewDecisionItem struct {
	At       string `dynamodbav:"at"`
	Decision string `dynamodbav:"decision"`
	Reason   string `dynamodbav:"reason,omitempty"`
	AdminID  string `dynamodbav:"admin_id"`
}

type reviewQueueItem struct {
	PK          string `dynamodbav:"PK"`
	SK          string `dynamodbav:"SK"`
	PromptID    string `dynamodbav:"prompt_id"`
	CreatorID   string `dynamodbav:"creator_id"`
	SubmittedAt string `dynamodbav:"submitted_at"`
}

// CreatorPrompts lists uid's prompts, newest first.
func (s *Store) CreatorPrompts(ctx context.Context, uid string) ([]domain.Prompt, error) {
	in := gsi2Query(creatorPromptsGSI2PK(uid))
	in.ScanIndexForward = aws.Bool(false)
	items, err := queryAll[promptItem](ctx, s, in, "creator prompts")
	if err != nil {
		return nil, err
	}
	return convertAll(items, promptItem.domain), nil
}

// setState moves a creator's prompt from one of from to state at version
// read (ErrWrongState or ErrVersionConflict otherwise), with the extra
// SET clauses and values given.
func (s *Store) setState(ctx context.Context, op, pid string, read int, from []string, state string, set string, remove string, extra map[string]types.AttributeValue) error {
	values := map[string]types.AttributeValue{
		":read":  &types.AttributeValueMemberN{Value: strconv.Itoa(read)},
		":next":  &types.AttributeValueMemberN{Value: strconv.Itoa(read + 1)},
		":state": &types.AttributeValueMemberS{Value: state},
		":one":   &types.AttributeValueMemberN{Value: "1"},
	}
	cond := "attribute_exists(PK) AND version = :read AND ("
	for i, f := range from {
		name := ":from" + strconv.Itoa(i)
		values[name] = &types.AttributeValueMemberS{Value: f}
		if i > 0 {
			cond += " OR "
		}
		cond += "#st = " + name
	}
	cond += ")"
	for k, v := range extra {
		values[k] = v
	}
	update := "SET #st = :state, version = :next" + set
	if remove != "" {
		update += " REMOVE " + remove
	}
	update += " ADD irev :one"
	_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(promptPK(pid), skPromptMeta),
		UpdateExpression: aws.String(update), ConditionExpression: aws.String(cond),
		ExpressionAttributeNames: map[string]string{"#st": "state"}, ExpressionAttributeValues: values,
	})
	if isConditionFailed(err) {
		p, gerr := s.GetPrompt(ctx, pid)
		if gerr == nil && p.Version == read {
			return fmt.Errorf("%s: %w", op, ErrWrongState)
		}
		return fmt.Errorf("%s: %w", op, ErrVersionConflict)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// SubmitPrompt puts a draft or rejected prompt, at version read, in the
// review queue (state in_review). The queue's item is written first, so a
// prompt in review is always in the queue; a refused submit takes it out
// again (a prompt already in review keeps its own).
func (s *Store) SubmitPrompt(ctx context.Context, p domain.Prompt, read int, now time.Time) error {
	q := reviewQueueItem{PK: PKReviews, SK: reviewPromptPrefix + p.ID, PromptID: p.ID, CreatorID: p.CreatorID, SubmittedAt: formatTime(now)}
	if p.State != domain.PromptInReview {
		if err := s.put(ctx, q); err != nil {
			return fmt.Errorf("submit prompt: %w", err)
		}
	}
	err := s.setState(ctx, "submit prompt", p.ID, read, []string{domain.PromptDraft, domain.PromptRejected}, domain.PromptInReview,
		", updated_at = :now", "", map[string]types.AttributeValue{":now": &types.AttributeValueMemberS{Value: formatTime(now)}})
	if err != nil && p.State != domain.PromptInReview {
		s.dequeue(context.WithoutCancel(ctx), p.ID)
	}
	return err
}

// DecidePrompt records an admin's decision on a prompt in review at
// version read: approve publishes it (its cards join the marketplace
// listing), reject sends it back to its creator with the reason. The
// decision is kept on the prompt; the prompt leaves the queue.
func (s *Store) DecidePrompt(ctx context.Context, pid string, read int, d ReviewDecision) error {
	entry, err := attributevalue.Marshal([]reviewDecisionItem{{At: formatTime(d.At), Decision: d.Decision, Reason: d.Reason, AdminID: d.AdminID}})
	if err != nil {
		return err
	}
	values := map[string]types.AttributeValue{":entry": entry, ":none": &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
		":now": &types.AttributeValueMemberS{Value: formatTime(d.At)}}
	set := ", updated_at = :now, reviews = list_append(if_not_exists(reviews, :none), :entry)"
	state, remove := domain.PromptPublished, "review_reason"
	if d.Decision == DecisionApprove {
		set += ", unpublished = :f"
		values[":f"] = &types.AttributeValueMemberBOOL{Value: false}
	} else {
		state, remove = domain.PromptRejected, ""
		set += ", review_reason = :why"
		values[":why"] = &types.AttributeValueMemberS{Value: d.Reason}
	}
	if err := s.setState(ctx, "decide prompt", pid, read, []string{domain.PromptInReview}, state, set, remove, values); err != nil {
		return err
	}
	s.dequeue(context.WithoutCancel(ctx), pid)
	s.afterPromptWrite(ctx, pid)
	return nil
}

func (s *Store) dequeue(ctx context.Context, pid string) {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(PKReviews, reviewPromptPrefix+pid)})
	if err != nil {
		slog.WarnContext(ctx, "a decided prompt left in the review queue", "prompt", pid, "err", err)
	}
}

// QueuedPrompt is a prompt waiting for review with the decisions made on
// it before.
type QueuedPrompt struct {
	Prompt      domain.Prompt
	SubmittedAt time.Time
	Decisions   []ReviewDecision
}

// ReviewQueue lists the prompts in review, oldest submitted first. A
// queue item whose prompt is no longer in review (a failure between two
// writes) is skipped.
func (s *Store) ReviewQueue(ctx context.Context) ([]QueuedPrompt, error) {
	queued, err := queryAll[reviewQueueItem](ctx, s, partitionQuery(PKReviews, reviewPromptPrefix), "review queue")
	if err != nil {
		return nil, err
	}
	out := []QueuedPrompt{}
	for _, q := range queued {
		var it struct {
			promptItem
			Reviews []reviewDecisionItem `dynamodbav:"reviews"`
		}
		err := s.getItem(ctx, promptPK(q.PromptID), skPromptMeta, &it)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("review queue: %w", err)
		}
		if it.State != domain.PromptInReview {
			continue
		}
		qp := QueuedPrompt{Prompt: it.domain(), SubmittedAt: parseTime(q.SubmittedAt), Decisions: []ReviewDecision{}}
		for _, d := range it.Reviews {
			qp.Decisions = append(qp.Decisions, ReviewDecision{At: parseTime(d.At), Decision: d.Decision, Reason: d.Reason, AdminID: d.AdminID})
		}
		out = append(out, qp)
	}
	slices.SortFunc(out, func(a, b QueuedPrompt) int { return a.SubmittedAt.Compare(b.SubmittedAt) })
	return out, nil
}
