package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// A user's chat usage is one item per UTC day (USER#<uid> / USAGE#<day>):
// the day's totals input_tokens, output_tokens and requests, which the daily
// budget reads, and per model three top-level counters named by
// chatModelAttr (m#<provider>#<model>[#demo]#in|out|req).
//
// Why flat attributes and not a map per model: DynamoDB's ADD on a nested
// path (models.x.in) needs the map models.x to exist already, and one
// UpdateExpression cannot both create it (SET if_not_exists) and ADD into it
// (overlapping paths), so a map would need a second write the first time a
// model is used that day. ADD on a top-level attribute creates it at zero,
// so one UpdateItem records a whole stream, totals and model together, and
// concurrent ADDs are each applied exactly, on DynamoDB and dynalite alike.
// A day item holds at most a few dozen counters (catalogue models × demo).

// chatUsageRetention keeps a day's usage for a bit over a year.
const chatUsageRetention = 400 * 24 * time.Hour

// RecordChatUsage adds u (tokens and its Requests, one per stream) to uid's
// usage on at's UTC day, in one UpdateItem of ADDs (EndChat without a slot).
func (s *Store) RecordChatUsage(ctx context.Context, uid string, at time.Time, u domain.ModelUsage) error {
	return s.EndChat(ctx, uid, at, &u, false)
}

// ChatTokensOn answers uid's input+output tokens on day's UTC day.
func (s *Store) ChatTokensOn(ctx context.Context, uid string, day time.Time) (int, error) {
	var it struct {
		In  int `dynamodbav:"input_tokens"`
		Out int `dynamodbav:"output_tokens"`
	}
	err := s.getItem(ctx, userPK(uid), chatUsageSK(day), &it)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("chat tokens: %w", err)
	}
	return it.In + it.Out, nil
}

// ChatUsageMonth answers uid's usage on each day of t's UTC month that has
// any, oldest first, each day's models in catalogue-independent order
// (provider, model, demo last).
func (s *Store) ChatUsageMonth(ctx context.Context, uid string, t time.Time) ([]domain.DayUsage, error) {
	// Raw items: the model counters are attributes named by chatModelAttr,
	// which no struct can name in advance.
	items, err := queryItems(ctx, s, partitionQuery(userPK(uid), chatUsageMonthPrefix(t)), "chat usage")
	if err != nil {
		return nil, err
	}
	// A day item may hold only the chat meter's counters (its messages
	// were refused before reaching a model): no usage, so no usage day.
	days := make([]domain.DayUsage, 0, len(items))
	for _, it := range items {
		if d := dayUsageFrom(it); len(d.Models) > 0 {
			days = append(days, d)
		}
	}
	return days, nil
}

// dayUsageFrom reads a day item's model counters.
func dayUsageFrom(item map[string]types.AttributeValue) domain.DayUsage {
	var d domain.DayUsage
	if sk, ok := item[AttrSK].(*types.AttributeValueMemberS); ok {
		d.Date = chatUsageDate(sk.Value)
	}
	type model struct {
		provider, model string
		demo            bool
	}
	byModel := map[model]*domain.ModelUsage{}
	for name, av := range item {
		kind, provider, name, demo, ok := parseChatModelAttr(name)
		num, isNum := av.(*types.AttributeValueMemberN)
		if !ok || !isNum {
			continue
		}
		v, _ := strconv.Atoi(num.Value)
		k := model{provider, name, demo}
		u := byModel[k]
		if u == nil {
			u = &domain.ModelUsage{Provider: provider, Model: name, Demo: demo}
			byModel[k] = u
		}
		switch kind {
		case "in":
			u.InputTokens = v
		case "out":
			u.OutputTokens = v
		case "req":
			u.Requests = v
		}
	}
	for _, u := range byModel {
		d.Models = append(d.Models, *u)
	}
	slices.SortFunc(d.Models, func(a, b domain.ModelUsage) int {
		return cmp.Or(cmp.Compare(a.Provider, b.Provider), cmp.Compare(a.Model, b.Model), boolOrder(a.Demo, b.Demo))
	})
	return d
}

func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
