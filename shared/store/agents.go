package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/domain"
)

// Agents: one item per agent (AGENT#<aid> / AGENT), every write of it
// conditional on the version its writer read. The item carries the
// marketplace's GSI1 key (AGENTS) only while the agent is on sale
// (domain.Agent.OnSale), so a write that takes it off sale (suspended,
// withdrawn, its creator suspended, back to review) takes it off the
// listing in the same write. Its creator's agents are listed through GSI2
// (CAGENTS#<uid>).

type agentItem struct {
	PK                 string               `dynamodbav:"PK"`
	SK                 string               `dynamodbav:"SK"`
	GSI1PK             string               `dynamodbav:"GSI1PK,omitempty"`
	GSI1SK             string               `dynamodbav:"GSI1SK,omitempty"`
	GSI2PK             string               `dynamodbav:"GSI2PK,omitempty"`
	GSI2SK             string               `dynamodbav:"GSI2SK,omitempty"`
	ID                 string               `dynamodbav:"id"`
	Name               string               `dynamodbav:"name"`
	Description        string               `dynamodbav:"description"`
	Instructions       string               `dynamodbav:"instructions"`
	Provider           string               `dynamodbav:"provider"`
	Model              string               `dynamodbav:"model"`
	Servers            []domain.AgentServer `dynamodbav:"servers"`
	Starters           []string             `dynamodbav:"starters"`
	CategoryID         string               `dynamodbav:"category_id"`
	Price              float64              `dynamodbav:"price"`
	CreatorID          string               `dynamodbav:"creator_id"`
	CreatorUsername    string               `dynamodbav:"creator_username"`
	CreatorDisplayName string               `dynamodbav:"creator_display_name"`
	State              string               `dynamodbav:"state"`
	ReviewReason       string               `dynamodbav:"review_reason"`
	Version            int                  `dynamodbav:"version"`
	Published          int                  `dynamodbav:"published"`
	Pending            *domain.AgentPending `dynamodbav:"pending,omitempty"`
	Suspended          bool                 `dynamodbav:"suspended"`
	CreatorSuspended   bool                 `dynamodbav:"creator_suspended"`
	Withdrawn          bool                 `dynamodbav:"withdrawn"`
	RatingSum          int                  `dynamodbav:"rating_sum"`
	RatingCount        int                  `dynamodbav:"rating_count"`
	CreatedAt          string               `dynamodbav:"created_at"`
	UpdatedAt          string               `dynamodbav:"updated_at"`
	Reviews            []reviewDecisionItem `dynamodbav:"reviews,omitempty"`
	// Purchases counts the agent's sales (CountAgentPurchase): an agent
	// someone bought is withdrawn, never deleted.
	Purchases int `dynamodbav:"purchases"`
}

// Attributes an agent's write leaves alone: its key, its creation, the
// ratings (counted by RateAgent beside the writes) and the review
// decisions (appended by the decision's write).
var agentKeptAttrs = []string{AttrPK, AttrSK, "id", "created_at", "rating_sum", "rating_count", "reviews", "purchases"}

