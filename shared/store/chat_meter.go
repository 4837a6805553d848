package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// A user's chat meter is their usage item of the UTC day (chat_usage.go):
// beside the day's totals and per-model counters it holds the three limits'
// counters, so that a message's admission is one conditional UpdateItem and
// its end (usage and slot given back) one more, instead of a read and three
// writes on four items:
//
//   - tokens: the day's input+output tokens (the budget's counter; ADDed with
//     the totals);
//   - window_start, window_count: the per-minute window (a fixed window from
//     its first message, as store.Admit's);
//   - streams, lease: the open streams, with a lease (see below);
//   - ver: bumped by every write, so that the rare write that must set
//     counters from what it read (a new window, an expired lease) applies
//     only to what it read.
//
// Streams are counted on the day their admission took them, and given back
// there. A stream still running at 00:00 UTC is therefore not counted on the
// new day: for at most one stream's duration after midnight a user may have
// up to twice the limit open. That is the price of the one-write admission.
//
// Leak guard: a stream whose process is killed never gives its slot back.
// Every slot taken pushes lease to now+lease, and the caller ends every
// stream before its lease runs out (the chat engine caps a stream's duration below
// it), so once lease has passed every stream the counter counted has ended:
// the next admission starts the counter over.

// meterVersion is the attribute every meter write bumps.
const meterVersion = "ver"

// ChatLimits are the meter's limits; 0 switches one off. Lease is how long
// a slot is held at most (it must outlast any stream).
type ChatLimits struct {
	DailyTokens, PerMinute, Streams int
	Window, Lease                   time.Duration
}

// ChatRefusal is the limit that refused a message.
type ChatRefusal int

const (
	ChatAdmitted ChatRefusal = iota
	ChatOverBudget
	ChatOverRate
	ChatNoStreamSlot
)

// ChatAdmission is what a message's admission found and did: the day's
// tokens, the per-minute window (this message counted unless refused by the
// rate), and whether it holds a stream slot (to give back at its end).
type ChatAdmission struct {
	Refusal ChatRefusal
	Tokens  int
	Window  Window
	Slot    bool
}

// meterItem is the meter's part of the day item, as read.
type meterItem struct {
	In          int   `dynamodbav:"input_tokens"`
	Out         int   `dynamodbav:"output_tokens"`
	Tokens      *int  `dynamodbav:"tokens"`
	WindowStart int64 `dynamodbav:"window_start"`
	WindowCount int   `dynamodbav:"window_count"`
	Streams     int   `dynamodbav:"streams"`
	Lease       int64 `dynamodbav:"lease"`
	Ver         *int  `dynamodbav:"ver"`
}

// AdmitChat admits one message of uid at now under lim, or says which limit
// refuses it, checking the budget, then the rate, then the streams. Every
// message the rate does not refuse counts in the per-minute window, admitted
// or not; only an admitted one takes a stream slot. Each outcome is one
// conditional write, so a burst gets exactly the limits' admissions.
func (s *Store) AdmitChat(ctx context.Context, uid string, lim ChatLimits, now time.Time) (ChatAdmission, error) {
	if lim.DailyTokens <= 0 && lim.PerMinute <= 0 && lim.Streams <= 0 {
		return ChatAdmission{}, nil
	}
	m := meter{st: s, k: key(userPK(uid), chatUsageSK(now)), lim: lim, now: now}
	for range 8 {
		// The usual case: an open window, a live counter, room in each.
		if a, err := m.admitFast(ctx); err == nil || !isConditionFailed(err) {
			return a, err
		}
		var it meterItem
		err := s.getItem(ctx, userPK(uid), chatUsageSK(now), &it)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return ChatAdmission{}, fmt.Errorf("admit chat: %w", err)
		}
		a, err := m.settle(ctx, it)
		if err == nil || !isConditionFailed(err) {
			return a, err
		}
		// Another write came between the read and ours: look again.
	}
	return ChatAdmission{}, errors.New("admit chat: too much contention")
}

// meter is one admission's key, limits and time.
type meter struct {
	st  *Store
	k   map[string]types.AttributeValue
	lim ChatLimits
	now time.Time
}

