package registryapi

import (
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// Bounds of a list request, as the official registry sets them.
const (
	DefaultLimit = 30
	MaxLimit     = 100
	// MaxSearch bounds search (characters), as the catalogue's own search.
	MaxSearch = 200
	// maxCursor bounds a cursor's text: one this API gave is shorter (the
	// place of a server in the list: its name, version and id).
	maxCursor = 2000
)

// entry is one catalogue server as the registry API serves it: its
// registry name and version, deleted (out of the listing: inactive
// upstream, or disabled by an admin), and when it was first and last
// written here (store.MCPServedTimes).
type entry struct {
	srv       domain.MCPServer
	name      string
	version   string
	deleted   bool
	published time.Time
	updated   time.Time
}

func entryOf(srv domain.MCPServer) entry {
	e := entry{srv: srv, name: store.MCPServedName(srv), version: store.MCPServedVersion(srv), deleted: !srv.IsActive}
	e.published, e.updated = store.MCPServedTimes(srv)
	return e
}

func badCursor() error {
	return badRequest("Invalid cursor: use the metadata.nextCursor of the previous page, as it is.")
}

// parseListQuery reads a list request's parameters as the store's query;
// each bad one is a 400 saying what is wrong. The cursor is the store's,
// opaque here (a bad one is refused by the store).
func parseListQuery(rawQuery string) (store.MCPAPIQuery, error) {
	vals, err := url.ParseQuery(rawQuery)
	if err != nil {
		return store.MCPAPIQuery{}, badRequest("Malformed query string.")
	}
	q := store.MCPAPIQuery{Limit: DefaultLimit}
	if c := vals.Get("cursor"); c != "" {
		if len(c) > maxCursor {
			return store.MCPAPIQuery{}, badCursor()
		}
		q.Cursor = c
	}
	if l, ok := vals["limit"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(l[0]))
		if err != nil || n < 1 || n > MaxLimit {
			return store.MCPAPIQuery{}, badRequest("Invalid limit: a whole number from 1 to 100.")
		}
		q.Limit = n
	}
	search := vals.Get("search")
	if utf8.RuneCountInString(search) > MaxSearch {
		return store.MCPAPIQuery{}, badRequest("Invalid search: at most 200 characters.")
	}
	q.Search = strings.ToLower(search)
	if s := vals.Get("updated_since"); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return store.MCPAPIQuery{}, badRequest("Invalid updated_since format: expected RFC3339 timestamp (e.g., 2025-08-07T13:15:04.280Z)")
		}
		q.Since = t.UTC()
	}
	q.Version = vals.Get("version")
	if len(q.Version) > maxVersion {
		return store.MCPAPIQuery{}, badRequest("Invalid version: at most 255 characters.")
	}
	include, set, err := parseBool(vals, "include_deleted")
	if err != nil {
		return store.MCPAPIQuery{}, err
	}
	switch {
	case !q.Since.IsZero() && set && !include:
		// The changes since a time include the deletions since (the
		// official registry's rule for incremental sync).
		return store.MCPAPIQuery{}, badRequest("Cannot set include_deleted=false when using updated_since (incremental sync requires deleted servers)")
	case !q.Since.IsZero():
		include = true
	}
	q.IncludeDeleted = include
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
