package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
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

// DecidePrompt records an admin's decision on cur, a prompt in review (or
// a published one whose next version is), at cur's version: approve
// publishes it (kept as its first version; its cards join the marketplace
// listing) or makes the next version the live one, reject sends it back to
// its creator with the reason. The decision is kept on the prompt; the
// prompt leaves the queue.
func (s *Store) DecidePrompt(ctx context.Context, cur domain.Prompt, d ReviewDecision) error {
	pid, read := cur.ID, cur.Version
	entry, err := decisionEntry(d)
	if err != nil {
		return err
	}
	if cur.State == domain.PromptPublished && cur.Pending != nil {
		if err := s.decidePending(ctx, cur, read, d, entry); err != nil {
			return err
		}
		s.dequeue(context.WithoutCancel(ctx), pid)
		s.afterPromptWrite(ctx, pid)
		return nil
	}
	values := map[string]types.AttributeValue{":entry": entry, ":none": &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
		":now": &types.AttributeValueMemberS{Value: formatTime(d.At)}}
	set := ", updated_at = :now, reviews = list_append(if_not_exists(reviews, :none), :entry)"
	state, remove := domain.PromptPublished, "review_reason"
	if d.Decision == DecisionApprove {
		if err := s.putVersion(ctx, pid, domain.PromptVersion{Number: 1, Title: cur.Title, Description: cur.Description, Content: cur.Content,
			Price: cur.Price, PublishedAt: d.At}); err != nil {
			return err
		}
		set += ", unpublished = :f, cver = :first"
		values[":f"] = &types.AttributeValueMemberBOOL{Value: false}
		values[":first"] = &types.AttributeValueMemberN{Value: "1"}
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
	s.unqueue(ctx, "prompt", reviewPromptPrefix, pid)
}

// unqueue takes the kind's item id out of the review queue (its key
// there, prefix+id); left behind, the queue's read skips it.
func (s *Store) unqueue(ctx context.Context, kind, prefix, id string) {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: key(PKReviews, prefix+id)})
	if err != nil {
		slog.WarnContext(ctx, "a decided "+kind+" left in the review queue", kind, id, "err", err)
	}
}

// decisionEntry is d as a one-entry list, appended to an item's decisions.
func decisionEntry(d ReviewDecision) (types.AttributeValue, error) {
	return attributevalue.Marshal([]reviewDecisionItem{{At: formatTime(d.At), Decision: d.Decision, Reason: d.Reason, AdminID: d.AdminID}})
}

// decisionsOf are an item's decisions as kept.
func decisionsOf(items []reviewDecisionItem) []ReviewDecision {
	out := make([]ReviewDecision, 0, len(items))
	for _, d := range items {
		out = append(out, ReviewDecision{At: parseTime(d.At), Decision: d.Decision, Reason: d.Reason, AdminID: d.AdminID})
	}
	return out
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
		if it.State != domain.PromptInReview && (it.Pending == nil || it.Pending.State != domain.PromptInReview) {
			continue
		}
		out = append(out, QueuedPrompt{Prompt: it.domain(), SubmittedAt: parseTime(q.SubmittedAt), Decisions: decisionsOf(it.Reviews)})
	}
	slices.SortFunc(out, func(a, b QueuedPrompt) int { return a.SubmittedAt.Compare(b.SubmittedAt) })
	return out, nil
}

// Versions: each version of a creator's prompt that went live is kept
// beside it (PROMPT#<pid> / VER#<number, six digits>), for its buyers,
// written before the prompt moves to it (a failure between the two
// leaves a version item the next approval writes again). An edit of a
// published prompt is its pending version, on the prompt item, until an
// admin decides on it; the live fields stay as they are until then.

const versionPrefix = "VER#"

func versionSK(n int) string { return fmt.Sprintf("%s%06d", versionPrefix, n) }

type versionItem struct {
	PK          string  `dynamodbav:"PK"`
	SK          string  `dynamodbav:"SK"`
	Number      int     `dynamodbav:"number"`
	Title       string  `dynamodbav:"title"`
	Description string  `dynamodbav:"description"`
	Content     string  `dynamodbav:"content"`
	Price       float64 `dynamodbav:"price"`
	ChangeNote  string  `dynamodbav:"change_note"`
	PublishedAt string  `dynamodbav:"published_at"`
}

func (it versionItem) domain() domain.PromptVersion {
	return domain.PromptVersion{Number: it.Number, Title: it.Title, Description: it.Description, Content: it.Content, Price: it.Price,
		ChangeNote: it.ChangeNote, PublishedAt: parseTime(it.PublishedAt)}
}

// PromptVersions lists the versions of pid that went live, oldest first.
func (s *Store) PromptVersions(ctx context.Context, pid string) ([]domain.PromptVersion, error) {
	items, err := queryAll[versionItem](ctx, s, partitionQuery(promptPK(pid), versionPrefix), "prompt versions")
	if err != nil {
		return nil, err
	}
	return convertAll(items, versionItem.domain), nil
}