func newAgentItem(a domain.Agent) agentItem {
	it := agentItem{PK: agentPK(a.ID), SK: skAgent, ID: a.ID, Name: a.Name, Description: a.Description,
		Instructions: a.Instructions, Provider: a.Provider, Model: a.Model, Servers: nonNil(a.Servers), Starters: nonNil(a.Starters),
		CategoryID: a.CategoryID, Price: roundCents(a.Price), CreatorID: a.CreatorID, CreatorUsername: a.CreatorUsername,
		CreatorDisplayName: a.CreatorDisplayName, State: a.State, ReviewReason: a.ReviewReason, Version: a.Version,
		Published: a.Published, Pending: a.Pending, Suspended: a.Suspended, CreatorSuspended: a.CreatorSuspended,
		Withdrawn: a.Withdrawn, RatingSum: a.RatingSum, RatingCount: a.RatingCount,
		CreatedAt: formatTime(a.CreatedAt), UpdatedAt: formatTime(cmp.Or(a.UpdatedAt, a.CreatedAt))}
	if it.Pending != nil {
		p := *it.Pending
		p.Servers, p.Starters, p.Price = nonNil(p.Servers), nonNil(p.Starters), roundCents(p.Price)
		it.Pending = &p
	}
	if a.OnSale() {
		it.GSI1PK, it.GSI1SK = GSI1Agents, agentIndexSK(a.CreatedAt, a.ID)
	}
	if a.CreatorID != "" {
		it.GSI2PK, it.GSI2SK = creatorAgentsGSI2PK(a.CreatorID), agentIndexSK(a.CreatedAt, a.ID)
	}
	return it
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (it agentItem) domain() domain.Agent {
	a := domain.Agent{ID: it.ID, Name: it.Name, Description: it.Description, Instructions: it.Instructions,
		Provider: it.Provider, Model: it.Model, Servers: nonNil(it.Servers), Starters: nonNil(it.Starters),
		CategoryID: it.CategoryID, Price: it.Price, CreatorID: it.CreatorID, CreatorUsername: it.CreatorUsername,
		CreatorDisplayName: it.CreatorDisplayName, State: it.State, ReviewReason: it.ReviewReason, Version: it.Version,
		Published: it.Published, Pending: it.Pending, Suspended: it.Suspended, CreatorSuspended: it.CreatorSuspended,
		Withdrawn: it.Withdrawn, RatingSum: it.RatingSum, RatingCount: it.RatingCount,
		CreatedAt: parseTime(it.CreatedAt), UpdatedAt: parseTime(it.UpdatedAt)}
	for i := range a.Servers {
		a.Servers[i].Tools = nonNil(a.Servers[i].Tools)
	}
	if a.Pending != nil {
		a.Pending.Servers, a.Pending.Starters = nonNil(a.Pending.Servers), nonNil(a.Pending.Starters)
		for i := range a.Pending.Servers {
			a.Pending.Servers[i].Tools = nonNil(a.Pending.Servers[i].Tools)
		}
	}
	return a
}

// PutAgent stores a new agent under its id, at a.Version (at least 1);
// ErrVersionConflict when the id is taken.
func (s *Store) PutAgent(ctx context.Context, a domain.Agent) error {
	if a.Version < 1 {
		return fmt.Errorf("put agent %s: version %d, want at least 1", a.ID, a.Version)
	}
	switch err := s.putNew(ctx, newAgentItem(a)); {
	case errors.Is(err, errExists):
		return fmt.Errorf("put agent: %w", ErrVersionConflict)
	case err != nil:
		return fmt.Errorf("put agent: %w", err)
	}
	return nil
}

// GetAgent reads the agent aid (ErrNotFound if none).
func (s *Store) GetAgent(ctx context.Context, aid string) (domain.Agent, error) {
	var it agentItem
	if err := s.getItem(ctx, agentPK(aid), skAgent, &it); err != nil {
		return domain.Agent{}, fmt.Errorf("get agent: %w", err)
	}
	return it.domain(), nil
}

// UpdateAgent writes a (every field but its id, creation time and
// ratings, reviews and sales) if the agent is still at version expect; a.Version must follow
// it. ErrVersionConflict when it moved on or is gone. Its listing keys go
// with it: an agent no longer on sale leaves the marketplace in this write.
func (s *Store) UpdateAgent(ctx context.Context, a domain.Agent, expect int) error {
	return s.updateAgent(ctx, "update agent", a, expect, "", nil, nil)
}

// updateAgent is UpdateAgent with further SET clauses (", #x = :v") and
// their names and values.
func (s *Store) updateAgent(ctx context.Context, op string, a domain.Agent, expect int, set string, extraNames map[string]string, extra map[string]types.AttributeValue) error {
	if a.Version <= expect {
		return fmt.Errorf("%s %s: version %d does not follow %d", op, a.ID, a.Version, expect)
	}
	av, err := attributevalue.MarshalMap(newAgentItem(a))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	names := map[string]string{"#v": "version"}
	values := map[string]types.AttributeValue{":read": &types.AttributeValueMemberN{Value: strconv.Itoa(expect)}}
	var sets, removes []string
	attrs := make([]string, 0, len(av))
	for k := range av {
		attrs = append(attrs, k)
	}
	slices.Sort(attrs)
	for i, k := range attrs {
		if slices.Contains(agentKeptAttrs, k) {
			continue
		}
		n := "#a" + strconv.Itoa(i)
		names[n] = k
		values[":a"+strconv.Itoa(i)] = av[k]
		sets = append(sets, n+" = :a"+strconv.Itoa(i))
	}
	for i, k := range []string{AttrGSI1PK, AttrGSI1SK, AttrGSI2PK, AttrGSI2SK, "pending"} {
		if _, ok := av[k]; !ok {
			n := "#r" + strconv.Itoa(i)
			names[n] = k
			removes = append(removes, n)
		}
	}
	update := "SET " + joinComma(sets) + set
	if len(removes) > 0 {
		update += " REMOVE " + joinComma(removes)
	}
	for k, v := range extra {
		values[k] = v
	}
	for k, v := range extraNames {
		names[k] = v
	}
	if !keyFits(agentPK(a.ID), skAgent) {
		return fmt.Errorf("%s: %w", op, ErrVersionConflict)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(s.table), Key: key(agentPK(a.ID), skAgent),
		UpdateExpression: aws.String(update), ConditionExpression: aws.String("attribute_exists(PK) AND #v = :read"),
		ExpressionAttributeNames: names, ExpressionAttributeValues: values,
	})
	return conditional(op, err, fmt.Errorf("%s: %w", op, ErrVersionConflict))
}

