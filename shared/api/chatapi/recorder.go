package chatapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// SaveEvery is how often a reply kept with its conversation is saved while
// it streams (and once more at its end).
const SaveEvery = 2 * time.Second

// maxStoredBlock bounds one tool frame as history keeps it; a larger result
// is kept as a note (the live stream still carried it whole).
const maxStoredBlock = 16 << 10

// maxStoredBlocks bounds the tool frames of one reply in history.
const maxStoredBlocks = 64 << 10

// recorder keeps a reply with its conversation as the stream writes it:
// the text, the tool frames at their place in it, the usage and how it
// ended. It saves every SaveEvery from its own goroutine and at the end; a
// save refused because the user pressed Stop (or deleted the conversation)
// ends the generation through stop.
type recorder struct {
	st   *store.Store
	uid  string
	stop func() // ends the generation (Stop pressed, conversation deleted)

	mu         sync.Mutex
	msg        domain.ConversationMessage // its Content is buf's, at each save
	buf        strings.Builder            // appended per delta: no copy of what came before
	blockBytes int
	stopped    bool // a save was refused: the user stopped the reply

	kept   *kept      // saves wait for its messages to be stored
	saving sync.Mutex // one save at a time, in order
	ticker *time.Ticker
	first  chan struct{} // the first text came: save it at once
	quit   chan struct{}
	wg     sync.WaitGroup
	now    func() time.Time
}

// newRecorder starts recording into msg (an assistant message already
// stored, empty or, for a resumed reply, with what it had before the
// pause).
func newRecorder(st *store.Store, uid string, k *kept, now func() time.Time, stop func()) *recorder {
	msg := k.reply
	rec := &recorder{st: st, uid: uid, stop: stop, msg: msg, now: now, quit: make(chan struct{}), first: make(chan struct{}, 1),
		ticker: time.NewTicker(SaveEvery), kept: k}
	rec.msg.Complete, rec.msg.Error = false, ""
	rec.buf.WriteString(msg.Content)
	for _, b := range msg.Blocks {
		rec.blockBytes += len(b.Frame)
	}
	rec.wg.Go(func() {
		for {
			select {
			case <-rec.quit:
				return
			case <-rec.first:
				rec.save(false)
			case <-rec.ticker.C:
				rec.save(false)
			}
		}
	})
	return rec
}

// text adds a content delta.
func (r *recorder) text(t string) {
	r.mu.Lock()
	first := r.buf.Len() == 0
	if r.buf.Len() < store.MaxMessageText {
		r.buf.WriteString(t)
	}
	r.mu.Unlock()
	if first { // a reload right after the reply began finds it
		select {
		case r.first <- struct{}{}:
		default:
		}
	}
}

// frame records a data frame: the usage, or a tool frame in stream order.
func (r *recorder) frame(v any) {
	switch f := v.(type) {
	case usageFrame:
		u := domain.MessageUsage{InputTokens: f.Usage.InputTokens, OutputTokens: f.Usage.OutputTokens, CostUSD: f.Usage.CostUSD, Demo: f.Usage.Demo}
		r.mu.Lock()
		r.msg.Usage = &u
		r.mu.Unlock()
		return
	case messageIDsFrame:
		return
	}
	r.block(v)
}

// block records a tool frame (tool_call, tool_result, notice, the
// tool_approval of a pause) after the text so far.
func (r *recorder) block(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	if len(b) > maxStoredBlock {
		b = keptAsNote(v, len(b))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.blockBytes+len(b) > maxStoredBlocks {
		return
	}
	r.blockBytes += len(b)
	r.msg.Blocks = append(r.msg.Blocks, domain.MessageBlock{At: r.buf.Len(), Frame: b})
}

// keptAsNote is what history keeps of a tool result too large for it.
func keptAsNote(v any, size int) []byte {
	if f, ok := v.(toolResultFrame); ok {
		f.ToolResult.Content = textBlock("(This result, " + humanBytes(size) + ", was shown when it arrived; history keeps only its size.)")
		f.ToolResult.Truncated = true
		b, _ := json.Marshal(f)
		return b
	}
	b, _ := json.Marshal(noticeFrame{Notice: "A tool frame of " + humanBytes(size) + " was not kept in history."})
	return b
}

func humanBytes(n int) string { return strconv.Itoa(n/1024) + " KB" }

// fail records the error the reply ended with.
func (r *recorder) fail(detail string) {
	r.mu.Lock()
	r.msg.Error = detail
	r.mu.Unlock()
}

// save writes the reply (final: it is over). A refused save means the user
// stopped it, or deleted its conversation: the generation ends.
func (r *recorder) save(final bool) error {
	// A save waits for the messages without starting their writes: the
	// stream starts them after its first frames, finish at the latest.
	if err := r.kept.written(); err != nil {
		return store.ErrStopRequested // never stored: nothing to save
	}
	r.saving.Lock()
	defer r.saving.Unlock()
	// Written at every tick, changed or not: the item's time tells a
	// re-attaching reader that the reply is still being generated (a tool
	// may run for a minute), and the write is what learns of a Stop.
	r.mu.Lock()
	m := r.msg
	m.Content = r.buf.String()
	m.Blocks = append([]domain.MessageBlock(nil), r.msg.Blocks...)
	m.Complete, m.UpdatedAt = final, r.now().UTC()
	stopped := r.stopped
	r.mu.Unlock()
	var err error
	if stopped {
		err = r.st.FinishStoppedReply(context.Background(), r.uid, m)
	} else {
		err = r.st.SaveReply(context.Background(), r.uid, m)
	}
	switch {
	case errors.Is(err, store.ErrStopRequested) && !stopped:
		r.mu.Lock()
		r.stopped = true
		r.mu.Unlock()
		r.stop()
		if final { // the generation ended as Stop came: keep what it had
			return r.st.FinishStoppedReply(context.Background(), r.uid, m)
		}
		return nil
	case err != nil && !errors.Is(err, store.ErrStopRequested):
		slog.Warn("chat reply not saved", "message", m.ID, "final", final, "err", err)
	}
	return err
}

// finish stops the periodic saves and writes the reply's last state; an
// error when it could not be saved.
func (r *recorder) finish() error {
	r.ticker.Stop()
	select {
	case <-r.quit:
		return nil // finished already
	default:
		close(r.quit)
	}
	r.kept.begin() // a save under way, and the last one, wait for the writes
	r.wg.Wait()
	err := r.save(true)
	if errors.Is(err, store.ErrStopRequested) {
		return nil // deleted: nothing to keep
	}
	return err
}

// wasStopped reports whether the user stopped the reply.
func (r *recorder) wasStopped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopped
}

// messageIDsFrame opens a stream kept with its conversation.
type messageIDsFrame struct {
	MessageIDs struct {
		User      string `json:"user,omitempty"`
		Assistant string `json:"assistant"`
	} `json:"message_ids"`
}
