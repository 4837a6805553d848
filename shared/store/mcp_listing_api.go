package store

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/clip"
	"aiwork/shared/domain"
	"aiwork/shared/mcp/registry"
)

// The registry API's list (the official MCP Registry API, served by
// registryapi): its own copies beside the registry list's cards, written
// by the same sync (mcp_listing.go), in the official order (the served
// name, then the version, both as text; then the id, for two servers
// served under one name):
//
//   - RLIST#API#LIVE: a copy of each listed server with everything an
//     entry of the API shows (server.json and our _meta, its health and
//     tool names included), so that a page is one Query;
//   - RLIST#API#GONE: the same of each server out of the listing
//     (inactive upstream, or switched off by an admin), which the API
//     serves as deleted only when asked (include_deleted): a page of
//     both is the two partitions merged in order;
//   - RLIST#API#NAMES: a small item per server (name, version, id,
//     whether it is gone), read by a search (a substring of the name,
//     which no word index answers) and by a lookup by name;
//   - RLIST#API#CHANGES: a small item per server keyed by when it last
//     changed as served, read by updated_since (a sync asking what
//     changed), so that a sync that finds few changes reads few items.
//
// The RLIST# prefix keeps the partitions within the functions' grants of
// the registry list. A probe writes its figures (time, latency, tools)
// into the server's one LIVE or GONE copy: one small write beside the
// probe's own, so the API's health is the last probe's.

const (
	regAPIPre       = PKRegistryList + "API#"
	regAPILivePK    = regAPIPre + "LIVE"
	regAPIGonePK    = regAPIPre + "GONE"
	regAPINamesPK   = regAPIPre + "NAMES"
	regAPIChangePK  = regAPIPre + "CHANGES"
	regAPISKPre     = "A#"
	regAPIChangePre = "U#"

	// MCPOwnNamespace names the servers whose catalogue name is no
	// registry name (those an admin added, named in words): they are
	// served as "com.aiwork/<id>".
	MCPOwnNamespace = "com.aiwork"
	// MCPDefaultVersion is the version served for a server without one
	// (an admin's): the one the seed gives its entries.
	MCPDefaultVersion = "1.0.0"
	// mcpMaxServedVersion bounds a served version (server.json's limit).
	mcpMaxServedVersion = 255
	// mcpCopyToolsBytes bounds the tool names a copy carries: more than
	// the 4 KB of _meta they are served in ever holds.
	mcpCopyToolsBytes = 4096

	// MCPAPIMaxExamined bounds the small items (names or changes) one
	// request of a search, an exact version or updated_since reads to
	// fill its page (about 110 bytes each: 4,000 are about 54 RCU, a
	// registry the size of the official one in one request); it answers
	// what it found with the place to go on from.
	MCPAPIMaxExamined = 4000
)

// isAPIPartition reports whether pk is one of the API's partitions, which
// hold no COUNT and no card.
func isAPIPartition(pk string) bool { return strings.HasPrefix(pk, regAPIPre) }

// MCPServedName is the name the registry API serves srv under: its own
// registry name, or one in MCPOwnNamespace when its name is words.
func MCPServedName(srv domain.MCPServer) string {
	if registry.ValidName(srv.Name) {
		return srv.Name
	}
	return MCPOwnNamespace + "/" + srv.ID
}

// MCPServedVersion is the version the registry API serves srv at.
func MCPServedVersion(srv domain.MCPServer) string {
	if v := strings.TrimSpace(srv.Version); v != "" {
		return clip.Runes(v, mcpMaxServedVersion)
	}
	return MCPDefaultVersion
}

