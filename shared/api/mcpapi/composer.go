package mcpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/mcp"
	"aiwork/shared/mcp/reach"
	"aiwork/shared/store"
)

// What the chat's composer reads from a user's servers (prompts.go,
// resources.go): each request on a warm session to the user's own
// connection, through the outbound rules, with its key or sign-in.

// Bounds of the composer's requests.
const (
	// listTimeout bounds one server's listing: a slow server is listed
	// with an error, the others still answer.
	listTimeout = 10 * time.Second
	// askTimeout bounds a prompt's get or a resource's read; completions
	// are asked while the user types (completeTimeout).
	askTimeout      = 20 * time.Second
	completeTimeout = 5 * time.Second
	// composerBodyCap lets a resource's answer through up to twice the
	// resource limit, so one over it is measured and refused with its size
	// (base64 makes a binary one a third larger on the wire).
	composerBodyCap = 2 * mcp.MaxResourceBytes
	composerMax     = 64
)

// composer reaches users' servers for their prompts and resources.
type composer struct {
	st    *store.Store
	reach reach.Reacher
	pool  *mcp.Pool
	// connect bounds opening a session.
	connect time.Duration
}

func newComposer(st *store.Store, sealer *mcp.Sealer, policy mcp.Policy, connect, idle time.Duration) *composer {
	client := policy.ClientWithLimits(mcp.Limits{ResponseHeader: askTimeout, MaxBodyBytes: composerBodyCap})
	return &composer{st: st, reach: reach.Reacher{St: st, Sealer: sealer, Client: client, Now: time.Now},
		pool: mcp.NewPool(client, idle, composerMax), connect: connect}
}

// connection is the caller's connection {id}; anyone else's is
// indistinguishable from an unknown one.
func (c *composer) connection(r *http.Request) (string, domain.MCPConnection, error) {
	uid, _ := auth.UserID(r.Context())
	id := r.PathValue("id")
	if id == "" || len(id) > 100 {
		return "", domain.MCPConnection{}, connectionNotFound()
	}
	conn, err := c.st.GetMCPConnection(r.Context(), uid, id)
	if errors.Is(err, store.ErrNotFound) {
		return "", domain.MCPConnection{}, connectionNotFound()
	}
	return uid, conn, err
}

func connectionNotFound() error {
	return httpx.NotFound("MCP connection not found. Connect the server again in the MCP Registry.")
}

// each runs list on each of the caller's connections at once (those
// ?connection_ids= names, when given), each bounded by listTimeout; out
// holds the answers in the connections' order, without the nil ones (a
// server that offers none of what is listed).
func each[T any](c *composer, r *http.Request, list func(ctx context.Context, uid string, conn domain.MCPConnection) *T) ([]*T, error) {
	uid, _ := auth.UserID(r.Context())
	conns, err := c.st.ListMCPConnections(r.Context(), uid)
	if err != nil {
		return nil, err
	}
	if q := strings.TrimSpace(r.URL.Query().Get("connection_ids")); q != "" {
		want := map[string]bool{}
		for _, id := range strings.Split(q, ",") {
			want[strings.TrimSpace(id)] = true
		}
		kept := conns[:0]
		for _, conn := range conns {
			if want[conn.ID] {
				kept = append(kept, conn)
			}
		}
		conns = kept
	}
	out := make([]*T, len(conns))
	var wg sync.WaitGroup
	for i, conn := range conns {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(r.Context(), listTimeout)
			defer cancel()
			out[i] = list(ctx, uid, conn)
		})
	}
	wg.Wait()
	return slices.DeleteFunc(out, func(v *T) bool { return v == nil }), nil
}

// failureSentence says in a sentence why a server's listing failed.
func failureSentence(conn domain.MCPConnection, err error) string {
	var me *mcp.Error
	if errors.As(err, &me) {
		return me.Detail
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return conn.Label() + " did not answer in time."
	}
	slog.Warn("mcp composer listing failed", "server", conn.ServerID, "err", err)
	return conn.Label() + " could not be reached."
}

// askError maps a failed request on one server to the status it is
// answered with: the server's refusal of what was asked (invalid params,
// an unknown resource) is the caller's 400 or 404, in the server's words;
// the rest as a connect's failures (clientError).
func askError(err error) error {
	var tl *mcp.TooLargeError
	if errors.As(err, &tl) {
		return &httpx.Error{Code: httpx.CodeTooLarge, Detail: tl.Error()}
	}
	var rpc *jsonrpc.Error
	var me *mcp.Error
	if errors.As(err, &rpc) && errors.As(err, &me) {
		switch rpc.Code {
		case jsonrpc.CodeInvalidParams:
			return httpx.Invalid(me.Detail)
		case codeResourceNotFound:
			return httpx.NotFound(me.Detail)
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &httpx.Error{Code: httpx.CodeTimeout, Detail: "The server did not answer in time."}
	}
	return clientError(err)
}

// codeResourceNotFound is the MCP spec's error for a resource the server
// does not have.
const codeResourceNotFound = -32002
