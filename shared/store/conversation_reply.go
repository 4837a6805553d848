package store

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// A reply kept with its conversation is saved as it is generated, at its
// first text, every few seconds and at its end. DynamoDB bills a write by
// the size of the item written (UpdateItem by the larger of before and
// after), so rewriting the reply at each save would cost the square of its
// length. Instead each save appends what came since the last one as a new
// small part item beside the message (CMSG#<cid>#<mid>#p<nnnnn>: its text,
// the tool frames at their place in the whole text, and its time), and the
// message's own item, which stays small, is updated only when its state
// changes (going on again after a pause, its usage, its end, an error, a
// Stop). A reader joins the message's item, its chunks and its parts in key
// order (queryMessages).

// maxReplyParts bounds the parts of one reply (five digits in the key); a
// save past it keeps the text it had.
const maxReplyParts = 99_999

// replyPart is one save's addition to a reply.
type replyPart struct {
	PK     string            `dynamodbav:"PK"`
	SK     string            `dynamodbav:"SK"`
	Text   string            `dynamodbav:"text,omitempty"`
	Blocks []messageBlockAtt `dynamodbav:"blocks,omitempty"`
	At     string            `dynamodbav:"at"`
}

// replyHead is what the message's own item says of a reply.
type replyHead struct {
	complete, truncated, stopped bool
	err                          string
	usage                        *domain.MessageUsage
}

func (h replyHead) same(o replyHead) bool {
	return h.complete == o.complete && h.truncated == o.truncated && h.stopped == o.stopped && h.err == o.err &&
		reflect.DeepEqual(h.usage, o.usage)
}

// ReplyWriter saves one reply of a user's conversation as it grows. Its
// saves are made one at a time (the caller orders them).
type ReplyWriter struct {
	s        *Store
	uid      string
	cid, mid string
	text     int       // bytes of the reply's text stored
	blocks   int       // its tool frames stored
	parts    int       // its part items
	head     replyHead // the message's item as last written
	written  []string  // the keys of the parts this writer wrote
}

// ReplyWriter answers the writer of uid's reply m, as it is stored (a new,
// empty reply, or one a pause saved, read back whole).
func (s *Store) ReplyWriter(uid string, m domain.ConversationMessage) *ReplyWriter {
	return &ReplyWriter{s: s, uid: uid, cid: m.ConversationID, mid: m.ID, text: len(m.Content), blocks: len(m.Blocks), parts: m.Parts,
		head: replyHead{complete: m.Complete, truncated: m.Truncated, stopped: m.StopRequested, err: m.Error, usage: m.Usage}}
}

// Save stores m, the reply so far (its text and blocks only ever grow),
// unless its user stopped it or its conversation or message was deleted:
// then ErrStopRequested (what this save added stays: it is what the
// generation had when it learnt of the Stop).
func (w *ReplyWriter) Save(ctx context.Context, m domain.ConversationMessage) error {
	return w.save(ctx, m, false)
}

// FinishStopped stores the last state of a reply its user stopped (what it
// had when Stop came); ErrStopRequested only when it is gone.
func (w *ReplyWriter) FinishStopped(ctx context.Context, m domain.ConversationMessage) error {
	return w.save(ctx, m, true)
}

func (w *ReplyWriter) save(ctx context.Context, m domain.ConversationMessage, stopped bool) error {
	pk, sk := userPK(w.uid), convMessageSK(w.cid, w.mid)
	if !keyFits(pk, convMessagePartSK(w.cid, w.mid, maxReplyParts)) {
		return ErrStopRequested // no such message can exist
	}
	at := formatTime(m.UpdatedAt)
	text, truncated := m.Content, m.Truncated
	if len(text) > MaxMessageText {
		text, truncated = cutUTF8(text, MaxMessageText), true
	}
	want := replyHead{complete: m.Complete, truncated: truncated, stopped: stopped || w.head.stopped, err: m.Error, usage: m.Usage}
	// A save that changes the reply's state (its end, a pause) writes all
	// it has: a reader that sees the state sees the whole reply.
	added, err := w.append(ctx, text, m.Blocks, at, stopped || !want.same(w.head))
	if err != nil {
		return fmt.Errorf("save reply: %w", err)
	}
	switch {
	case stopped || !want.same(w.head):
		err = w.updateHead(ctx, want, at, stopped)
	case added:
		// The part is the sign of life a re-attaching reader looks for;
		// whether the user stopped the reply is read (a fifth of a
		// write's price), not learnt from a conditional write.
		err = w.checkStop(ctx, pk, sk)
	default:
		// Nothing new (a tool runs): the message's time says the reply is
		// still being generated, and the write learns of a Stop.
		err = w.touch(ctx, at)
	}
	if err == ErrStopRequested {
		w.dropIfGone(ctx)
	}
	return err
}

// append writes what text and blocks have past what is stored as part
// items; whether it wrote any. Unless whole, the last part ends where its
// write unit does (the rest goes with the next save, two seconds later), so
// that no save pays for a unit it barely uses.
func (w *ReplyWriter) append(ctx context.Context, text string, blocks []domain.MessageBlock, at string, whole bool) (bool, error) {
	var delta string
	if len(text) > w.text {
		delta = text[w.text:]
	}
	var fresh []messageBlockAtt
	for _, b := range blocks[min(w.blocks, len(blocks)):] {
		fresh = append(fresh, messageBlockAtt{At: b.At, Frame: string(b.Frame)})
	}
	added := false
	for first := true; delta != "" || (first && len(fresh) > 0); first = false {
		if w.parts >= maxReplyParts {
			break
		}
		part := replyPart{PK: userPK(w.uid), SK: convMessagePartSK(w.cid, w.mid, w.parts+1), At: at}
		if first {
			part.Blocks = fresh
		}
		part.Text = cutUTF8(delta, chunkText)
		if !whole && len(part.Text) == len(delta) {
			part.Text = cutToWriteUnits(part, delta)
		}
		if err := w.s.put(ctx, part); err != nil {
			return added, err
		}
		w.parts++
		w.written = append(w.written, part.SK)
		w.text += len(part.Text)
		delta = delta[len(part.Text):]
		added = true
		if !whole && delta != "" && len(part.Text) < chunkText {
			break // the rest, less than a unit, goes with the next save
		}
	}
	if added {
		w.blocks = len(blocks)
	}
	return added, nil
}