// MCPServedTimes are when srv was first and last changed as served: the
// upstream registry's time (UpdatedAt) and this catalogue's last change
// of the entry (ChangedAt), the earlier standing for its publication and
// the later for its last change; the Unix epoch for an entry written
// before this catalogue kept change times and never since.
func MCPServedTimes(srv domain.MCPServer) (published, updated time.Time) {
	var times []time.Time
	for _, s := range []string{srv.UpdatedAt, srv.ChangedAt} {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			times = append(times, t.UTC())
		}
	}
	if len(times) == 0 {
		times = append(times, time.Unix(0, 0).UTC())
	}
	return slices.MinFunc(times, time.Time.Compare), slices.MaxFunc(times, time.Time.Compare)
}

// apiSK is a server's place in the official order. A registry name holds
// no character at or below the space, so the space after it sorts the
// name before any longer one it begins; the version is clipped to what a
// key holds (its attribute keeps it whole).
func apiSK(name, version, id string) string {
	if len(version) > 255 {
		version = strings.ToValidUTF8(version[:255], "")
	}
	return regAPISKPre + name + " " + version + " " + id
}

// sortableInstant is t in UTC with a fixed nine-digit fraction, so that
// its text sorts as the time does (changed_at's format).
func sortableInstant(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000000Z") }

func apiChangeSK(updated time.Time, id string) string {
	return regAPIChangePre + sortableInstant(updated) + " " + id
}

// mcpAPICopy is a server as the API's list serves it (short attribute
// names: a page of 30 is 31 of these, within 4 RCU).
type mcpAPICopy struct {
	PK             string   `dynamodbav:"PK"`
	SK             string   `dynamodbav:"SK"`
	ID             string   `dynamodbav:"id"`
	Name           string   `dynamodbav:"n"`
	Title          string   `dynamodbav:"t,omitempty"`
	Description    string   `dynamodbav:"d,omitempty"`
	EndpointURL    string   `dynamodbav:"u,omitempty"`
	Transport      string   `dynamodbav:"tr,omitempty"`
	ModelType      string   `dynamodbav:"mt,omitempty"`
	APIKeyRequired bool     `dynamodbav:"kr,omitempty"`
	APIKeyHeader   string   `dynamodbav:"kh,omitempty"`
	OAuthRequired  bool     `dynamodbav:"oa,omitempty"`
	Features       []string `dynamodbav:"f,omitempty"`
	WebsiteURL     string   `dynamodbav:"w,omitempty"`
	Repository     string   `dynamodbav:"r,omitempty"`
	Version        string   `dynamodbav:"v,omitempty"`
	UpdatedAt      string   `dynamodbav:"ua,omitempty"`
	ChangedAt      string   `dynamodbav:"ca,omitempty"`
	mcpAPIHealth
	Rev int `dynamodbav:"rev"`
}

// mcpAPIHealth is the last probe as a copy carries it; a probe writes
// only these.
type mcpAPIHealth struct {
	Status    string `dynamodbav:"hs,omitempty"`
	CheckedAt string `dynamodbav:"hc,omitempty"`
	LatencyMS int64  `dynamodbav:"hl,omitempty"`
	Count     int    `dynamodbav:"hn,omitempty"`
	// Tools are the tool names, each after one letter: r read-only, d
	// may destroy (domain.MCPTool.MayDestroy), - neither.
	Tools []string `dynamodbav:"ht,omitempty"`
}

func apiHealthOf(h mcpHealthAttrs) mcpAPIHealth {
	out := mcpAPIHealth{Status: h.Status, CheckedAt: h.CheckedAt, LatencyMS: h.LatencyMS, Count: h.ToolsCount}
	size := 0
	for _, t := range toolsFromAtts(h.Tools) {
		if size += len(t.Name) + 1; size > mcpCopyToolsBytes {
			break
		}
		flag := "-"
		switch {
		case t.ReadOnly:
			flag = "r"
		case t.MayDestroy():
			flag = "d"
		}
		out.Tools = append(out.Tools, flag+t.Name)
	}
	return out
}

func (c mcpAPICopy) domain() domain.MCPServer {
	status := c.Status
	if status == "" {
		status = domain.HealthUnknown
	}
	srv := domain.MCPServer{
		ID: c.ID, Name: c.Name, Title: c.Title, Description: c.Description, EndpointURL: c.EndpointURL,
		Transport: c.Transport, ModelType: c.ModelType, APIKeyRequired: c.APIKeyRequired, APIKeyHeader: c.APIKeyHeader,
		OAuthRequired: c.OAuthRequired, IsActive: c.PK == regAPILivePK, SupportedFeatures: slices.Clone(c.Features),
		WebsiteURL: c.WebsiteURL, Repository: c.Repository, Version: c.Version, UpdatedAt: c.UpdatedAt, ChangedAt: c.ChangedAt,
		Health: domain.MCPHealth{Status: status, CheckedAt: c.CheckedAt, LatencyMS: c.LatencyMS, ToolsCount: c.Count},
	}
	for _, t := range c.Tools {
		if t == "" {
			continue
		}
		srv.Health.Tools = append(srv.Health.Tools, domain.MCPTool{Name: t[1:], ReadOnly: t[0] == 'r', Destructive: t[0] == 'd'})
	}
	return srv
}

// mcpAPIIndexItem is a server in RLIST#API#NAMES or RLIST#API#CHANGES.
type mcpAPIIndexItem struct {
	PK      string `dynamodbav:"PK"`
	SK      string `dynamodbav:"SK"`
	ID      string `dynamodbav:"id"`
	Name    string `dynamodbav:"n"`
	Version string `dynamodbav:"v"`
	Gone    bool   `dynamodbav:"g,omitempty"`
	Rev     int    `dynamodbav:"rev"`
}

// mcpAPITargets are the API's items the server item should have, by
// listingKey: every server has three, listed or not.
func mcpAPITargets(it mcpServerItem) map[string]any {
	srv := it.domain()
	name, version := MCPServedName(srv), MCPServedVersion(srv)
	_, updated := MCPServedTimes(srv)
	sk := apiSK(name, version, srv.ID)
	c := mcpAPICopy{
		PK: regAPILivePK, SK: sk, ID: srv.ID, Name: srv.Name, Title: srv.Title, Description: srv.Description,
		EndpointURL: srv.EndpointURL, Transport: srv.Transport, ModelType: srv.ModelType, APIKeyRequired: srv.APIKeyRequired,
		APIKeyHeader: srv.APIKeyHeader, OAuthRequired: srv.OAuthRequired, Features: srv.SupportedFeatures,
		WebsiteURL: srv.WebsiteURL, Repository: srv.Repository, Version: srv.Version, UpdatedAt: srv.UpdatedAt,
		ChangedAt: srv.ChangedAt, mcpAPIHealth: apiHealthOf(it.mcpHealthAttrs), Rev: it.Irev,
	}
	if !srv.IsActive {
		c.PK = regAPIGonePK
	}
	names := mcpAPIIndexItem{PK: regAPINamesPK, SK: sk, ID: srv.ID, Name: name, Version: version, Gone: !srv.IsActive, Rev: it.Irev}
	changes := names
	changes.PK, changes.SK = regAPIChangePK, apiChangeSK(updated, srv.ID)
	return map[string]any{
		listingKey(c.PK, c.SK):             c,
		listingKey(names.PK, names.SK):     names,
		listingKey(changes.PK, changes.SK): changes,
	}
}

// refreshMCPAPIHealth writes a probe's figures into the server's API copy
// (its key among idx). Logged, not answered: the probe's own record is
// written, and the next probe writes the copy again.
func (s *Store) refreshMCPAPIHealth(ctx context.Context, sid string, idx []string, h mcpHealthAttrs) {
	for _, k := range idx {
		pk, sk := splitListingKey(k)
		if pk != regAPILivePK && pk != regAPIGonePK {
			continue
		}
		in, err := s.updateInput(pk, sk, apiHealthOf(h), "attribute_exists(PK)", nil)
		if err == nil {
			_, err = s.db.UpdateItem(context.WithoutCancel(ctx), in)
		}
		if err != nil && !isConditionFailed(err) {
			slog.ErrorContext(ctx, "registry API list: health not copied", "server", sid, "err", err)
		}
	}
}

// MCPAPIQuery asks for one page of the registry API's list.
type MCPAPIQuery struct {
	// Search keeps the servers whose served name contains it, ignoring
	// case ("": every one).
	Search string
	// Since, when not zero, keeps the servers changed at or after it
	// (MCPServedTimes), in the order they changed, deleted ones included.
	Since time.Time
	// Version, when neither "" nor "latest", keeps the servers served at
	// that version (each has one).
	Version string
	// IncludeDeleted lists the servers out of the listing too.
	IncludeDeleted bool
	Limit          int
	Cursor         string
	// Examine bounds the names or changes one request reads (0:
	// MCPAPIMaxExamined).
	Examine int
}

// MCPAPIPage is one page of the registry API's list. A server out of the
// listing has IsActive false.
type MCPAPIPage struct {
	Servers    []domain.MCPServer
	NextCursor string
}

// apiCursor is where a page ended: the last item's SK in the partitions
// read, and which order it is of (by name, or by change).
type apiCursor struct {
	After   string `json:"a"`
	Changes bool   `json:"c,omitempty"`
}

func (q MCPAPIQuery) exactVersion() bool { return q.Version != "" && q.Version != "latest" }

// ListMCPAPIPage answers one page of the registry API's list; ErrBadCursor
// for a cursor this list did not give (or one of the other order).
//
//   - Without search, version or since: one Query of RLIST#API#LIVE (the
//     page and one more), merged with one of RLIST#API#GONE when deleted
//     servers are asked for.
//   - A search or an exact version: RLIST#API#NAMES in order, keeping
//     what matches, then the page's servers read by key; at most
//     MCPAPIMaxExamined names a request.
//   - Since: RLIST#API#CHANGES from that time, the same way.
func (s *Store) ListMCPAPIPage(ctx context.Context, q MCPAPIQuery) (MCPAPIPage, error) {
	if q.Limit < 1 {
		return MCPAPIPage{}, fmt.Errorf("list registry api: limit %d", q.Limit)
	}
	var cur apiCursor
	if q.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(q.Cursor)
		if err != nil || json.Unmarshal(raw, &cur) != nil || cur.After == "" || len(cur.After) > maxSortKeyBytes ||
			cur.Changes != !q.Since.IsZero() || !utf8.ValidString(cur.After) {
			return MCPAPIPage{}, ErrBadCursor
		}
	}
	var (
		page MCPAPIPage
		err  error
	)
	switch {
	case !q.Since.IsZero():
		lo := regAPIChangePre + sortableInstant(q.Since)
		if cur.After != "" && (cur.After < lo || !strings.HasPrefix(cur.After, regAPIChangePre)) {
			return MCPAPIPage{}, ErrBadCursor
		}
		page, err = s.apiIndexPage(ctx, q, regAPIChangePK, lo, regAPIChangePre+"\U0010FFFF", cur.After)
	case q.Search != "" || q.exactVersion():
		if cur.After != "" && !strings.HasPrefix(cur.After, regAPISKPre) {
			return MCPAPIPage{}, ErrBadCursor
		}
		page, err = s.apiIndexPage(ctx, q, regAPINamesPK, regAPISKPre, regAPISKPre+"\U0010FFFF", cur.After)
	default:
		if cur.After != "" && !strings.HasPrefix(cur.After, regAPISKPre) {
			return MCPAPIPage{}, ErrBadCursor
		}
		pks := []string{regAPILivePK}
		if q.IncludeDeleted {
			pks = append(pks, regAPIGonePK)
		}
		page, err = s.apiCopyPage(ctx, pks, q.Limit, cur.After)
	}
	if err != nil {
		return MCPAPIPage{}, err
	}
	if page.Servers == nil {
		page.Servers = []domain.MCPServer{}
	}
	if page.NextCursor != "" {
		b, _ := json.Marshal(apiCursor{After: page.NextCursor, Changes: !q.Since.IsZero()})
		page.NextCursor = base64.RawURLEncoding.EncodeToString(b)
	}
	return page, nil
}