func num(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

// meterWrite is one UpdateItem on the meter: SET expires_at and set, ADD
// ver and add, on cond ("" for none); names and vals beside the meter's own.
type meterWrite struct {
	set, add, cond string
	quiet          bool // answer nothing (the zero item)
	names          map[string]string
	vals           map[string]types.AttributeValue
}

// write runs w, answering the item as written.
func (m meter) write(ctx context.Context, w meterWrite) (meterItem, error) {
	if w.vals == nil {
		w.vals = map[string]types.AttributeValue{}
	}
	if w.names == nil {
		w.names = map[string]string{}
	}
	w.vals[":exp"] = num(m.now.Add(chatUsageRetention).Unix())
	w.vals[":one"] = num(1)
	w.names["#x"] = AttrExpires
	in := &dynamodb.UpdateItemInput{
		TableName:                 aws.String(m.st.table),
		Key:                       m.k,
		UpdateExpression:          aws.String("SET #x = :exp" + w.set + " ADD " + meterVersion + " :one" + w.add),
		ExpressionAttributeNames:  w.names,
		ExpressionAttributeValues: w.vals,
	}
	if !w.quiet {
		in.ReturnValues = types.ReturnValueAllNew
	}
	if w.cond != "" {
		in.ConditionExpression = aws.String(w.cond)
	}
	out, err := m.st.db.UpdateItem(ctx, in)
	if err != nil || w.quiet {
		return meterItem{}, err
	}
	var it meterItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &it); err != nil {
		return it, fmt.Errorf("chat meter: %w", err)
	}
	return it, nil
}

// admitFast counts the message and takes a slot in one write whose
// condition is room in every limit on an open window and a live counter.
func (m meter) admitFast(ctx context.Context) (ChatAdmission, error) {
	vals := map[string]types.AttributeValue{}
	var set, add, cond string
	and := func(c string) {
		if cond != "" {
			cond += " AND "
		}
		cond += c
	}
	if m.lim.DailyTokens > 0 {
		// An item without tokens but with totals predates the counter: it
		// goes the slow way, which fills it in.
		vals[":budget"] = num(int64(m.lim.DailyTokens))
		and("(attribute_not_exists(input_tokens) OR tokens < :budget)")
	}
	if m.lim.PerMinute > 0 {
		vals[":cutoff"] = num(m.now.Add(-m.lim.Window).UnixMilli())
		vals[":rate"] = num(int64(m.lim.PerMinute))
		and("window_start > :cutoff AND window_count < :rate")
		add += ", window_count :one"
	}
	if m.lim.Streams > 0 {
		vals[":now"] = num(m.now.Unix())
		vals[":max"] = num(int64(m.lim.Streams))
		vals[":zero"] = num(0)
		vals[":lease"] = num(m.now.Add(m.lim.Lease).Unix())
		and("lease > :now AND streams < :max AND streams >= :zero")
		set += ", lease = :lease"
		add += ", streams :one"
	}
	it, err := m.write(ctx, meterWrite{set: set, add: add, cond: cond, vals: vals})
	if err != nil {
		return ChatAdmission{}, err
	}
	return ChatAdmission{Tokens: it.tokens(), Window: it.window(), Slot: m.lim.Streams > 0}, nil
}

// settle decides the message from the item as read (it: zero when there is
// none) and writes that outcome: counters set from what was read, on the
// condition that nothing wrote in between (ver).
func (m meter) settle(ctx context.Context, it meterItem) (ChatAdmission, error) {
	win := it.window()
	if win.Start.IsZero() || !win.Start.After(m.now.Add(-m.lim.Window)) {
		win = Window{Start: time.UnixMilli(m.now.UnixMilli())}
	}
	streams := max(it.Streams, 0)
	if it.Lease <= m.now.Unix() {
		streams = 0
	}
	a := ChatAdmission{Tokens: it.tokens(), Window: win}
	switch {
	case m.lim.DailyTokens > 0 && a.Tokens >= m.lim.DailyTokens:
		a.Refusal = ChatOverBudget
	case m.lim.PerMinute > 0 && win.Count >= m.lim.PerMinute:
		// A full window counts no more: nothing to write.
		return ChatAdmission{Refusal: ChatOverRate, Tokens: a.Tokens, Window: win}, nil
	case m.lim.Streams > 0 && streams >= m.lim.Streams:
		a.Refusal = ChatNoStreamSlot
	}
	// A refused message counts too, while the window has room.
	counts := m.lim.PerMinute > 0 && win.Count < m.lim.PerMinute
	if a.Refusal != ChatAdmitted && win == it.window() && it.Tokens != nil {
		if counts {
			return a, m.countRefused(ctx, &a)
		}
		return a, nil
	}
	if counts {
		a.Window.Count++
	}
	lease := it.Lease
	if a.Refusal == ChatAdmitted && m.lim.Streams > 0 {
		streams++
		lease = m.now.Add(m.lim.Lease).Unix()
		a.Slot = true
	}
	cond := "attribute_not_exists(" + meterVersion + ")"
	vals := map[string]types.AttributeValue{
		":ws": num(a.Window.Start.UnixMilli()), ":wc": num(int64(a.Window.Count)),
		":streams": num(int64(streams)), ":lease": num(lease), ":tokens": num(int64(a.Tokens)),
	}
	if it.Ver != nil {
		cond = meterVersion + " = :ver"
		vals[":ver"] = num(int64(*it.Ver))
	}
	set := ", window_start = :ws, window_count = :wc, streams = :streams, lease = :lease, tokens = :tokens"
	if _, err := m.write(ctx, meterWrite{set: set, cond: cond, vals: vals}); err != nil {
		return ChatAdmission{}, err
	}
	return a, nil
}

