package registryapi

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"aiwork/shared/httpx"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/store"
)

// list answers GET /v0.1/servers: one page of the catalogue, read from
// the store's copies for this API (store.ListMCPAPIPage).
func (s *Service) list(r *http.Request) (any, error) {
	q, err := parseListQuery(r.URL.RawQuery)
	if err != nil {
		return nil, err
	}
	page, err := s.st.ListMCPAPIPage(r.Context(), q)
	if errors.Is(err, store.ErrBadCursor) {
		return nil, badCursor()
	}
	if err != nil {
		return nil, err
	}
	base := httpx.PublicURL(r, s.publicURL)
	out := listResponse{Servers: make([]serverResponse, len(page.Servers)), Metadata: listMetadata{Count: len(page.Servers), NextCursor: page.NextCursor}}
	for i, srv := range page.Servers {
		out.Servers[i] = present(entryOf(srv), base)
	}
	return out, nil
}

// serverPath is a request for one server: its versions, or one version
// ("" for the list of versions).
type serverPath struct {
	name, version string
	versions      bool // GET .../versions: the list
}

// maxName bounds a server name (server.json's limit).
const maxName = 200

// parseServerPath reads "{serverName}/versions[/{version}]" (escaped). The
// name is one URL-encoded segment ("com.example%2Fweather"), or two when
// a proxy on the way decoded its "/". A name with "..", a control
// character or a second "/" is refused (400), as is a bad encoding.
func parseServerPath(escaped string) (serverPath, error) {
	raw := strings.Split(escaped, "/")
	segs := make([]string, len(raw))
	for i, seg := range raw {
		s, err := url.PathUnescape(seg)
		if err != nil {
			return serverPath{}, badRequest("Invalid server name encoding.")
		}
		segs[i] = s
	}
	// The "versions" segment comes after the name's one or two segments,
	// followed by nothing or the version; the reading whose name has one
	// "/" wins (a server may be called "versions").
	var p serverPath
	found := false
	for j := 1; j < len(segs); j++ {
		if segs[j] != "versions" || len(segs)-j-1 > 1 {
			continue
		}
		cand := serverPath{name: strings.Join(segs[:j], "/"), versions: len(segs) == j+1}
		if !cand.versions {
			cand.version = segs[j+1]
		}
		if !found || strings.Count(cand.name, "/") == 1 {
			p, found = cand, true
		}
		if strings.Count(cand.name, "/") == 1 {
			break
		}
	}
	if !found {
		return serverPath{}, endpointNotFound()
	}
	switch name := p.name; {
	case name == "":
		return serverPath{}, endpointNotFound()
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return serverPath{}, badRequest("Invalid server name: control characters are not allowed.")
	case strings.Contains(name, ".."):
		return serverPath{}, badRequest(`Invalid server name: ".." is not allowed.`)
	case strings.Count(name, "/") != 1:
		return serverPath{}, badRequest(`Invalid server name: a name has exactly one "/" (URL-encoded as %2F), between its namespace and its name.`)
	case len(name) > maxName:
		return serverPath{}, badRequest("Invalid server name: at most 200 characters.")
	}
	if !p.versions {
		switch v := p.version; {
		case v == "":
			return serverPath{}, endpointNotFound()
		case strings.IndexFunc(v, unicode.IsControl) >= 0:
			return serverPath{}, badRequest("Invalid version: control characters are not allowed.")
		case len(v) > maxVersion:
			return serverPath{}, badRequest("Invalid version: at most 255 characters.")
		}
	}
	return p, nil
}

// server answers GET .../servers/{serverName}/versions (its one version,
// as a list) and .../versions/{version} ("latest" or that version).
// A server out of the listing is not found unless include_deleted=true.
func (s *Service) server(r *http.Request, p serverPath) (any, error) {
	vals, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, badRequest("Malformed query string.")
	}
	includeDeleted, _, err := parseBool(vals, "include_deleted")
	if err != nil {
		return nil, err
	}
	e, ok, err := s.find(r, p.name)
	if err != nil {
		return nil, err
	}
	if !ok || (e.deleted && !includeDeleted) || (!p.versions && p.version != "latest" && p.version != e.version) {
		return nil, serverNotFound()
	}
	resp := present(e, httpx.PublicURL(r, s.publicURL))
	if p.versions {
		return listResponse{Servers: []serverResponse{resp}, Metadata: listMetadata{Count: 1}}, nil
	}
	return resp, nil
}

// find reads the entry served as name. A registry name is usually its
// own id's (registry.ServerID) and one in OwnNamespace names the id after
// the "/": one read each. An entry whose id was chosen otherwise (the
// local servers', an older seed's) is found by its name in the API's
// list of names.
func (s *Service) find(r *http.Request, name string) (entry, bool, error) {
	var ids []string
	if registry.ValidName(name) {
		ids = append(ids, registry.ServerID(name))
	}
	if id, ok := strings.CutPrefix(name, OwnNamespace+"/"); ok && id != "" {
		ids = append(ids, id)
	}
	for _, id := range ids {
		srv, err := s.st.GetMCPServer(r.Context(), id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return entry{}, false, err
		}
		if e := entryOf(srv); e.name == name {
			return e, true, nil
		}
	}
	servers, err := s.st.MCPServersServedAs(r.Context(), name)
	if err != nil {
		return entry{}, false, err
	}
	for _, srv := range servers {
		if e := entryOf(srv); e.name == name {
			return e, true, nil
		}
	}
	return entry{}, false, nil
}
