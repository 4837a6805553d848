package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// Re-attaching polls the stored reply: first soon, then less often.
const (
	reattachFirstPoll = 100 * time.Millisecond
	reattachMaxPoll   = time.Second
	// reattachDead: a reply not complete whose item did not change for this
	// long lost its generator (its process died); the stream says so.
	reattachDead = 5 * SaveEvery
)

// Replies reaches the replies kept with conversations from any instance,
// through what their generators save: the conversation routes re-attach
// to one (Reattach) and stop one (Stop).
type Replies struct {
	st   *store.Store
	opts Options
}

// NewReplies reads kept replies from st; of opts, Now and
// MaxStreamDuration count.
func NewReplies(st *store.Store, opts Options) *Replies {
	return &Replies{st: st, opts: opts.completed()}
}

// Reattach streams uid's reply mid in conversation cid to sink: what it
// has so far at once, then what its generator saves as it comes (the
// stored item is polled), ending as the reply ended; a finished reply is
// answered at once. The error is a refusal before anything was written
// (an *Error NotFound: no such reply of the caller's).
func (rs *Replies) Reattach(ctx context.Context, uid, cid, mid string, sink Sink) error {
	var m domain.ConversationMessage
	err := rs.whileWritten(ctx, mid, func() (err error) {
		m, err = rs.st.GetMessage(ctx, uid, cid, mid)
		return err
	})
	if errors.Is(err, store.ErrNotFound) || (err == nil && m.Role != domain.RoleAssistant) {
		return refuse(NotFound, "Message not found.")
	}
	if err != nil {
		return err
	}
	out := &frames{sink: sink}
	sent, blocks := 0, 0
	wait := reattachFirstPoll
	deadline := time.Now().Add(rs.opts.MaxStreamDuration + time.Minute)
	for {
		sent, blocks = replay(out, m, sent, blocks)
		switch {
		case m.Complete || m.StopRequested:
			finishReplay(out, m)
			return nil
		case rs.opts.Now().Sub(m.UpdatedAt) > reattachDead || time.Now().After(deadline):
			_ = out.error("The reply stopped being generated before it finished. Send your message again.")
			return nil
		}
		if !out.started {
			_ = out.comment("generating")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(wait*3/2, reattachMaxPoll)
		next, err := rs.st.GetMessage(ctx, uid, cid, mid)
		if errors.Is(err, store.ErrNotFound) {
			_ = out.error("This conversation was deleted.")
			return nil
		}
		if err == nil {
			m = next
		}
	}
}

// Stop asks the invocation generating uid's reply mid in conversation cid
// to end it (it learns so at its next save); an *Error NotFound when there
// is no such message.
func (rs *Replies) Stop(ctx context.Context, uid, cid, mid string) error {
	err := rs.whileWritten(ctx, mid, func() error { return rs.st.RequestStop(ctx, uid, cid, mid) })
	if errors.Is(err, store.ErrNotFound) {
		return refuse(NotFound, "Message not found.")
	}
	return err
}

// writeGrace bounds how long after its id was made a message may still be
// being written (its stream opened before its writes were over).
const writeGrace = 2 * time.Second

// whileWritten runs op, and again every 50 ms while it finds no message and
// the message's id is young enough that it may still be being written.
func (rs *Replies) whileWritten(ctx context.Context, mid string, op func() error) error {
	at, known := messageIDTime(mid)
	for {
		err := op()
		age := rs.opts.Now().Sub(at)
		if !errors.Is(err, store.ErrNotFound) || !known || age > writeGrace || age < -time.Second {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// replay writes what m has past sent bytes of text and blocks frames, in
// stream order, and answers the new positions.
func replay(out *frames, m domain.ConversationMessage, sent, blocks int) (int, int) {
	for ; blocks < len(m.Blocks); blocks++ {
		b := m.Blocks[blocks]
		if b.At > len(m.Content) {
			break
		}
		if b.At > sent {
			_ = out.content(m.Content[sent:b.At])
			sent = b.At
		}
		switch {
		case strings.HasPrefix(string(b.Frame), `{"tool_approval"`):
		case strings.HasPrefix(string(b.Frame), `{"elicitation"`):
			// A question asked in its place in the reply (one a reply
			// paused on, its last block, is the reply's end).
			if !(m.Complete && blocks == len(m.Blocks)-1) {
				_ = out.event("elicitation", eventData(b.Frame, "elicitation"))
			}
		default:
			_ = out.data(json.RawMessage(b.Frame))
		}
	}
	if len(m.Content) > sent {
		_ = out.content(m.Content[sent:])
		sent = len(m.Content)
	}
	return sent, blocks
}

// finishReplay ends a re-attached stream as its reply ended.
func finishReplay(out *frames, m domain.ConversationMessage) {
	if m.Error != "" {
		_ = out.error(m.Error)
		return
	}
	if n := len(m.Blocks); n > 0 {
		if strings.HasPrefix(string(m.Blocks[n-1].Frame), `{"tool_signin"`) {
			return // paused for a sign-in: its frame, replayed, was the end
		}
		for _, name := range []string{"tool_approval", "elicitation"} {
			if strings.HasPrefix(string(m.Blocks[n-1].Frame), `{"`+name+`"`) {
				// Paused for an approval or a question: the event as it was sent.
				_ = out.event(name, eventData(m.Blocks[n-1].Frame, name))
				return
			}
		}
	}
	if m.Usage != nil {
		var uf usageFrame
		uf.Usage.InputTokens, uf.Usage.OutputTokens, uf.Usage.CostUSD, uf.Usage.Demo = m.Usage.InputTokens, m.Usage.OutputTokens, m.Usage.CostUSD, m.Usage.Demo
		_ = out.data(uf)
	}
	_ = out.done()
}

// eventData is a recorded event's data: {"<name>": data} unwrapped.
func eventData(frame []byte, name string) json.RawMessage {
	return json.RawMessage(strings.TrimSuffix(strings.TrimPrefix(string(frame), `{"`+name+`":`), "}"))
}
