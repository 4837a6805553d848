package registryapi

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"aiwork/shared/domain"
)

// Bounds of a list request, as the official registry sets them.
const (
	DefaultLimit = 30
	MaxLimit     = 100
	// MaxSearch bounds search (characters), as the catalogue's own search.
	MaxSearch = 200
	// maxCursor bounds a cursor's text: one this API gave is far shorter.
	maxCursor = 1000
)

// entry is one catalogue server as the registry API serves it: its
// registry name and version, deleted (out of the listing: inactive
// upstream, or disabled by an admin), and when it was first and last
// written here.
type entry struct {
	srv       domain.MCPServer
	name      string
	version   string
	deleted   bool
	published time.Time
	updated   time.Time
}

func entryOf(srv domain.MCPServer) entry {
	e := entry{srv: srv, name: servedName(srv), version: servedVersion(srv), deleted: !srv.IsActive}
	// UpdatedAt is the upstream registry's time, ChangedAt this
	// catalogue's last change of the entry: the later one is when the entry
	// as served last changed, the earlier one stands for its publication.
	var times []time.Time
	for _, s := range []string{srv.UpdatedAt, srv.ChangedAt} {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			times = append(times, t.UTC())
		}
	}
	if len(times) == 0 {
		// Written before this catalogue kept change times, never since.
		times = append(times, time.Unix(0, 0).UTC())
	}
	e.published, e.updated = slices.MinFunc(times, time.Time.Compare), slices.MaxFunc(times, time.Time.Compare)
	return e
}

// listQuery is what a list request asks: a page after a cursor, and the
// filters (kept the same from page to page by the client).
type listQuery struct {
	after          *cursorKey // nil: from the first entry
	limit          int
	search         string    // lower case; "": every name
	since          time.Time // zero: no updated_since
	version        string    // "" or "latest": each server's one version; else that exact version
	includeDeleted bool
}

// cursorKey is where a page ends: the last entry's name and version (the
// list's order). Cursors are its JSON in base64url: opaque to clients,
// and stable while entries come and go (the next page starts after the
// key, whether or not its entry is still listed).
type cursorKey struct {
	Name    string `json:"n"`
	Version string `json:"v"`
}

func encodeCursor(e entry) string {
	raw, _ := json.Marshal(cursorKey{Name: e.name, Version: e.version})
	return base64.RawURLEncoding.EncodeToString(raw)
}

func decodeCursor(s string) (*cursorKey, error) {
	bad := badRequest("Invalid cursor: use the metadata.nextCursor of the previous page, as it is.")
	if len(s) > maxCursor {
		return nil, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, bad
	}
	var k cursorKey
	if err := json.Unmarshal(raw, &k); err != nil || k.Name == "" {
		return nil, bad
	}
	return &k, nil
}

// parseListQuery reads a list request's parameters; each bad one is a 400
// saying what is wrong.
func parseListQuery(rawQuery string) (listQuery, error) {
	vals, err := url.ParseQuery(rawQuery)
	if err != nil {
		return listQuery{}, badRequest("Malformed query string.")
	}
	q := listQuery{limit: DefaultLimit}
	if c := vals.Get("cursor"); c != "" {
		if q.after, err = decodeCursor(c); err != nil {
			return listQuery{}, err
		}
	}
	if l, ok := vals["limit"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(l[0]))
		if err != nil || n < 1 || n > MaxLimit {
			return listQuery{}, badRequest("Invalid limit: a whole number from 1 to 100.")
		}
		q.limit = n
	}
	search := vals.Get("search")
	if utf8.RuneCountInString(search) > MaxSearch {
		return listQuery{}, badRequest("Invalid search: at most 200 characters.")
	}
	q.search = strings.ToLower(search)
	if s := vals.Get("updated_since"); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return listQuery{}, badRequest("Invalid updated_since format: expected RFC3339 timestamp (e.g., 2025-08-07T13:15:04.280Z)")
		}
		q.since = t.UTC()
	}
	q.version = vals.Get("version")
	if len(q.version) > 255 {
		return listQuery{}, badRequest("Invalid version: at most 255 characters.")
	}
	include, set, err := parseBool(vals, "include_deleted")
	if err != nil {
		return listQuery{}, err
	}
	switch {
	case !q.since.IsZero() && set && !include:
		// The changes since a time include the deletions since (the
		// official registry's rule for incremental sync).
		return listQuery{}, badRequest("Cannot set include_deleted=false when using updated_since (incremental sync requires deleted servers)")
	case !q.since.IsZero():
		include = true
	}
	q.includeDeleted = include
	return q, nil
}

// parseBool reads a true/false parameter: its value, and whether it was given.
func parseBool(vals url.Values, name string) (value, set bool, err error) {
	v, ok := vals[name]
	if !ok || v[0] == "" {
		return false, false, nil
	}
	b, perr := strconv.ParseBool(v[0])
	if perr != nil {
		return false, false, badRequest("Invalid " + name + ": true or false.")
	}
	return b, true, nil
}

// page is the list's paging, in one place: entries in the official order
// (name, then version, both as text), those q's filters keep, from after
// q's cursor, at most q.limit; next is the cursor of the following page
// ("" when no entry follows). It sorts entries in place. The store lists
// the whole catalogue today; a store query in this order can take over
// the cursor and filters as they are.
func page(entries []entry, q listQuery) (out []entry, next string) {
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.version, b.version))
	})
	for _, e := range entries {
		if q.after != nil && cmp.Or(strings.Compare(e.name, q.after.Name), strings.Compare(e.version, q.after.Version)) <= 0 {
			continue
		}
		if !q.keeps(e) {
			continue
		}
		if len(out) == q.limit {
			return out, encodeCursor(out[len(out)-1])
		}
		out = append(out, e)
	}
	return out, ""
}

// keeps reports whether e passes q's filters.
func (q listQuery) keeps(e entry) bool {
	switch {
	case e.deleted && !q.includeDeleted:
		return false
	case q.search != "" && !strings.Contains(strings.ToLower(e.name), q.search):
		return false
	case !q.since.IsZero() && e.updated.Before(q.since):
		return false
	case q.version != "" && q.version != "latest" && q.version != e.version:
		return false
	}
	return true
}
