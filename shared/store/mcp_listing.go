package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/sync/errgroup"

	"aiwork/shared/domain"
	"aiwork/shared/prompts"
)

// The registry listing, built as the marketplace's (prompt_listing.go): a
// copy of each listed server's card in every partition it is listed in,
// RLIST#ALL, RLIST#MT#<model type> and RTOK#<word> for each of its words
// (prompts.Tokens of its title, name and description, at most
// prompts.MaxPromptTokens), its SK its place in the one order the list
// has: display name, case-insensitive, then id. Each partition holds a
// COUNT item. The server's item stays the source of truth; every write
// that changes what its card shows or whether it is listed moves its
// revision (irev) on, and a sync (the marketplace's discipline: keys
// recorded on the item before the copies are written, each copy put only
// over an older revision, srev marked at the end) brings the copies in
// line.
//
// Health: a card carries what of its server's health changes rarely (the
// status, the tool count, when the tools last changed), written into the
// copies only when a probe finds one of them changed (an up server stays
// up for days), so probing every 15 minutes costs no copy writes for
// servers that hold steady. The figures every probe moves (when it was
// checked, its latency) are on the server's own page, not on the card.

const (
	regListAllPK   = PKRegistryList + "ALL"
	regListTypePre = PKRegistryList + "MT#"
	regTokenPre    = PKRegistryToken
	regListSKPre   = "S#"
	// mcpListingFormat is the shape of the copies this code writes (2:
	// with the registry API's, mcp_listing_api.go).
	mcpListingFormat = 2
)

func regListTypePK(mt string) string { return regListTypePre + mt }
func regTokenPK(word string) string  { return regTokenPre + word }
func regListSK(display, sid string) string {
	return regListSKPre + mcpServersGSI1SK(display, sid)
}

// mcpSyncAttrs are a server item's listing bookkeeping.
type mcpSyncAttrs struct {
	Irev int      `dynamodbav:"irev,omitempty"`
	Srev int      `dynamodbav:"srev,omitempty"`
	Lfmt int      `dynamodbav:"lfmt,omitempty"`
	Idx  []string `dynamodbav:"idx,stringset,omitempty"`
}

// mcpCardItem is one copy of a server's card.
type mcpCardItem struct {
	PK             string   `dynamodbav:"PK"`
	SK             string   `dynamodbav:"SK"`
	ID             string   `dynamodbav:"id"`
	Name           string   `dynamodbav:"name"`
	Title          string   `dynamodbav:"title,omitempty"`
	Description    string   `dynamodbav:"description,omitempty"`
	EndpointURL    string   `dynamodbav:"endpoint_url,omitempty"`
	Transport      string   `dynamodbav:"transport,omitempty"`
	ModelType      string   `dynamodbav:"model_type,omitempty"`
	APIKeyRequired bool     `dynamodbav:"api_key_required,omitempty"`
	OAuthRequired  bool     `dynamodbav:"oauth_required,omitempty"`
	Features       []string `dynamodbav:"supported_features,omitempty"`
	WebsiteURL     string   `dynamodbav:"website_url,omitempty"`
	Repository     string   `dynamodbav:"repository,omitempty"`
	Health         string   `dynamodbav:"health_status,omitempty"`
	ToolsCount     int      `dynamodbav:"health_tools_count,omitempty"`
	ToolsChangedAt string   `dynamodbav:"health_tools_changed_at,omitempty"`
	Rev            int      `dynamodbav:"rev"`
	Words          []string `dynamodbav:"toks,stringset,omitempty"`
}

func (c mcpCardItem) domain() domain.MCPServer {
	status := c.Health
	if status == "" {
		status = domain.HealthUnknown
	}
	return domain.MCPServer{
		ID: c.ID, Name: c.Name, Title: c.Title, Description: c.Description, EndpointURL: c.EndpointURL,
		Transport: c.Transport, ModelType: c.ModelType, APIKeyRequired: c.APIKeyRequired, OAuthRequired: c.OAuthRequired,
		IsActive: true, ListedActive: true, SupportedFeatures: slices.Clone(c.Features), WebsiteURL: c.WebsiteURL,
		Repository: c.Repository, Health: domain.MCPHealth{Status: status, ToolsCount: c.ToolsCount, ToolsChangedAt: c.ToolsChangedAt},
	}
}