// updatePrompt runs one conditional update of a prompt item at version
// read (cond adds to that), moving the version on; ErrWrongState when
// the prompt is at read but cond does not hold, ErrVersionConflict when
// it moved on or is gone.
func (s *Store) updatePrompt(ctx context.Context, op, pid string, read int, update, cond string, names map[string]string, values map[string]types.AttributeValue) error {
	values = mergeValues(values, map[string]types.AttributeValue{
		":read": &types.AttributeValueMemberN{Value: strconv.Itoa(read)},
		":next": &types.AttributeValueMemberN{Value: strconv.Itoa(read + 1)},
	})
	in := &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(promptPK(pid), skPromptMeta),
		UpdateExpression:    aws.String("SET version = :next, " + strings.TrimPrefix(update, "SET ")),
		ConditionExpression: aws.String("attribute_exists(PK) AND version = :read AND " + cond), ExpressionAttributeValues: values,
	}
	if len(names) > 0 {
		in.ExpressionAttributeNames = names
	}
	_, err := s.db.UpdateItem(ctx, in)
	if isConditionFailed(err) {
		if p, gerr := s.GetPrompt(ctx, pid); gerr == nil && p.Version == read {
			return fmt.Errorf("%s: %w", op, ErrWrongState)
		}
		return fmt.Errorf("%s: %w", op, ErrVersionConflict)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// SetPending saves pv as the next version of a published prompt, at
// version read; refused (ErrWrongState) while a pending version is in
// review.
func (s *Store) SetPending(ctx context.Context, pid string, read int, pv domain.PendingVersion, now time.Time) error {
	pv.Price = roundCents(pv.Price)
	av, err := attributevalue.Marshal(pv)
	if err != nil {
		return err
	}
	return s.updatePrompt(ctx, "save pending version", pid, read, "SET pending = :p, updated_at = :now",
		"#st = :pub AND (attribute_not_exists(pending) OR pending.#pst <> :inrev)",
		map[string]string{"#st": "state", "#pst": "state"},
		map[string]types.AttributeValue{":p": av, ":now": &types.AttributeValueMemberS{Value: formatTime(now)},
			":pub": &types.AttributeValueMemberS{Value: domain.PromptPublished}, ":inrev": &types.AttributeValueMemberS{Value: domain.PromptInReview}})
}

// SubmitPending sends a published prompt's pending version (a draft or a
// rejected one) to review, at version read: queued first, as SubmitPrompt.
func (s *Store) SubmitPending(ctx context.Context, p domain.Prompt, read int, now time.Time) error {
	q := reviewQueueItem{PK: PKReviews, SK: reviewPromptPrefix + p.ID, PromptID: p.ID, CreatorID: p.CreatorID, SubmittedAt: formatTime(now)}
	if err := s.put(ctx, q); err != nil {
		return fmt.Errorf("submit version: %w", err)
	}
	err := s.updatePrompt(ctx, "submit version", p.ID, read, "SET pending.#pst = :inrev, updated_at = :now",
		"(pending.#pst = :draft OR pending.#pst = :rej)", map[string]string{"#pst": "state"},
		map[string]types.AttributeValue{":inrev": &types.AttributeValueMemberS{Value: domain.PromptInReview},
			":draft": &types.AttributeValueMemberS{Value: domain.PromptDraft}, ":rej": &types.AttributeValueMemberS{Value: domain.PromptRejected},
			":now": &types.AttributeValueMemberS{Value: formatTime(now)}})
	if err != nil {
		s.dequeue(context.WithoutCancel(ctx), p.ID)
	}
	return err
}

// putVersion keeps a version as it goes live.
func (s *Store) putVersion(ctx context.Context, pid string, v domain.PromptVersion) error {
	it := versionItem{PK: promptPK(pid), SK: versionSK(v.Number), Number: v.Number, Title: v.Title, Description: v.Description,
		Content: v.Content, Price: roundCents(v.Price), ChangeNote: v.ChangeNote, PublishedAt: formatTime(v.PublishedAt)}
	if err := s.put(ctx, it); err != nil {
		return fmt.Errorf("keep version: %w", err)
	}
	return nil
}

// decidePending records an admin's decision on a published prompt's
// pending version at version read: approve makes it the live one (kept
// as the next version first), reject sends it back with the reason.
func (s *Store) decidePending(ctx context.Context, cur domain.Prompt, read int, d ReviewDecision, entry types.AttributeValue) error {
	pv := cur.Pending
	values := map[string]types.AttributeValue{":entry": entry, ":none": &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
		":now": &types.AttributeValueMemberS{Value: formatTime(d.At)}, ":inrev": &types.AttributeValueMemberS{Value: domain.PromptInReview}}
	names := map[string]string{"#pst": "state"}
	cond := "pending.#pst = :inrev"
	if d.Decision != DecisionApprove {
		values[":rej"] = &types.AttributeValueMemberS{Value: domain.PromptRejected}
		values[":why"] = &types.AttributeValueMemberS{Value: d.Reason}
		return s.updatePrompt(ctx, "decide version", cur.ID, read,
			"SET pending.#pst = :rej, pending.review_reason = :why, updated_at = :now, reviews = list_append(if_not_exists(reviews, :none), :entry)",
			cond, names, values)
	}
	n := cur.Published + 1
	if err := s.putVersion(ctx, cur.ID, domain.PromptVersion{Number: n, Title: pv.Title, Description: pv.Description, Content: pv.Content,
		Price: pv.Price, ChangeNote: pv.ChangeNote, PublishedAt: d.At}); err != nil {
		return err
	}
	values[":t"] = &types.AttributeValueMemberS{Value: pv.Title}
	values[":d"] = &types.AttributeValueMemberS{Value: pv.Description}
	values[":c"] = &types.AttributeValueMemberS{Value: pv.Content}
	values[":p"] = &types.AttributeValueMemberN{Value: strconv.FormatFloat(roundCents(pv.Price), 'f', 2, 64)}
	values[":cat"] = &types.AttributeValueMemberS{Value: pv.CategoryID}
	values[":n"] = &types.AttributeValueMemberN{Value: strconv.Itoa(n)}
	values[":one"] = &types.AttributeValueMemberN{Value: "1"}
	return s.updatePrompt(ctx, "decide version", cur.ID, read,
		"SET title = :t, description = :d, content = :c, price = :p, category_id = :cat, cver = :n, updated_at = :now, "+
			"reviews = list_append(if_not_exists(reviews, :none), :entry) REMOVE pending ADD irev :one",
		cond, names, values)
}