func joinComma(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += ", "
		}
		out += p
	}
	return out
}

// CreatorAgents lists uid's agents, newest first (GSI2: eventually
// consistent).
func (s *Store) CreatorAgents(ctx context.Context, uid string) ([]domain.Agent, error) {
	in := gsi2Query(creatorAgentsGSI2PK(uid))
	in.ScanIndexForward = aws.Bool(false)
	items, err := queryAll[agentItem](ctx, s, in, "creator agents")
	if err != nil {
		return nil, err
	}
	return convertAll(items, agentItem.domain), nil
}

// AgentListPlace is an agent's place in the newest-first order of
// CreatorAgents, ListedAgents and AllAgents (its index sort key), a string
// that sorts as those lists do, backwards: a cursor that outlives the
// agent it was taken from.
func AgentListPlace(a domain.Agent) string { return agentIndexSK(a.CreatedAt, a.ID) }

// ListedAgents lists the agents on sale, newest first (GSI1 AGENTS). An
// entry the index has not yet caught up on is checked again here: only
// agents OnSale are answered.
func (s *Store) ListedAgents(ctx context.Context) ([]domain.Agent, error) {
	in := gsi1Query(GSI1Agents, "")
	in.ScanIndexForward = aws.Bool(false)
	items, err := queryAll[agentItem](ctx, s, in, "listed agents")
	if err != nil {
		return nil, err
	}
	out := []domain.Agent{}
	for _, it := range items {
		if a := it.domain(); a.OnSale() {
			out = append(out, a)
		}
	}
	return out, nil
}

// AgentVersion is a version of an agent that went live, kept whole beside
// it (AGENT#<aid> / VER#<number>): what its buyers ran from then on.
type AgentVersion struct {
	Number       int                  `dynamodbav:"number"`
	Name         string               `dynamodbav:"name"`
	Description  string               `dynamodbav:"description"`
	Instructions string               `dynamodbav:"instructions"`
	Provider     string               `dynamodbav:"provider"`
	Model        string               `dynamodbav:"model"`
	Servers      []domain.AgentServer `dynamodbav:"servers"`
	Starters     []string             `dynamodbav:"starters"`
	CategoryID   string               `dynamodbav:"category_id"`
	Price        float64              `dynamodbav:"price"`
	ChangeNote   string               `dynamodbav:"change_note"`
	PublishedAt  time.Time            `dynamodbav:"published_at"`
}

type agentVersionItem struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
	AgentVersion
}

// PutAgentVersion keeps v as version v.Number of aid (written before the
// agent moves to it; writing it again is harmless).
func (s *Store) PutAgentVersion(ctx context.Context, aid string, v AgentVersion) error {
	v.Servers, v.Starters, v.Price = nonNil(v.Servers), nonNil(v.Starters), roundCents(v.Price)
	if err := s.put(ctx, agentVersionItem{PK: agentPK(aid), SK: agentVersionSK(v.Number), AgentVersion: v}); err != nil {
		return fmt.Errorf("keep agent version: %w", err)
	}
	return nil
}

// AgentVersions lists the versions of aid that went live, oldest first.
func (s *Store) AgentVersions(ctx context.Context, aid string) ([]AgentVersion, error) {
	items, err := queryAll[agentVersionItem](ctx, s, partitionQuery(agentPK(aid), agentVersionPrefix), "agent versions")
	if err != nil {
		return nil, err
	}
	return convertAll(items, func(it agentVersionItem) AgentVersion { return it.AgentVersion }), nil
}

// AllAgents lists every agent, newest first, for the admins: each
// creator's (GSI2 CREATORS, then CAGENTS#<uid>), since only a creator
// makes agents.
func (s *Store) AllAgents(ctx context.Context) ([]domain.Agent, error) {
	creators, err := queryAll[creatorItem](ctx, s, gsi2Query(GSI2Creators), "all agents")
	if err != nil {
		return nil, err
	}
	out := []domain.Agent{}
	for _, c := range creators {
		list, err := s.CreatorAgents(ctx, c.UserID)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
	}
	slices.SortFunc(out, func(a, b domain.Agent) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	return out, nil
}
