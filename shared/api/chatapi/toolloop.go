package chatapi

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"aiwork/shared/llm"
)

// reply is one reply's model calls and tool rounds: model → tool calls →
// (the user's approval) → each tool on the user's server → the results
// back to the model → again, at most ToolOptions.MaxRounds times.
type reply struct {
	// From the request.
	connID, model string
	msgs          []llm.Message
	tr            *turn
	resumed       *pausedReply // the paused reply this request resumes
	decision      string       // the user's decision on its pending call
	keep          *kept        // the conversation the reply is kept with (nil: none)

	// Set by stream.
	s         *Service
	ctx       context.Context
	out       *sse
	rt        route
	stall     *time.Timer
	framesOut func(n int) // told the count of content frames sent

	// What happened.
	frames  int
	rounds  int
	usage   llm.Usage // this request's model calls, each completed
	calls   int       // model calls that count (they spent something)
	paused  *pausedReply
	pending approvalCallView // the call paused waits on
	limited bool             // stopped at MaxRounds with calls unanswered
}

// run plays the reply: first the rest of a resumed round, then model calls
// until one asks for no tool, the rounds run out, or a call pauses it.
func (r *reply) run() error {
	if r.tr.tools.note != "" && r.resumed == nil {
		_ = r.out.data(noticeFrame{Notice: r.tr.tools.note})
	}
	if p := r.resumed; p != nil {
		r.rounds, r.msgs = p.Rounds, loadMessages(p.Messages)
		if !r.finishRound(loadCalls(p.Calls), loadResults(p.Results), p.Pending) {
			return nil
		}
	}
	for {
		// The client left, the stall or the duration cut in while tools
		// ran: no further model call.
		if err := context.Cause(r.ctx); err != nil {
			return err
		}
		calls, err := r.modelCall()
		if err != nil || len(calls) == 0 || r.ctx.Err() != nil {
			return err
		}
		if r.rounds >= r.s.tools.MaxRounds {
			r.limited = true
			return nil
		}
		r.rounds++
		if !r.toolCalls(calls, nil, 0) {
			return nil
		}
	}
}

// modelCall streams one model call: its text to the client as it comes,
// its tool calls collected. A call that produced nothing and failed on its
// own (the provider refused it) spends nothing.
func (r *reply) modelCall() ([]llm.ToolCall, error) {
	var text strings.Builder
	var calls []llm.ToolCall
	req := llm.Request{Model: r.rt.model.APIID, Messages: r.msgs, MaxTokens: r.rt.model.MaxTokens, Tools: r.tr.tools.offered}
	reported, err := r.rt.adapter.Stream(r.ctx, req, func(e llm.Event) error {
		if cause := context.Cause(r.ctx); cause != nil {
			return cause
		}
		switch {
		case e.Text != "":
			r.stall.Reset(r.s.opts.StallTimeout)
			text.WriteString(e.Text)
			if err := r.out.content(e.Text); err != nil {
				return err
			}
			if r.frames++; r.framesOut != nil {
				r.framesOut(r.frames)
			}
		case e.ToolCall != nil:
			r.stall.Reset(r.s.opts.StallTimeout)
			calls = append(calls, *e.ToolCall)
		}
		return nil
	})
	if err == nil || text.Len() > 0 || len(calls) > 0 || context.Cause(r.ctx) != nil {
		out := text.String()
		for _, c := range calls {
			out += c.Name + c.Arguments
		}
		u := reported.Complete(r.msgs, out)
		r.usage.InputTokens += u.InputTokens
		r.usage.OutputTokens += u.OutputTokens
		r.calls++
	}
	if err != nil {
		return nil, err
	}
	if len(calls) > 0 {
		r.msgs = append(r.msgs, llm.Message{Role: "assistant", Content: text.String(), ToolCalls: calls})
	}
	return calls, nil
}

