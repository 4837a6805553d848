package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/store"
)

// reply is one message's reply: its model calls and tool rounds, model →
// tool calls → (the user's approval) → each tool on the user's server →
// the results back to the model → again, at most ToolOptions.MaxRounds
// times; and how it ends.
type reply struct {
	// What it answers, from the admission.
	uid, sid      string
	connID, model string
	msgs          []llm.Message
	tr            *turn              // the tools it offers
	resumed       *pausedReply       // the paused reply it resumes
	decision      string             // the user's decision on its pending call
	answer        *ElicitationAnswer // the user's answer to its pending call's question
	rt            route
	adm           *admission
	agent         *domain.Agent   // the marketplace agent it runs as (nil: none)
	sure          bool            // its call starts before its checks are over
	staleAgent    bool            // a sure message's agent is read again (refreshAgent)
	keep          *kept           // the conversation it is kept with (nil: none)
	parent        context.Context // the request's; a kept reply's never ends

	// The engine's parts it uses.
	opts     Options
	st       *store.Store
	tools    *toolbox
	verdicts *verdicts
	asks     *askWaiters
	agents   *agents

	// Set by stream.
	deadline  time.Time // when the stream's own limit ends it
	ctx       context.Context
	out       *frames
	stall     *time.Timer
	framesOut func(n int) // told the count of content frames sent
	// background is what the stream started beside it and waits for
	// before it returns (refreshAgent).
	background sync.WaitGroup

	// What happened.
	frames  int
	rounds  int
	usage   llm.Usage // this request's model calls, each completed
	calls   int       // model calls that count (they spent something)
	paused  *pausedReply
	pending approvalCallView // the call paused waits on
	// pendingQuestion: the server's question a reply paused on (with
	// paused.Elicit).
	pendingQuestion elicitationView
	// pendingSignIn: the sign-in a reply paused for (with paused.SignIn);
	// signInTries: the sign-ins its resumed call asked for already.
	pendingSignIn toolSigninView
	signInTries   int
	limited       bool // stopped at MaxRounds with calls unanswered
}

// stream relays the reply frame by frame to sink. It ends with a usage
// frame and [DONE], with an error frame, or, paused for the user's
// approval of a tool call, with a tool_approval event; a stall ends it
// with 'Stream timeout'; a client disconnect cancels the upstream call and
// any tool call (unless the reply is kept: it goes on).
//
// A sure message's call started before its checks were over: a refusal
// stops the call and is the answer when nothing was written yet, else an
// error frame.
//
// Once the model calls are over, and before the last frame, the stream
// records its usage and gives back its slot (settle), so a client that
// sends again on [DONE] finds its slot free and its usage counted: each
// model call's usage as the provider reported it, each count it did not
// report estimated (llm.Usage.Complete), for a finished, cancelled,
// stalled, refused or cut-off call and for one that failed after its first
// output; nothing for a call that failed before producing anything (the
// provider refused it).
func (r *reply) stream(sink Sink) error {
	ctx, cancel := context.WithCancelCause(r.parent)
	defer cancel(nil)
	r.deadline = time.Now().Add(r.opts.MaxStreamDuration)
	ctx, stop := context.WithDeadlineCause(ctx, r.deadline, errTooLong)
	defer stop()
	r.stall = time.AfterFunc(r.opts.StallTimeout, func() { cancel(errStall) })
	defer r.stall.Stop()
	r.ctx, r.out = ctx, &frames{sink: sink}
	// What need not come before the first frame (a sure message's checks, a
	// known conversation's writes) starts once two frames went out, the
	// call ended, or SureChecksAfter passed (a provider still thinking),
	// whichever comes first: their store calls do not compete with the
	// first frame.
	var later []func()
	if k := r.keep; k != nil {
		rec, begin := k.record(r, cancel)
		defer func() {
			_ = rec.finish() // idempotent: the last frame finished it
			// Wait for the writes (started by now) and the search snippet
			// they start.
			_ = k.wait()
			k.indexing.Wait()
		}()
		if begin != nil {
			later = append(later, begin)
		}
	}
	if r.sure {
		later = append(later, r.adm.watch(ctx, cancel), r.refreshAgent)
		defer r.background.Wait()
	}
	startLater := sync.OnceFunc(func() {
		for _, begin := range later {
			begin()
		}
	})
	if len(later) > 0 {
		due := time.AfterFunc(r.opts.SureChecksAfter, startLater)
		defer due.Stop()
		r.framesOut = func(n int) {
			if n == 2 {
				startLater()
			}
		}
	}

	err := r.run()
	r.stall.Stop()
	startLater()
	refusal := r.settle()
	if r.out.openErr != nil && !r.out.started {
		return r.out.openErr // the conversation is not the caller's, or storing failed
	}
	if refusal != nil {
		if !r.out.started {
			return refusal
		}
		_ = r.out.error(refusalDetail(refusal))
		return nil
	}
	if k := r.keep; k != nil {
		// A known conversation's messages are stored beside the reply (the
		// stream did not wait for them): a reply whose messages could not
		// be stored says so rather than end as if it were kept.
		if err := k.wait(); err != nil {
			if !r.out.started {
				return err
			}
			_ = r.out.error(notKeptDetail(err))
			return nil
		}
	}
	return r.end(err)
}

