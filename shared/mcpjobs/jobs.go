// Package mcpjobs is the registry's scheduled work (shared/lambdas): importing
// the catalogue and probing every server's health. The mcp-jobs Lambda runs
// one job per scheduled event, and Probe now and Sync from registry now when
// the admin function asks (remote); the devserver runs them on timers and
// in-process.
package mcpjobs

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/mcp"
	"aiwork/shared/mcp/registry"
	"aiwork/shared/mcpjobs/remote"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
)

// Job names, as shared/lambdas lists them.
const (
	Sync  = "mcp-sync"
	Probe = "mcp-probe"
)

// Runner runs the registry jobs.
type Runner struct {
	st          *store.Store
	policy      mcp.Policy
	client      *http.Client
	registryURL string
	log         *slog.Logger
}

// FromConfig builds the runner; every outbound request it makes goes
// through the outbound rules.
func FromConfig(st *store.Store, cfg config.MCPJobs, log *slog.Logger) (*Runner, error) {
	policy, err := mcp.PolicyFor(cfg.Outbound)
	if err != nil {
		return nil, err
	}
	// A probe's own timeout bounds it, not the client's shorter default wait
	// for an answer's headers.
	client := policy.ClientWithLimits(mcp.Limits{ResponseHeader: mcp.DefaultProbeTimeout})
	return &Runner{st: st, policy: policy, client: client, registryURL: cfg.RegistryURL, log: log}, nil
}

// Run runs the named job.
func (r *Runner) Run(ctx context.Context, job string) error {
	switch job {
	case Sync:
		return r.sync(ctx)
	case Probe:
		n, err := (&mcp.Prober{Store: r.st, Client: r.client, Log: r.log}).ProbeAll(ctx)
		r.log.Info("mcp probe", "servers", n, "err", err)
		return err
	default:
		return fmt.Errorf("unknown job %q", job)
	}
}

// sync writes the committed seed (idempotent), then imports from the
// registry when one is configured.
func (r *Runner) sync(ctx context.Context) error {
	_, err := r.Sync(ctx)
	return err
}

// Sync is the sync job, answering what it did (zero counts without a
// registry, MCP_REGISTRY_URL): Sync from registry now in the admin area
// runs it.
func (r *Runner) Sync(ctx context.Context) (remote.SyncReport, error) {
	if err := seeddata.SeedMCPServers(ctx, r.st); err != nil {
		return remote.SyncReport{}, err
	}
	if r.registryURL == "" {
		return remote.SyncReport{}, nil
	}
	stats, err := (&registry.Syncer{BaseURL: r.registryURL, HTTP: r.client, Store: r.st, Log: r.log}).Run(ctx)
	r.log.Info("mcp registry sync", "registry", r.registryURL, "pages", stats.Pages, "upserted", stats.Upserted,
		"deactivated", stats.Deactivated, "skipped", stats.Skipped, "err", err)
	return remote.SyncReport{Upserted: stats.Upserted, Deactivated: stats.Deactivated, Skipped: stats.Skipped, Pages: stats.Pages,
		Registry: true}, err
}

// ProbeOne is the probe job on one server, its health saved: Probe now in
// the admin area runs it.
func (r *Runner) ProbeOne(ctx context.Context, srv domain.MCPServer) (domain.MCPHealth, error) {
	h := (&mcp.Prober{Store: r.st, Client: r.client, Log: r.log}).Probe(ctx, srv)
	return h, r.st.SaveMCPHealth(ctx, srv.ID, h)
}

// CheckEndpoint says why the outbound rules refuse an endpoint (nil:
// allowed).
func (r *Runner) CheckEndpoint(ctx context.Context, raw string) error {
	return r.policy.CheckEndpoint(ctx, raw)
}