// mcpServerWords are the words a server is found by.
func mcpServerWords(srv domain.MCPServer) []string {
	out := prompts.Tokens(srv.Title + "\n" + srv.Name + "\n" + srv.Description)
	if len(out) > prompts.MaxPromptTokens {
		out = out[:prompts.MaxPromptTokens]
	}
	return out
}

// mcpListingTargets are the copies the server item should have, by
// listingKey: its cards when it is listed (mcpCardItem), and the
// registry API's items whether it is or not (mcpAPITargets).
func mcpListingTargets(it mcpServerItem) map[string]any {
	out := mcpAPITargets(it)
	srv := it.domain()
	if !srv.IsActive {
		return out
	}
	words := mcpServerWords(srv)
	base := mcpCardItem{
		ID: srv.ID, Name: srv.Name, Title: srv.Title, Description: srv.Description, EndpointURL: srv.EndpointURL,
		Transport: srv.Transport, ModelType: srv.ModelType, APIKeyRequired: srv.APIKeyRequired, OAuthRequired: srv.OAuthRequired,
		Features: srv.SupportedFeatures, WebsiteURL: srv.WebsiteURL, Repository: srv.Repository,
		Health: it.mcpHealthAttrs.Status, ToolsCount: it.mcpHealthAttrs.ToolsCount, ToolsChangedAt: it.mcpHealthAttrs.ToolsChangedAt, Rev: it.Irev,
	}
	sk := regListSK(displayName(srv), srv.ID)
	partitions := []string{regListAllPK}
	if srv.ModelType != "" {
		partitions = append(partitions, regListTypePK(srv.ModelType))
	}
	for _, w := range words {
		partitions = append(partitions, regTokenPK(w))
	}
	for _, pk := range partitions {
		c := base
		c.PK, c.SK = pk, sk
		if pk != regListAllPK {
			c.Words = words
		}
		out[listingKey(pk, sk)] = c
	}
	return out
}

func (s *Store) readMCPServerItem(ctx context.Context, sid string) (mcpServerItem, bool, error) {
	var it mcpServerItem
	err := s.getItem(ctx, mcpServerPK(sid), skMCPServer, &it)
	if errors.Is(err, ErrNotFound) {
		return it, false, nil
	}
	if err != nil {
		return it, false, fmt.Errorf("read mcp server %s: %w", sid, err)
	}
	return it, true, nil
}