// apiStream reads one partition's SK range in order, a Query page at a time.
type apiStream struct {
	pk     string
	lo, hi string
	start  map[string]types.AttributeValue
	buf    []map[string]types.AttributeValue
	done   bool
	limit  int32
}

func (s *Store) apiFetch(ctx context.Context, st *apiStream) error {
	in := &dynamodb.QueryInput{
		TableName:              aws.String(s.table),
		KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :lo AND :hi"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: st.pk},
			":lo": &types.AttributeValueMemberS{Value: st.lo}, ":hi": &types.AttributeValueMemberS{Value: st.hi},
		},
		Limit:             aws.Int32(st.limit),
		ExclusiveStartKey: st.start,
	}
	out, err := s.db.Query(ctx, in)
	if err != nil {
		return fmt.Errorf("list registry api: %w", err)
	}
	st.buf, st.start, st.done = out.Items, out.LastEvaluatedKey, out.LastEvaluatedKey == nil
	return nil
}

func skOf(item map[string]types.AttributeValue) string {
	v, _ := item[AttrSK].(*types.AttributeValueMemberS)
	if v == nil {
		return ""
	}
	return v.Value
}

// apiCopyPage merges the copies of pks in order from after: the page and
// whether one more follows. The first partition is read a page and one
// more at a time; the others (the deleted, usually few) a few first, then
// more as the page takes them.
func (s *Store) apiCopyPage(ctx context.Context, pks []string, limit int, after string) (MCPAPIPage, error) {
	streams := make([]*apiStream, len(pks))
	for i, pk := range pks {
		streams[i] = &apiStream{pk: pk, lo: regAPISKPre, hi: regAPISKPre + "\U0010FFFF", limit: int32(limit + 1)}
		if i > 0 {
			streams[i].limit = int32(min(limit+1, 4))
		}
		if after != "" {
			streams[i].start = key(pk, after)
		}
	}
	var (
		out  []domain.MCPServer
		last string
	)
	for {
		for _, st := range streams {
			if len(st.buf) == 0 && !st.done {
				if err := s.apiFetch(ctx, st); err != nil {
					return MCPAPIPage{}, err
				}
				st.limit = int32(min(limit+1, 4*int(st.limit)))
			}
		}
		var next *apiStream
		for _, st := range streams {
			if len(st.buf) > 0 && (next == nil || skOf(st.buf[0]) < skOf(next.buf[0])) {
				next = st
			}
		}
		if next == nil {
			return MCPAPIPage{Servers: out}, nil
		}
		if len(out) == limit {
			// One more follows: the page ends at its last server.
			return MCPAPIPage{Servers: out, NextCursor: last}, nil
		}
		var c mcpAPICopy
		if err := attributevalue.UnmarshalMap(next.buf[0], &c); err != nil {
			return MCPAPIPage{}, fmt.Errorf("list registry api: %w", err)
		}
		next.buf = next.buf[1:]
		out, last = append(out, c.domain()), c.SK
	}
}