// run plays the reply: first the rest of a resumed round, then model calls
// until one asks for no tool, the rounds run out, or a call pauses it.
func (r *reply) run() error {
	if r.tr.tools.note != "" && r.resumed == nil {
		_ = r.out.data(noticeFrame{Notice: r.tr.tools.note})
	}
	if r.resumed != nil && !r.finishRound() {
		return nil
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
		if r.rounds >= r.opts.Tools.MaxRounds {
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
	// An agent's instructions go to the model only, never into r.msgs
	// (which a pause stores and history shows).
	msgs := withInstructions(r.agent, r.msgs)
	req := llm.Request{Model: r.rt.model.APIID, Messages: msgs, MaxTokens: r.rt.model.MaxTokens, Tools: r.tr.tools.offered}
	reported, err := r.rt.adapter.Stream(r.ctx, req, func(e llm.Event) error {
		if cause := context.Cause(r.ctx); cause != nil {
			return cause
		}
		switch {
		case e.Text != "":
			r.stall.Reset(r.opts.StallTimeout)
			text.WriteString(e.Text)
			if err := r.out.content(e.Text); err != nil {
				return err
			}
			if r.frames++; r.framesOut != nil {
				r.framesOut(r.frames)
			}
		case e.ToolCall != nil:
			r.stall.Reset(r.opts.StallTimeout)
			calls = append(calls, *e.ToolCall)
		}
		return nil
	})
	if err == nil || text.Len() > 0 || len(calls) > 0 || context.Cause(r.ctx) != nil {
		out := text.String()
		for _, c := range calls {
			out += c.Name + c.Arguments
		}
		u := reported.Complete(msgs, out)
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

// end writes the last frame of a reply whose model calls are over and
// whose admission settled: the error that ended it, the approval it paused
// for (approval.go), or its usage and [DONE].
func (r *reply) end(err error) error {
	cause := context.Cause(r.ctx)
	switch {
	case errors.Is(cause, errStopped):
		// Stopped by its user: it ends like a finished reply, with what it had.
	case errors.Is(cause, errStall):
		_ = r.out.error("Stream timeout")
		return nil
	case errors.Is(cause, errTooLong):
		_ = r.out.error(fmt.Sprintf("The reply was cut off after %s, the longest a reply may stream.", r.opts.MaxStreamDuration))
		return nil
	case r.parent.Err() != nil:
		return nil // the client went away; nobody to tell (a kept reply's parent never ends)
	case err != nil:
		slog.WarnContext(r.parent, "chat upstream failed", "model", r.rt.model.APIID, "err", err)
		_ = r.out.error(upstreamDetail(err))
		return nil
	}
	total := r.usage
	if r.resumed != nil {
		total.InputTokens += r.resumed.Usage.InputTokens
		total.OutputTokens += r.resumed.Usage.OutputTokens
	}
	if r.paused != nil {
		return r.pause(total)
	}
	if r.limited {
		_ = r.out.data(noticeFrame{Notice: fmt.Sprintf("The reply stopped after %d tool rounds, the most one reply may use. Ask again to go on.", r.opts.Tools.MaxRounds)})
	}
	var uf usageFrame
	uf.Usage.InputTokens, uf.Usage.OutputTokens = total.InputTokens, total.OutputTokens
	if r.rt.demo {
		uf.Usage.Demo = true
	} else {
		uf.Usage.CostUSD = r.rt.model.Cost(total)
	}
	_ = r.out.data(uf)
	_ = r.out.done()
	return nil
}

// frames is a reply's writer to its sink: the opening frame first (a kept
// reply's message ids, once its messages are stored), and whether anything
// went out (until then a refusal is still the caller's answer).
type frames struct {
	// mu keeps frames whole: while a tool runs, its server's progress,
	// log messages and questions are written from the session's
	// goroutines, beside the keep-alive comments.
	mu   sync.Mutex
	sink Sink
	// open, when set, runs before the first frame; its error stops the
	// stream before anything is written (openErr keeps it).
	open    func() error
	openErr error
	started bool
}

// begin runs the opening before the first frame.
func (f *frames) begin() error {
	if f.started {
		return nil
	}
	if f.openErr != nil {
		return f.openErr
	}
	if f.open != nil {
		if err := f.open(); err != nil {
			f.openErr = err
			return err
		}
	}
	f.started = true
	return nil
}

func (f *frames) content(text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(); err != nil {
		return err
	}
	return f.sink.Content(text)
}

func (f *frames) data(v any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(); err != nil {
		return err
	}
	return f.sink.Data(v)
}

func (f *frames) event(name string, v any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(); err != nil {
		return err
	}
	return f.sink.Event(name, v)
}

func (f *frames) error(detail string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(); err != nil {
		return err
	}
	return f.sink.Error(detail)
}

func (f *frames) done() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(); err != nil {
		return err
	}
	return f.sink.Done()
}

func (f *frames) comment(text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.begin(); err != nil {
		return err
	}
	return f.sink.Comment(text)
}

var (
	errStall   = errors.New("stream stalled")
	errTooLong = errors.New("stream ran too long")
	errRefused = errors.New("message refused by its checks")
	errStopped = errors.New("reply stopped by its user")
	errNotKept = errors.New("message not kept with its conversation")
)

// refusalDetail is what an error frame says of a refusal: its detail, or a
// generic line for an internal error (whose cause is logged, not shown).
func refusalDetail(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Detail
	}
	slog.Error("chat admission failed", "err", err)
	return "The message could not be checked. Please try again."
}

func upstreamDetail(err error) string {
	var ue *llm.UpstreamError
	if errors.As(err, &ue) {
		switch {
		case ue.Status == 401 || ue.Status == 403:
			return fmt.Sprintf("%s refused the API key (HTTP %d). Check the provider key configured on the server.", ue.Provider, ue.Status)
		case ue.Status == 429:
			return fmt.Sprintf("%s is rate limiting requests (HTTP 429). Wait a moment and try again.", ue.Provider)
		case ue.Status >= 500:
			return fmt.Sprintf("%s is having trouble (HTTP %d). Try again shortly.", ue.Provider, ue.Status)
		case ue.Status > 0:
			return fmt.Sprintf("%s refused the request (HTTP %d): %s", ue.Provider, ue.Status, ue.Detail)
		}
		return fmt.Sprintf("%s: %s", ue.Provider, ue.Detail)
	}
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var netErr net.Error
	switch {
	case errors.As(err, &syntax), errors.As(err, &typeErr):
		return MsgProviderUnreadable
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.As(err, &netErr):
		return MsgProviderCut
	}
	return "The model provider failed to answer. Please try again."
}

// What a reply's error frame says when the provider's stream broke on the
// wire: cut before its end, or an event that is not JSON.
const (
	MsgProviderCut        = "The model provider's stream was cut off before the reply ended. Please try again."
	MsgProviderUnreadable = "The model provider sent a reply this site could not read. Please try again."
)