// syncMCPListing brings server sid's copies in line with its item, starting
// again when it changed meanwhile (the last writer to finish wins).
func (s *Store) syncMCPListing(ctx context.Context, sid string) error {
	written := map[string]bool{}
	for range maxSyncRounds {
		it, found, err := s.readMCPServerItem(ctx, sid)
		if err != nil {
			return err
		}
		if !found {
			return nil // servers are never deleted; nothing was listed
		}
		targets := mcpListingTargets(it)
		had := map[string]bool{}
		for _, k := range it.Idx {
			had[k] = true
		}
		var add []string
		for k := range targets {
			if !had[k] {
				add = append(add, k)
			}
		}
		pk := mcpServerPK(sid)
		if len(add) > 0 {
			_, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
				TableName: aws.String(s.table), Key: key(pk, skMCPServer),
				UpdateExpression:          aws.String("ADD idx :keys"),
				ConditionExpression:       aws.String("attribute_exists(PK)"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":keys": &types.AttributeValueMemberSS{Value: add}},
			})
			if err != nil {
				return fmt.Errorf("sync registry listing: %w", err)
			}
		}
		deltas, err := s.writeListingCopies(ctx, copyWrite{rev: it.Irev, what: "registry card", counts: countsMCPCopy}, targets, had, written)
		if err != nil {
			return err
		}
		if err := s.addCounts(ctx, deltas); err != nil {
			return err
		}
		var removed []string
		for k := range had {
			if _, keep := targets[k]; !keep {
				removed = append(removed, k)
			}
		}
		expr := "SET srev = :rev, lfmt = :fmt"
		values := map[string]types.AttributeValue{
			":rev": &types.AttributeValueMemberN{Value: strconv.Itoa(it.Irev)},
			":fmt": &types.AttributeValueMemberN{Value: strconv.Itoa(mcpListingFormat)},
		}
		if len(removed) > 0 {
			expr += " DELETE idx :gone"
			values[":gone"] = &types.AttributeValueMemberSS{Value: removed}
		}
		cond := "irev = :rev"
		if it.Irev == 0 {
			cond = "attribute_not_exists(irev)"
		}
		_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String(s.table), Key: key(pk, skMCPServer),
			UpdateExpression: aws.String(expr), ConditionExpression: aws.String(cond), ExpressionAttributeValues: values,
		})
		if isConditionFailed(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("mark registry listing synced: %w", err)
		}
		return nil
	}
	return fmt.Errorf("sync registry listing of %s: it kept changing", sid)
}

// afterMCPServerWrite syncs the listing after a write to server sid; a
// sync that fails is logged and leaves the server behind (srev < irev)
// for its next write or the backfill.
func (s *Store) afterMCPServerWrite(ctx context.Context, sid string) {
	if err := s.syncMCPListing(context.WithoutCancel(ctx), sid); err != nil {
		slog.ErrorContext(ctx, "registry listing not brought up to date", "server", sid, "err", err)
	}
}

