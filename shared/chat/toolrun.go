package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/llm"
	"aiwork/shared/mcp"
)

// callRun is one tool call as it runs: its context, cancelled with a
// cause (its own timeout, a question left unanswered, the reply's end),
// and its timeout's clock, which stops while the user is asked something
// (the user's time is bounded by the question's expiry instead) and starts
// afresh once they answered. Hooks write frames only while it runs.
type callRun struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	budget time.Duration
	timer  *time.Timer

	mu      sync.Mutex
	over    bool
	held    int
	logs    int
	updates int
}

var errCallTimeout = errors.New("tool call timed out")

func newCallRun(parent context.Context, budget time.Duration) *callRun {
	ctx, cancel := context.WithCancelCause(parent)
	run := &callRun{ctx: ctx, cancel: cancel, budget: budget}
	run.timer = time.AfterFunc(budget, func() { cancel(errCallTimeout) })
	return run
}

// hold stops the call's clock while the user is asked.
func (c *callRun) hold() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held++; c.held == 1 {
		c.timer.Stop()
	}
}

// release starts the clock afresh once the user answered.
func (c *callRun) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held--; c.held == 0 && !c.over {
		c.timer.Reset(c.budget)
	}
}

// end stops the call: no frame of its hooks after this.
func (c *callRun) end() {
	c.mu.Lock()
	c.over = true
	c.mu.Unlock()
	c.timer.Stop()
	c.cancel(nil)
}

// write runs w unless the call ended; false past a frame budget (a server
// cannot flood the stream or the kept reply).
func (c *callRun) write(counter *int, max int, w func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.over || *counter >= max {
		return
	}
	*counter++
	w()
}

// callTimeoutDetail says a call ran out of its time (as shared/mcp says it
// for a deadline).
func callTimeoutDetail(budget time.Duration) string {
	secs := int(math.Ceil(budget.Seconds()))
	unit := "seconds"
	if secs == 1 {
		unit = "second"
	}
	return fmt.Sprintf("The server did not answer within %d %s.", secs, unit)
}

// Bounds of what one call's server may add to the stream.
const (
	maxProgressFrames = 1000
	maxLogFrames      = 200
	maxLogBytes       = 4 << 10
)

// Frames of a running call.
type (
	toolProgressFrame struct {
		ToolProgress toolProgressView `json:"tool_progress"`
	}
	toolProgressView struct {
		ID       string   `json:"id"`
		Progress float64  `json:"progress"`
		Total    *float64 `json:"total,omitempty"`
		Message  string   `json:"message,omitempty"`
	}
	toolLogFrame struct {
		ToolLog toolLogView `json:"tool_log"`
	}
	toolLogView struct {
		ID    string          `json:"id"`
		Level string          `json:"level"`
		Data  json.RawMessage `json:"data"`
	}
)

// hooks relay what c's server sends while run lasts: its progress and log
// messages as frames of c's tool block, its questions to the user.
func (r *reply) hooks(run *callRun, c llm.ToolCall) *mcp.CallHooks {
	return &mcp.CallHooks{
		Progress: func(p mcp.Progress) {
			v := toolProgressView{ID: c.ID, Progress: p.Progress, Message: p.Message}
			if p.Total > 0 {
				t := p.Total
				v.Total = &t
			}
			run.write(&run.updates, maxProgressFrames, func() { _ = r.out.data(toolProgressFrame{ToolProgress: v}) })
		},
		Log: func(level string, data json.RawMessage) {
			if len(data) > maxLogBytes {
				data, _ = json.Marshal(fmt.Sprintf("(a log message of %d bytes, not shown)", len(data)))
			}
			run.write(&run.logs, maxLogFrames, func() { _ = r.out.data(toolLogFrame{ToolLog: toolLogView{ID: c.ID, Level: level, Data: data}}) })
		},
		Ask: func(_ context.Context, q *sdk.ElicitParams, completed <-chan struct{}) (*sdk.ElicitResult, error) {
			return r.askHeld(run, r.tr.callView(c), q, completed)
		},
	}
}
