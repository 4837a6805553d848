package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"aiwork/shared/clip"
	"aiwork/shared/domain"
)

// SyncStore is what a sync needs of the store (*store.Store has it).
type SyncStore interface {
	UpsertMCPServer(ctx context.Context, s domain.MCPServer) error
	ListMCPServers(ctx context.Context) ([]domain.MCPServer, error)
	SetMCPServerActive(ctx context.Context, id string, active bool) error
	MCPSyncState(ctx context.Context) (lastRun string, err error)
	SetMCPSyncState(ctx context.Context, lastRun string) error
}

// Defaults for the Syncer's bounds.
const (
	DefaultMaxPages     = 200     // of 100 entries: far above today's official registry
	DefaultMaxPageBytes = 8 << 20 // one page of 100 entries is a few hundred KB
	pageLimit           = 100
)

// Syncer imports a registry that speaks the official MCP registry API into
// the catalogue. HTTP must be the outbound-safe client (the registry URL is
// operator configuration, but its answers are not trusted).
type Syncer struct {
	BaseURL string // e.g. https://registry.modelcontextprotocol.io
	HTTP    *http.Client
	Store   SyncStore
	Log     *slog.Logger

	Now          func() time.Time // default time.Now
	MaxPages     int              // default DefaultMaxPages
	MaxPageBytes int64            // default DefaultMaxPageBytes
}

// Stats says what one run did.
type Stats struct {
	Since       string // the updated_since sent; "" for a full import
	Pages       int
	Upserted    int
	Deactivated int
	Skipped     int // malformed entries, each logged
}

// Run pages through GET {BaseURL}/v0.1/servers (limit=100, version=latest,
// cursor, and updated_since = the last complete run with
// include_deleted=true) until the registry
// gives no next cursor. Usable entries are upserted (Source "registry";
// the stored health is kept, and so are the stored model type, OAuth flag
// and features when the entry says nothing of them); entries that turned
// deleted, deprecated or inactive are deactivated. The run's start time is
// recorded only after every page was imported, so a failed run is repeated
// in full next time. Malformed entries are skipped with a log line.
func (s *Syncer) Run(ctx context.Context) (Stats, error) {
	var st Stats
	if s.HTTP == nil || s.Store == nil {
		return st, errors.New("mcp registry sync: HTTP client and store are required")
	}
	endpoint, err := listURL(s.BaseURL)
	if err != nil {
		return st, err
	}
	log := s.Log
	if log == nil {
		log = slog.Default()
	}
	now := s.Now
	if now == nil {
		now = time.Now
	}
	maxPages := s.MaxPages
	if maxPages <= 0 {
		maxPages = DefaultMaxPages
	}
	started := now().UTC().Truncate(time.Second)

	if st.Since, err = s.Store.MCPSyncState(ctx); err != nil {
		return st, fmt.Errorf("mcp registry sync: %w", err)
	}
	var stored map[string]domain.MCPServer // loaded when first needed
	loadStored := func() error {
		if stored != nil {
			return nil
		}
		list, err := s.Store.ListMCPServers(ctx)
		if err != nil {
			return fmt.Errorf("mcp registry sync: %w", err)
		}
		stored = make(map[string]domain.MCPServer, len(list))
		for _, srv := range list {
			stored[srv.ID] = srv
		}
		return nil
	}

	cursor, seen := "", map[string]bool{}
	for {
		if st.Pages == maxPages {
			return st, fmt.Errorf("mcp registry sync: more than %d pages; stopped", maxPages)
		}
		body, err := s.fetch(ctx, endpoint, cursor, st.Since)
		if err != nil {
			return st, err
		}
		page, err := parsePage(body, log)
		if err != nil {
			return st, fmt.Errorf("mcp registry sync: page %d: %w", st.Pages+1, err)
		}
		st.Pages++
		st.Skipped += page.malformed

		for _, p := range page.entries {
			if !p.hasModelType || !p.hasOAuth || !p.hasFeatures || !p.hasClientID {
				if err := loadStored(); err != nil {
					return st, err
				}
			}
			srv := p.server
			if old, ok := stored[srv.ID]; ok {
				if !p.hasModelType && old.ModelType != "" {
					srv.ModelType = old.ModelType
				}
				if !p.hasOAuth {
					srv.OAuthRequired = old.OAuthRequired
				}
				if !p.hasFeatures && len(old.SupportedFeatures) > 0 {
					srv.SupportedFeatures = old.SupportedFeatures
				}
				if !p.hasClientID {
					srv.OAuthClientID = old.OAuthClientID
				}
			}
			if err := s.Store.UpsertMCPServer(ctx, srv); err != nil {
				return st, fmt.Errorf("mcp registry sync: %w", err)
			}
			if stored != nil {
				stored[srv.ID] = srv
			}
			st.Upserted++
		}
		if len(page.deleted) > 0 {
			if err := loadStored(); err != nil {
				return st, err
			}
		}
		for _, id := range page.deleted {
			old, ok := stored[id]
			// The registry's own say (ListedActive), not IsActive: a server an
			// admin switched off is taken out on the registry's side too, or
			// switching it on again would list a deleted server.
			if !ok || !old.ListedActive {
				continue // never listed here, or already out
			}
			if err := s.Store.SetMCPServerActive(ctx, id, false); err != nil {
				return st, fmt.Errorf("mcp registry sync: deactivate %s: %w", id, err)
			}
			old.IsActive, old.ListedActive = false, false
			stored[id] = old
			st.Deactivated++
		}

		if page.nextCursor == "" {
			break
		}
		if seen[page.nextCursor] {
			return st, fmt.Errorf("mcp registry sync: the registry repeated cursor %q", clip.Runes(page.nextCursor, 80))
		}
		seen[page.nextCursor] = true
		cursor = page.nextCursor
	}

	if err := s.Store.SetMCPSyncState(ctx, started.Format(time.RFC3339)); err != nil {
		return st, fmt.Errorf("mcp registry sync: %w", err)
	}
	log.Info("mcp registry sync done", "registry", endpoint, "since", st.Since, "pages", st.Pages,
		"upserted", st.Upserted, "deactivated", st.Deactivated, "skipped", st.Skipped)
	return st, nil
}

func listURL(base string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", fmt.Errorf("mcp registry sync: registry URL %q is not an http(s) URL", base)
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/v0.1/servers"
	u.RawQuery, u.Fragment = "", ""
	return u.String(), nil
}

// fetch reads one page, refusing answers that are not 200 or too large.
func (s *Syncer) fetch(ctx context.Context, endpoint, cursor, since string) ([]byte, error) {
	q := url.Values{}
	q.Set("limit", fmt.Sprint(pageLimit))
	q.Set("version", "latest")
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	if since != "" {
		q.Set("updated_since", since)
		// The changes since include the entries deleted since, which leave
		// the listing here. The official registry includes them whenever
		// updated_since is given; saying so keeps a registry that follows
		// the generic API's default (false) from leaving them out.
		q.Set("include_deleted", "true")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("mcp registry sync: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("mcp registry sync: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, fmt.Errorf("mcp registry sync: %s answered %s", endpoint, resp.Status)
	}
	limit := s.MaxPageBytes
	if limit <= 0 {
		limit = DefaultMaxPageBytes
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("mcp registry sync: reading a page: %w", err)
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("mcp registry sync: a page is larger than %d bytes", limit)
	}
	return body, nil
}
