package mcpjobs

import (
	"context"
	"errors"
	"fmt"

	"aiwork/shared/mcpjobs/remote"
	"aiwork/shared/store"
)

// Handle answers one invocation of the mcp-jobs function. A schedule's job
// answers nothing, its failure the function's error. An admin's action answers its result, or the job's failure in
// Reply.Error, so the admin reads the same words as when the job ran in
// its own process.
func (r *Runner) Handle(ctx context.Context, ev remote.Event) (*remote.Reply, error) {
	switch ev.Action {
	case "":
		return nil, r.Run(ctx, ev.Job)
	case remote.ActionProbe:
		srv, err := r.st.GetMCPServer(ctx, ev.ServerID)
		if errors.Is(err, store.ErrNotFound) {
			return &remote.Reply{NotFound: true}, nil
		}
		if err != nil {
			return &remote.Reply{Error: err.Error()}, nil
		}
		h, err := r.ProbeOne(ctx, srv)
		if err != nil {
			return &remote.Reply{Error: err.Error()}, nil
		}
		return &remote.Reply{Health: &h}, nil
	case remote.ActionSync:
		report, err := r.Sync(ctx)
		if err != nil {
			return &remote.Reply{Error: err.Error()}, nil
		}
		return &remote.Reply{Sync: &report}, nil
	default:
		return nil, fmt.Errorf("unknown action %q", ev.Action)
	}
}