// countRefused counts a message refused by the budget or the streams in
// the open window it was read in (a, counted in place): one ADD, so that a
// burst of refusals does not queue on ver. When the window filled (or
// ended) meanwhile the condition fails and AdmitChat decides again.
func (m meter) countRefused(ctx context.Context, a *ChatAdmission) error {
	_, err := m.write(ctx, meterWrite{add: ", window_count :one", quiet: true, cond: "window_start = :ws AND window_count < :rate",
		vals: map[string]types.AttributeValue{":ws": num(a.Window.Start.UnixMilli()), ":rate": num(int64(m.lim.PerMinute))}})
	if err == nil {
		a.Window.Count++
	}
	return err
}

// EndChat records a stream's usage (nil: none) and gives back its slot, in
// one write on the day item of its admission (admittedAt). The slot is
// given back unconditionally: a counter driven below zero (a slot given
// back after its lease ran out) is set right by the next admission.
func (s *Store) EndChat(ctx context.Context, uid string, admittedAt time.Time, u *domain.ModelUsage, slot bool) error {
	if u == nil && !slot {
		return nil
	}
	m := meter{st: s, k: key(userPK(uid), chatUsageSK(admittedAt)), now: admittedAt}
	vals := map[string]types.AttributeValue{}
	names := map[string]string{}
	var add string
	if slot {
		vals[":minus"] = num(-1)
		add += ", streams :minus"
	}
	if u != nil {
		if !chatModelNamable(u.Provider, u.Model) {
			return fmt.Errorf("record chat usage: bad model %q/%q", u.Provider, u.Model)
		}
		vals[":in"], vals[":out"], vals[":req"] = num(int64(u.InputTokens)), num(int64(u.OutputTokens)), num(int64(u.Requests))
		vals[":tot"] = num(int64(u.InputTokens + u.OutputTokens))
		names["#min"] = chatModelAttr("in", u.Provider, u.Model, u.Demo)
		names["#mout"] = chatModelAttr("out", u.Provider, u.Model, u.Demo)
		names["#mreq"] = chatModelAttr("req", u.Provider, u.Model, u.Demo)
		add += ", input_tokens :in, output_tokens :out, tokens :tot, requests :req, #min :in, #mout :out, #mreq :req"
	}
	if _, err := m.write(ctx, meterWrite{add: add, quiet: true, names: names, vals: vals}); err != nil {
		return fmt.Errorf("end chat: %w", err)
	}
	return nil
}

// OpenStreams answers how many slots uid holds at now (0 once the lease has
// run out).
func (s *Store) OpenStreams(ctx context.Context, uid string, now time.Time) (int, error) {
	var it meterItem
	err := s.getItem(ctx, userPK(uid), chatUsageSK(now), &it)
	if errors.Is(err, ErrNotFound) || (err == nil && it.Lease <= now.Unix()) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("open streams: %w", err)
	}
	return max(it.Streams, 0), nil
}

// tokens is the day's tokens: the counter, or the totals on an item that
// predates it.
func (it meterItem) tokens() int {
	if it.Tokens != nil {
		return *it.Tokens
	}
	return it.In + it.Out
}

func (it meterItem) window() Window {
	if it.WindowStart == 0 {
		return Window{}
	}
	return Window{Start: time.UnixMilli(it.WindowStart), Count: it.WindowCount}
}