// refreshMCPCardHealth writes a server's new card health into its copies
// (no copy moves). Called only when a probe changed it.
func (s *Store) refreshMCPCardHealth(ctx context.Context, idx []string, h domain.MCPHealth) {
	ctx = context.WithoutCancel(ctx)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(syncWorkers)
	for _, k := range idx {
		pk, sk := splitListingKey(k)
		if isAPIPartition(pk) {
			continue // the probe's figures are written there at every probe
		}
		g.Go(func() error {
			_, err := s.db.UpdateItem(gctx, &dynamodb.UpdateItemInput{
				TableName: aws.String(s.table), Key: key(pk, sk),
				UpdateExpression:    aws.String("SET health_status = :h, health_tools_count = :n, health_tools_changed_at = :c"),
				ConditionExpression: aws.String("attribute_exists(PK)"),
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":h": &types.AttributeValueMemberS{Value: h.Status},
					":n": &types.AttributeValueMemberN{Value: strconv.Itoa(h.ToolsCount)},
					":c": &types.AttributeValueMemberS{Value: h.ToolsChangedAt},
				},
			})
			if err != nil && !isConditionFailed(err) {
				return err
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		slog.ErrorContext(ctx, "registry listing: health not copied", "err", err)
	}
}

// cardHealthChanged reports whether a probe changed what the card shows.
func cardHealthChanged(old mcpHealthAttrs, h domain.MCPHealth) bool {
	return old.Status != h.Status || old.ToolsCount != h.ToolsCount || old.ToolsChangedAt != h.ToolsChangedAt
}

// BackfillMCPListings gives the registry listing every server whose
// copies are missing or behind (stored before the listing, another
// format, or a sync that failed). It reads the servers' index once, so it
// runs outside requests (the devserver's start, the operator's backfill).
func (s *Store) BackfillMCPListings(ctx context.Context) (int, error) {
	in := gsi1Query(gsiMCPServersKey, "")
	in.FilterExpression = aws.String("attribute_not_exists(srev) OR attribute_not_exists(irev) OR srev <> irev OR attribute_not_exists(lfmt) OR lfmt <> :fmt")
	in.ProjectionExpression = aws.String("id")
	in.ExpressionAttributeValues[":fmt"] = &types.AttributeValueMemberN{Value: strconv.Itoa(mcpListingFormat)}
	behind, err := queryAll[struct {
		ID string `dynamodbav:"id"`
	}](ctx, s, in, "backfill registry listings")
	if err != nil {
		return 0, err
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, b := range behind {
		g.Go(func() error {
			_, err := s.db.UpdateItem(gctx, &dynamodb.UpdateItemInput{
				TableName: aws.String(s.table), Key: key(mcpServerPK(b.ID), skMCPServer),
				UpdateExpression:          aws.String("SET irev = if_not_exists(irev, :one)"),
				ConditionExpression:       aws.String("attribute_exists(PK)"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
			})
			if isConditionFailed(err) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("backfill registry listings: %w", err)
			}
			return s.syncMCPListing(gctx, b.ID)
		})
	}
	if err := g.Wait(); err != nil {
		return 0, err
	}
	return len(behind), nil
}

// MCPListQuery asks for one page of the registry list.
type MCPListQuery struct {
	ModelType string
	// Words are the search's (prompts.QueryTokens); none: no search.
	Words  []string
	Limit  int
	Cursor string
}

// MCPListPage is one page of the registry list.
type MCPListPage struct {
	Servers    []domain.MCPServer
	NextCursor string
	Count      int
	CountExact bool
}

type mcpCursor struct {
	After string `json:"a"`
	From  string `json:"f"`
	Hash  uint64 `json:"h"`
}

func (q MCPListQuery) hash() uint64 {
	h := fnv.New64a()
	h.Write([]byte(q.ModelType))
	for _, w := range q.Words {
		h.Write([]byte{0})
		h.Write([]byte(w))
	}
	return h.Sum64()
}

// reads reports whether pk is a partition this query may read.
func (q MCPListQuery) reads(pk string) bool {
	if len(q.Words) == 0 {
		return pk == ""
	}
	for _, w := range q.Words {
		if pk == regTokenPK(w) {
			return true
		}
	}
	return false
}

// ListMCPServerPage answers one page of the listed servers in name order;
// ErrBadCursor for a cursor this query did not give. Without a search it
// reads one partition (all, or the model type's) beside its COUNT; a
// search reads the partition of its word listing the fewest servers and
// keeps the cards that have its other words (and the model type).
func (s *Store) ListMCPServerPage(ctx context.Context, q MCPListQuery) (MCPListPage, error) {
	if q.Limit < 1 {
		return MCPListPage{}, fmt.Errorf("list mcp servers: limit %d", q.Limit)
	}
	var cur mcpCursor
	if q.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(q.Cursor)
		if err != nil || json.Unmarshal(raw, &cur) != nil || cur.Hash != q.hash() ||
			!strings.HasPrefix(cur.After, regListSKPre) || len(cur.After) > maxSortKeyBytes || !q.reads(cur.From) {
			return MCPListPage{}, ErrBadCursor
		}
	}
	pk := regListAllPK
	if q.ModelType != "" {
		pk = regListTypePK(q.ModelType)
	}
	exact := true
	if len(q.Words) > 0 {
		pks := []string{}
		for _, w := range q.Words {
			pks = append(pks, regTokenPK(w))
		}
		if cur.From != "" {
			pk = cur.From
		} else {
			counts, err := s.listCounts(ctx, pks)
			if err != nil {
				return MCPListPage{}, err
			}
			best := -1
			for _, p := range pks {
				if best < 0 || counts[p] < best {
					pk, best = p, counts[p]
				}
			}
		}
		exact = len(q.Words) == 1 && q.ModelType == ""
	}
	var (
		count    int
		countErr error
		wg       sync.WaitGroup
	)
	if exact {
		wg.Go(func() {
			var counts map[string]int
			counts, countErr = s.listCounts(ctx, []string{pk})
			count = max(counts[pk], 0)
		})
	}
	keep := func(c mcpCardItem) bool {
		if len(q.Words) == 0 {
			return true
		}
		if q.ModelType != "" && c.ModelType != q.ModelType {
			return false
		}
		for _, w := range q.Words {
			if !slices.Contains(c.Words, w) {
				return false
			}
		}
		return true
	}
	var out []domain.MCPServer
	after, next, lastKept := cur.After, "", ""
	examined := 0
	for {
		// The page and one more; a search that had to skip cards reads on
		// in larger steps.
		fetch := q.Limit + 1 - len(out)
		if examined > 0 {
			fetch = maxFetch
		}
		in := &dynamodb.QueryInput{
			TableName:                 aws.String(s.table),
			KeyConditionExpression:    aws.String("PK = :pk AND SK BETWEEN :lo AND :hi"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}, ":lo": &types.AttributeValueMemberS{Value: regListSKPre}, ":hi": &types.AttributeValueMemberS{Value: regListSKPre + "\U0010FFFF"}},
			Limit:                     aws.Int32(int32(fetch)),
		}
		if after != "" {
			in.ExclusiveStartKey = key(pk, after)
		}
		res, err := s.db.Query(ctx, in)
		if err != nil {
			wg.Wait()
			return MCPListPage{}, fmt.Errorf("list mcp servers: %w", err)
		}
		var cards []mcpCardItem
		if err := attributevalue.UnmarshalListOfMaps(res.Items, &cards); err != nil {
			wg.Wait()
			return MCPListPage{}, err
		}
		done := false
		for _, c := range cards {
			examined++
			if !keep(c) {
				after = c.SK
				continue
			}
			if len(out) == q.Limit {
				// One more exists: the page ends at the last card kept.
				next, done = lastKept, true
				break
			}
			out = append(out, c.domain())
			after, lastKept = c.SK, c.SK
		}
		if done {
			break
		}
		if len(res.LastEvaluatedKey) == 0 {
			next = ""
			break
		}
		if examined >= maxExamined {
			next = after
			break
		}
	}
	wg.Wait()
	if countErr != nil {
		return MCPListPage{}, countErr
	}
	page := MCPListPage{Servers: out, CountExact: exact, Count: count}
	if out == nil {
		page.Servers = []domain.MCPServer{}
	}
	if !exact {
		page.Count = len(out)
		if next == "" && cur.After == "" {
			page.CountExact = true
		}
	}
	if next != "" {
		c := mcpCursor{After: next, Hash: q.hash()}
		if len(q.Words) > 0 {
			c.From = pk // the word chosen on the first page
		}
		b, _ := json.Marshal(c)
		page.NextCursor = base64.RawURLEncoding.EncodeToString(b)
	}
	return page, nil
}

// BulkLoadMCPServers writes new servers with their listing in batches (no
// conditions, counts added once): for benchmarks and tests that need a
// large registry in seconds. The ids must be new; the functions never
// call it. Cards first, then counts, the servers last, as
// BulkLoadPrompts.
func (s *Store) BulkLoadMCPServers(ctx context.Context, servers []domain.MCPServer) error {
	var bulk bulkListing
	now := changedNow()
	for _, srv := range servers {
		it := mcpServerItem{PK: mcpServerPK(srv.ID), SK: skMCPServer, mcpListing: listingOf(srv),
			mcpSyncAttrs: mcpSyncAttrs{Irev: 1, Srev: 1, Lfmt: mcpListingFormat}, ChangedAt: now}
		if srv.Health.Status != "" {
			it.mcpHealthAttrs = healthAttrsOf(srv.Health)
		}
		keys, err := bulk.copiesOf(mcpListingTargets(it), countsMCPCopy)
		if err != nil {
			return err
		}
		it.Idx = append(it.Idx, keys...)
		if err := bulk.entry(it); err != nil {
			return err
		}
	}
	return s.writeBulk(ctx, &bulk)
}

// countsMCPCopy: every registry card counts in its partition; the registry
// API's items have no COUNT.
func countsMCPCopy(k string) bool {
	pk, _ := splitListingKey(k)
	return !isAPIPartition(pk)
}
