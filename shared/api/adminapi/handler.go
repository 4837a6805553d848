// Package adminapi is the admin route group (/api/v1/admin/…): the
// catalogue, the MCP registry, orders and users, for admins only. Every
// route checks the caller is an admin from the stored user (not the
// token), and every change is written after its audit line
// (store.WithAudit): no change without its line.
package adminapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/lambdas"
	"aiwork/shared/mail"
	"aiwork/shared/mcp/outbound"
	"aiwork/shared/payments"
	"aiwork/shared/sealing"
	"aiwork/shared/store"
)

// Prefix is where the group's routes live.
const Prefix = lambdas.AdminPrefix

// MsgForbidden is what a caller who is not an admin is told.
const MsgForbidden = "Admin access required."

// Options configure the group.
type Options struct {
	// Now is the clock.
	Now func() time.Time
	// Jobs run Probe now and Sync from registry now (nil: those routes
	// answer 503).
	Jobs Jobs
	// Endpoints judge an endpoint an admin saves by the outbound rules
	// (nil: not judged).
	Endpoints EndpointChecker
	// Payments refunds orders (nil: a refund answers 503).
	Payments payments.Provider
	// Mailer sends the confirmation mail an admin resends (nil: none can
	// be sent, 503), its link to the site at PublicURL (empty: the host
	// the request came to).
	Mailer    mail.Mailer
	PublicURL string
	// Sealer seals the OAuth client secret an admin sets on a registry
	// entry, as the mcp function opens it (nil: none can be set, 503).
	Sealer *sealing.Sealer
}

// Service serves the admin group.
type Service struct {
	st     *store.Store
	tokens *auth.Tokens
	opts   Options
}

// New builds the admin group.
func New(st *store.Store, tokens *auth.Tokens, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{st: st, tokens: tokens, opts: opts}
}

// FromConfig builds the group from its function's configuration: jobs run
// the registry jobs (Jobs), mailer sends the confirmation mail an admin
// resends (SES in AWS, the local outbox on the devserver), refunds go
// through the provider the Stripe key names (payments.ProviderFor),
// endpoints are judged by the jobs' outbound rules, and operators' client
// secrets are sealed with the MCP key-encryption key.
func FromConfig(st *store.Store, cfg config.Admin, mailer mail.Mailer, jobs Jobs) *Service {
	opts := Options{Jobs: jobs, Payments: payments.ProviderFor(st, cfg.StripeSecretKey, cfg.StripeAPIURL), Mailer: mailer,
		PublicURL: cfg.PublicURL}
	if sealer, err := sealing.NewSealer(cfg.KeyEncryptionKey); err != nil {
		slog.Error("admin: operators' OAuth client secrets cannot be sealed", "err", err)
	} else {
		opts.Sealer = sealer
	}
	if policy, err := outbound.PolicyFor(cfg.MCPJobs.Outbound); err != nil {
		slog.Error("admin: endpoints cannot be checked against the outbound rules", "err", err)
	} else {
		opts.Endpoints = policy
	}
	return New(st, auth.FromConfig(cfg.Base, 0, st), opts)
}

// Handler routes the group.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	s.promptRoutes(mux)
	s.categoryRoutes(mux)
	s.auditRoutes(mux)
	s.mcpRoutes(mux)
	s.orderRoutes(mux)
	s.userRoutes(mux)
	s.reviewRoutes(mux)
	s.creatorRoutes(mux)
	s.agentRoutes(mux)
	return httpx.WithNotFound(mux)
}

// admin guards an admin route: 401 without a valid session, 403 unless the
// stored user is an admin and not disabled (read on every request, so a
// revoked admin loses access at once).
func (s *Service) admin(h httpx.HandlerFunc) http.Handler {
	return s.tokens.Required(httpx.Handle(func(w http.ResponseWriter, r *http.Request) error {
		uid, _ := auth.UserID(r.Context())
		u, err := s.st.GetUser(r.Context(), uid)
		if errors.Is(err, store.ErrNotFound) {
			return httpx.Forbidden(MsgForbidden)
		}
		if err != nil {
			return err
		}
		if !u.IsSuperuser || u.Disabled {
			return httpx.Forbidden(MsgForbidden)
		}
		return h(w, r.WithContext(context.WithValue(r.Context(), actorKey{}, u)))
	}))
}

type actorKey struct{}

// actor is the admin making the request.
func actor(ctx context.Context) domain.User {
	u, _ := ctx.Value(actorKey{}).(domain.User)
	return u
}

// audit is the audit line of an action by the request's admin on a target.
func (s *Service) audit(ctx context.Context, action, targetType, targetID string, before, after any) store.AuditEntry {
	a := actor(ctx)
	return store.AuditEntry{At: s.opts.Now().UTC(), ActorID: a.ID, ActorEmail: a.Email, Action: action, TargetType: targetType,
		TargetID: targetID, Before: store.AuditSnapshot(before), After: store.AuditSnapshot(after)}
}

// utcSeconds is how the admin views write a moment: RFC 3339 in UTC, whole
// seconds (the admin pages show moments to the minute).
func utcSeconds(t time.Time) string { return t.UTC().Format(time.RFC3339) }