// apiIndexPage reads index partition pk's range [lo, hi] from after,
// keeping the items q's filters keep, then reads the page's servers by key
// (each as it now is, kept only if it still matches).
func (s *Store) apiIndexPage(ctx context.Context, q MCPAPIQuery, pk, lo, hi, after string) (MCPAPIPage, error) {
	search := strings.ToLower(q.Search)
	bound := cmp.Or(q.Examine, MCPAPIMaxExamined)
	keeps := func(it mcpAPIIndexItem) bool {
		return (!it.Gone || q.IncludeDeleted || !q.Since.IsZero()) &&
			(search == "" || strings.Contains(strings.ToLower(it.Name), search)) &&
			(!q.exactVersion() || it.Version == q.Version)
	}
	st := &apiStream{pk: pk, lo: lo, hi: hi, limit: int32(q.Limit + 1)}
	if after != "" {
		st.start = key(pk, after)
	}
	var (
		found    []mcpAPIIndexItem
		last     string
		next     string
		examined int
	)
	for next == "" {
		if len(st.buf) == 0 {
			if st.done {
				break
			}
			if examined >= bound {
				next = last // read enough for one request: go on from here
				break
			}
			if err := s.apiFetch(ctx, st); err != nil {
				return MCPAPIPage{}, err
			}
			// The first read is the page and one more; when that found
			// too little, larger steps, within the request's bound.
			st.limit = int32(max(1, min(bound-examined-len(st.buf), 4*int(st.limit))))
			continue
		}
		var it mcpAPIIndexItem
		if err := attributevalue.UnmarshalMap(st.buf[0], &it); err != nil {
			return MCPAPIPage{}, fmt.Errorf("list registry api: %w", err)
		}
		st.buf = st.buf[1:]
		examined++
		if !keeps(it) {
			last = it.SK
			continue
		}
		if len(found) == q.Limit {
			next = found[len(found)-1].SK
			break
		}
		found = append(found, it)
		last = it.SK
	}
	ids := make([]string, len(found))
	for i, it := range found {
		ids[i] = it.ID
	}
	byID, err := s.getMCPServers(ctx, ids)
	if err != nil {
		return MCPAPIPage{}, err
	}
	var out []domain.MCPServer
	for _, it := range found {
		srv, ok := byID[it.ID]
		if !ok {
			continue
		}
		check := mcpAPIIndexItem{Name: MCPServedName(srv), Version: MCPServedVersion(srv), Gone: !srv.IsActive}
		if keeps(check) {
			out = append(out, srv)
		}
	}
	return MCPAPIPage{Servers: out, NextCursor: next}, nil
}