// toolCalls answers calls[from:], results holding the answers before
// from, and adds the tool turn to the conversation; false when a call
// needs the user's approval first (the reply pauses there).
func (r *reply) toolCalls(calls []llm.ToolCall, results []llm.ToolResult, from int) bool {
	for i := from; i < len(calls); i++ {
		c := calls[i]
		view := r.tr.callView(c)
		_ = r.out.data(toolCallFrame{ToolCall: view})
		if bt, ok := r.tr.tools.byName[c.Name]; ok && r.tr.needsApproval(bt) {
			r.paused = &pausedReply{
				ConnectionID: r.connID, Model: r.model, MCPConnectionIDs: r.tr.mcpIDs, ConfirmReadOnly: r.tr.confirmReadOnly,
				ConversationID: r.keep.conversationID(), MessageID: r.keep.messageID(),
				Messages: storeMessages(r.msgs), Calls: storeCalls(calls), Bound: r.tr.bindings(calls), Results: storeResults(results), Pending: i, Rounds: r.rounds,
			}
			r.pending = approvalCall(view, bt)
			return false
		}
		results = append(results, r.runCall(c))
	}
	r.msgs = append(r.msgs, llm.Message{Role: "tool", ToolResults: results})
	return true
}

// finishRound answers a resumed round's pending call as the user decided,
// then the round's other calls.
func (r *reply) finishRound(calls []llm.ToolCall, results []llm.ToolResult, pending int) bool {
	c := calls[pending]
	switch r.decision {
	case decisionDeny:
		res, view := denied(c)
		_ = r.out.data(toolResultFrame{ToolResult: view})
		results = append(results, res)
	case decisionAlways:
		if bt, ok := r.tr.tools.byName[c.Name]; ok {
			if err := r.s.st.AllowToolAlways(r.ctx, r.tr.uid, bt.conn.ServerID, bt.tool.Name, r.s.opts.Now()); err != nil {
				slog.WarnContext(r.ctx, "always-allow not saved", "err", err)
			} else {
				r.tr.allowed[allowKey(bt.conn.ServerID, bt.tool.Name)] = true
			}
		}
		results = append(results, r.runCall(c))
	default:
		results = append(results, r.runCall(c))
	}
	return r.toolCalls(calls, results, pending+1)
}

// keepAliveEvery: while a tool runs (up to MCP_TOOL_CALL_TIMEOUT), a
// comment line keeps the stream from looking stalled to the browser and to
// proxies, which give up after 30 s without a byte.
const keepAliveEvery = 10 * time.Second

// runCall runs one call with the stall timer stopped (a tool has its own
// bound) and sends its result frame.
func (r *reply) runCall(c llm.ToolCall) llm.ToolResult {
	r.stall.Stop()
	defer r.stall.Reset(r.s.opts.StallTimeout)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(keepAliveEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = r.out.comment("tool running")
			}
		}
	})
	res, view := r.s.runCall(r.ctx, r.tr, c)
	close(done)
	wg.Wait() // no write of the ticker's after this: frames stay whole
	_ = r.out.data(toolResultFrame{ToolResult: view})
	return res
}

type (
	toolCallFrame struct {
		ToolCall toolCallView `json:"tool_call"`
	}
	toolResultFrame struct {
		ToolResult toolResultView `json:"tool_result"`
	}
	noticeFrame struct {
		Notice string `json:"notice"`
	}
)

// sendApproval stores the paused reply and ends the stream with its
// tool_approval event (no [DONE]: the reply is not over).
func (s *Service) sendApproval(parent context.Context, out *sse, r *reply, spent llm.Usage) error {
	r.paused.Usage = spent
	token, expires, err := s.pause(context.WithoutCancel(parent), r.tr.uid, *r.paused, s.opts.Now())
	if err != nil {
		slog.ErrorContext(parent, "reply not paused", "err", err)
		detail := "The reply could not be paused for your approval of a tool call. Please try again."
		if err == errTooLongToPause {
			detail = "This conversation is too long to pause for your approval of a tool call. Start a new chat tab."
		}
		_ = out.error(detail)
		return nil
	}
	_ = out.event("tool_approval", approvalView{Token: token, ExpiresAt: expires.UTC().Format(time.RFC3339), Call: r.pending})
	return nil
}