// writeUnit is what one write capacity unit writes of an item.
const writeUnit = 1024

// cutToWriteUnits is the longest start of text that, as part's text, ends
// its item at a whole number of write units: all of it when it fits in the
// units the part costs anyway (its frames alone may take more than one).
func cutToWriteUnits(part replyPart, text string) string {
	part.Text = ""
	av, err := attributevalue.MarshalMap(part)
	if err != nil {
		return text
	}
	base := ItemSize(av) + len("text")
	total := base + len(text)
	paid := (base + writeUnit - 1) / writeUnit * writeUnit
	end := total/writeUnit*writeUnit - base
	if total <= paid || total%writeUnit == 0 || (end <= 0 && len(part.Blocks) == 0) {
		return text
	}
	return cutUTF8(text, end)
}

// updateHead writes the reply's state on its message's item: refused
// (ErrStopRequested) when the message is gone or, unless stopped, its user
// stopped it.
func (w *ReplyWriter) updateHead(ctx context.Context, h replyHead, at string, stopped bool) error {
	names := map[string]string{"#c": "complete", "#u": "updated_at", "#t": "truncated", "#e": "error", "#g": "usage"}
	values := map[string]types.AttributeValue{
		":c":   &types.AttributeValueMemberBOOL{Value: h.complete},
		":u":   &types.AttributeValueMemberS{Value: at},
		":t":   &types.AttributeValueMemberBOOL{Value: h.truncated},
		":yes": &types.AttributeValueMemberBOOL{Value: true},
	}
	set, remove := "SET #c = :c, #u = :u, #t = :t", []string{}
	if h.err != "" {
		set += ", #e = :e"
		values[":e"] = &types.AttributeValueMemberS{Value: h.err}
	} else {
		remove = append(remove, "#e")
	}
	if h.usage != nil {
		u, err := attributevalue.Marshal(h.usage)
		if err != nil {
			return fmt.Errorf("save reply: %w", err)
		}
		set += ", #g = :g"
		values[":g"] = u
	} else {
		remove = append(remove, "#g")
	}
	cond := "attribute_exists(PK)"
	names["#s"] = "stop_requested"
	if stopped {
		set += ", #s = :yes"
	} else {
		cond += " AND (attribute_not_exists(#s) OR #s <> :yes)"
	}
	expr := set
	if len(remove) > 0 {
		expr += " REMOVE " + strings.Join(remove, ", ")
	}
	_, err := w.s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(w.s.table),
		Key:                       key(userPK(w.uid), convMessageSK(w.cid, w.mid)),
		UpdateExpression:          aws.String(expr),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
	})
	if err := conditional("save reply", err, ErrStopRequested); err != nil {
		return err
	}
	w.head = h
	return nil
}

// touch marks the reply as still being generated: refused as updateHead.
func (w *ReplyWriter) touch(ctx context.Context, at string) error {
	_, err := w.s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:           aws.String(w.s.table),
		Key:                 key(userPK(w.uid), convMessageSK(w.cid, w.mid)),
		UpdateExpression:    aws.String("SET updated_at = :u"),
		ConditionExpression: aws.String("attribute_exists(PK) AND (attribute_not_exists(stop_requested) OR stop_requested <> :yes)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":u":   &types.AttributeValueMemberS{Value: at},
			":yes": &types.AttributeValueMemberBOOL{Value: true},
		},
	})
	return conditional("save reply", err, ErrStopRequested)
}

// checkStop reads whether the reply was stopped or its message deleted
// (ErrStopRequested). The read need not be the latest: a Stop seen a save
// later ends the generation two seconds later.
func (w *ReplyWriter) checkStop(ctx context.Context, pk, sk string) error {
	out, err := w.s.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:            aws.String(w.s.table),
		Key:                  key(pk, sk),
		ProjectionExpression: aws.String("PK, stop_requested"),
	})
	if err != nil {
		return fmt.Errorf("save reply: %w", err)
	}
	if out.Item == nil {
		return ErrStopRequested
	}
	if v, ok := out.Item["stop_requested"].(*types.AttributeValueMemberBOOL); ok && v.Value {
		return ErrStopRequested
	}
	return nil
}

// dropIfGone removes the parts this writer wrote when its message is gone
// (its conversation was deleted while the reply was generated): they
// belong to nothing. A reply that was only stopped keeps them.
func (w *ReplyWriter) dropIfGone(ctx context.Context) {
	if len(w.written) == 0 {
		return
	}
	var head messageItem
	if w.s.getItem(ctx, userPK(w.uid), convMessageSK(w.cid, w.mid), &head) != ErrNotFound {
		return
	}
	for _, sk := range w.written {
		_, _ = w.s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(w.s.table), Key: key(userPK(w.uid), sk)})
	}
	w.written = nil
}

// latest is the later of two stored times.
func latest(a time.Time, b string) time.Time {
	if t := parseTime(b); t.After(a) {
		return t
	}
	return a
}