// getMCPServers reads the servers with ids (those that exist), by id.
func (s *Store) getMCPServers(ctx context.Context, ids []string) (map[string]domain.MCPServer, error) {
	keys := make([]map[string]types.AttributeValue, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if !seen[id] && keyFits(mcpServerPK(id), skMCPServer) {
			seen[id] = true
			keys = append(keys, key(mcpServerPK(id), skMCPServer))
		}
	}
	items, err := s.batchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("read mcp servers: %w", err)
	}
	out := make(map[string]domain.MCPServer, len(items))
	for _, raw := range items {
		var it mcpServerItem
		if err := attributevalue.UnmarshalMap(raw, &it); err != nil {
			return nil, fmt.Errorf("read mcp servers: %w", err)
		}
		out[it.ID] = it.domain()
	}
	return out, nil
}

// MCPServersServedAs reads the servers the registry API serves under name
// (one, but two servers may claim one registry name), each as it now is,
// listed or not: one Query of the names and a read of each found.
func (s *Store) MCPServersServedAs(ctx context.Context, name string) ([]domain.MCPServer, error) {
	prefix := regAPISKPre + name + " "
	if !keyFits(regAPINamesPK, prefix) {
		return nil, nil
	}
	in := partitionQuery(regAPINamesPK, prefix)
	in.ConsistentRead = aws.Bool(false)
	in.Limit = aws.Int32(10)
	in.TableName = aws.String(s.table)
	out, err := s.db.Query(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("find mcp server %q: %w", name, err)
	}
	var items []mcpAPIIndexItem
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, fmt.Errorf("find mcp server %q: %w", name, err)
	}
	ids := make([]string, 0, len(items))
	for _, it := range items {
		if it.Name == name {
			ids = append(ids, it.ID)
		}
	}
	byID, err := s.getMCPServers(ctx, ids)
	if err != nil {
		return nil, err
	}
	var found []domain.MCPServer
	for _, id := range ids {
		if srv, ok := byID[id]; ok && MCPServedName(srv) == name {
			found = append(found, srv)
		}
	}
	return found, nil
}
