package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"aiwork/shared/domain"
)

// ProbeStore is what the prober needs of the store (*store.Store has it).
type ProbeStore interface {
	ListMCPServers(ctx context.Context) ([]domain.MCPServer, error)
	SaveMCPHealth(ctx context.Context, id string, h domain.MCPHealth) error
}

// Defaults for Prober.
const (
	DefaultProbeConcurrency = 4
	DefaultProbeTimeout     = 15 * time.Second
)

// Prober handshakes with every active server and records its health. It
// never has a user's key: Probe builds a Target with no key at all, so a
// server that needs one is recorded as auth_required, not down.
type Prober struct {
	Store       ProbeStore
	Client      *http.Client     // from Policy.Client
	Now         func() time.Time // nil → time.Now
	Concurrency int              // 0 → DefaultProbeConcurrency
	Timeout     time.Duration    // per probe; 0 → DefaultProbeTimeout
	Log         *slog.Logger     // nil → no logs
}

// ProbeAll probes the active servers, at most Concurrency at a time, and
// saves each health. It answers how many were probed; save failures are
// joined into the error without stopping the others.
func (p *Prober) ProbeAll(ctx context.Context) (int, error) {
	servers, err := p.Store.ListMCPServers(ctx)
	if err != nil {
		return 0, fmt.Errorf("probe list: %w", err)
	}
	n := p.Concurrency
	if n <= 0 {
		n = DefaultProbeConcurrency
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		errs  []error
		count int
		slots = make(chan struct{}, n)
	)
servers:
	for _, s := range servers {
		if !s.IsActive {
			continue
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			break servers
		}
		count++
		wg.Go(func() {
			defer func() { <-slots }()
			h := p.Probe(ctx, s)
			if ctx.Err() != nil {
				return // stopped, not down: keep the last real record
			}
			if err := p.Store.SaveMCPHealth(ctx, s.ID, h); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("probe save %s: %w", s.ID, err))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return count, errors.Join(append(errs, ctx.Err())...)
}

// Probe handshakes with one server (without any key) and returns its new
// health, built on the previous one in s.Health: a failed probe keeps the
// last known tools, and ToolsChangedAt moves only when a previously known
// hash changes.
func (p *Prober) Probe(ctx context.Context, s domain.MCPServer) domain.MCPHealth {
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	res, err := Handshake(ctx, p.Client, Target{Endpoint: s.EndpointURL, Transport: s.Transport})
	elapsed := time.Since(start)
	now := p.now()
	prev := s.Health
	h := prev
	h.CheckedAt = now.UTC().Format(time.RFC3339)
	if err != nil {
		var e *Error
		h.Status, h.LatencyMS, h.Error = domain.HealthDown, 0, "The probe was cancelled."
		if errors.As(err, &e) {
			h.Error = e.Detail
			switch e.Kind {
			case KindAuthRequired, KindOAuth, KindKeyRefused:
				// It answered, and wants credentials: reachable, so keep its latency.
				h.Status, h.LatencyMS = domain.HealthAuthRequired, elapsed.Milliseconds()
			}
		}
		p.log().Info("mcp probe", "server", s.ID, "status", h.Status, "error", err)
		return h
	}
	info := res.ServerInfo
	h = domain.MCPHealth{
		Status:          domain.HealthUp,
		CheckedAt:       h.CheckedAt,
		LatencyMS:       res.Latency.Milliseconds(),
		ProtocolVersion: res.ProtocolVersion,
		ToolsCount:      len(res.Tools),
		ToolsHash:       res.ToolsHash,
		ToolsChangedAt:  prev.ToolsChangedAt,
		ServerInfo:      &info,
		Tools:           res.Tools,
	}
	if prev.ToolsHash != "" && prev.ToolsHash != res.ToolsHash {
		h.ToolsChangedAt = h.CheckedAt
	}
	p.log().Info("mcp probe", "server", s.ID, "status", h.Status, "latency_ms", h.LatencyMS, "tools", h.ToolsCount)
	return h
}

func (p *Prober) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Prober) log() *slog.Logger {
	if p.Log != nil {
		return p.Log
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
