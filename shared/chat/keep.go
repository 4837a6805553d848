package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"aiwork/shared/clip"
	"aiwork/shared/domain"
	"aiwork/shared/random"
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

// Bounds of what a kept message carries.
const (
	maxIDLen     = 100
	snippetRunes = 200
)

// replyNotSaved is the error frame of a reply the table did not keep.
const replyNotSaved = "The reply was not saved with the conversation: the service is busy. Copy it before you leave this page."

// kept is a reply kept with its conversation: the user message stored
// beside it ("" when a paused reply resumes) and the reply's message. A new
// message's storing runs beside the model call; stored closes once it is
// over (err saying why it failed). The stream's first frame waits for it:
// a conversation that is not the caller's is still a refusal (Run's error,
// nothing written), and every id the client is given names a stored
// message.
type kept struct {
	userID string
	reply  domain.ConversationMessage
	// agentID is the agent the reply runs as (""): the claim of its
	// messages proves the conversation is bound to it (keep.go, agents.go).
	agentID string
	// begin starts the writes (once); a known conversation's start after
	// the stream's first frames (reply.stream), so they do not compete with
	// them.
	begin  func()
	stored chan struct{}
	err    error
	// indexing is the search snippet's write, which goes on beside the
	// stream once the messages are stored; the stream waits for it before
	// it returns, so no write outlives the request (a frozen Lambda would
	// lose it).
	indexing sync.WaitGroup
	// known: this process recently stored a message of the caller's in
	// this conversation, so the first frame does not wait for stored (a
	// reader of the ids just handed out may find a message still being
	// written: re-attach and Stop wait for it briefly).
	known bool
}

// wait starts the writes if they have not started, and answers once the
// messages are stored: nil, or why they are not.
func (k *kept) wait() error {
	k.begin()
	return k.written()
}

// written is wait without starting the writes: it answers once whoever
// started them sees them over.
func (k *kept) written() error {
	<-k.stored
	return k.err
}

func (k *kept) conversationID() string {
	if k == nil {
		return ""
	}
	return k.reply.ConversationID
}

func (k *kept) messageID() string {
	if k == nil {
		return ""
	}
	return k.reply.ID
}

// keepWith stores a message and its (empty) reply in the caller's
// conversation, or finds the reply a resumed approval goes on in; nil when
// the message is not kept with a conversation.
func (e *Engine) keepWith(ctx context.Context, req Request, resumed *pausedReply, agentID string, now time.Time) (*kept, error) {
	uid := req.UserID
	if resumed != nil {
		if resumed.ConversationID == "" {
			return nil, nil
		}
		m, err := e.st.GetMessage(ctx, uid, resumed.ConversationID, resumed.MessageID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, refuse(NotFound, "The conversation of this reply was deleted.")
		}
		if err != nil {
			return nil, err
		}
		k := &kept{reply: m, begin: func() {}, stored: make(chan struct{})}
		close(k.stored)
		return k, nil
	}
	cid := strings.TrimSpace(req.ConversationID)
	if cid == "" {
		return nil, nil
	}
	if len(cid) > maxIDLen {
		return nil, refuse(NotFound, "Conversation not found.")
	}
	message := req.Messages[len(req.Messages)-1].Content
	user := domain.ConversationMessage{ID: NewMessageID(now), ConversationID: cid, Role: domain.RoleUser, Content: message,
		CreatedAt: now, UpdatedAt: now, Complete: true, Attachments: req.attached}
	reply := domain.ConversationMessage{ID: NewMessageID(now.Add(time.Microsecond)), ConversationID: cid, Role: domain.RoleAssistant,
		CreatedAt: now, UpdatedAt: now}
	k := &kept{userID: user.ID, reply: reply, agentID: agentID, stored: make(chan struct{}), known: e.known.has(uid, cid, now)}
	ctx = context.WithoutCancel(ctx)
	k.begin = sync.OnceFunc(func() { go e.storeKept(ctx, k, uid, cid, user, message, now) })
	if !k.known {
		k.begin() // the first frame waits for them
	}
	return k, nil
}

// storeKept writes a kept message and its reply, and closes k.stored.
func (e *Engine) storeKept(ctx context.Context, k *kept, uid, cid string, user domain.ConversationMessage, message string, now time.Time) {
	reply := k.reply
	defer close(k.stored)
	// The claim (which proves the conversation is the caller's) and
	// the two messages are written at once: one store call's time. The
	// messages go in the caller's own partition; if the claim fails
	// they are removed again.
	var claimErr, putErr error
	var wg sync.WaitGroup
	wg.Go(func() { claimErr = e.st.ClaimMessages(ctx, uid, cid, 2, now, k.agentID) })
	wg.Go(func() { putErr = e.st.PutMessages(ctx, uid, reply) })
	userErr := e.st.PutMessages(ctx, uid, user)
	wg.Wait()
	switch {
	case errors.Is(claimErr, store.ErrNotFound):
		k.err = refuse(NotFound, "Conversation not found.")
	case errors.Is(claimErr, store.ErrOtherAgent):
		// Its agent was not known here (a message that did not wait for
		// the conversation's read): it is read now, so that the next
		// message runs as it.
		k.err = refuse(Invalid, msgAgentOther)
		if k.agentID == "" {
			k.err = refuse(Invalid, msgAgentAgain)
		}
		e.agents.forget(uid, cid)
		if _, err := e.agents.binding(ctx, uid, cid); err != nil {
			slog.WarnContext(ctx, "conversation's agent not read", "err", err)
		}
	default:
		k.err = cmp.Or(claimErr, putErr, userErr)
	}
	if k.err != nil {
		e.known.forget(uid, cid)
		if err := e.st.DeleteMessages(ctx, uid, cid, user.ID, reply.ID); err != nil {
			slog.WarnContext(ctx, "unkept messages not removed", "err", err)
		}
		return
	}
	e.known.claimed(uid, cid, now)
	e.agents.bound(uid, cid, k.agentID)
	k.indexing.Go(func() {
		if err := e.st.AddSearchSnippet(ctx, uid, cid, clip.Runes(message, snippetRunes)); err != nil {
			slog.WarnContext(ctx, "conversation search words not saved", "err", err)
		}
	})
}

// record keeps r with k as it streams (cancel stops it): the recorder
// tees its frames into the stored reply, and the opening frame (the
// message ids) waits for the messages to be stored, so that a conversation
// that is not the caller's is still a plain refusal and the model call it
// started is cancelled. In a known conversation the stream does not wait
// for the writes: they start after its first frames (begin, nil
// otherwise), and should they fail (the conversation deleted meanwhile),
// the reply stops.
func (k *kept) record(r *reply, cancel context.CancelCauseFunc) (rec *recorder, begin func()) {
	out := r.out
	rec = newRecorder(out.sink, r.st, r.uid, k, r.opts.Now, func() { cancel(errStopped) })
	out.sink = rec
	var ids messageIDsFrame
	ids.MessageIDs.User, ids.MessageIDs.Assistant = k.userID, k.reply.ID
	out.open = func() error {
		if !k.known {
			if err := k.wait(); err != nil {
				cancel(errNotKept)
				return err
			}
		}
		return rec.Data(ids)
	}
	if !k.known {
		return rec, nil
	}
	go func() {
		select {
		case <-k.stored:
			if k.written() != nil {
				cancel(errNotKept)
			}
		case <-r.ctx.Done():
		}
	}()
	return rec, k.begin
}

// notKeptDetail is what an error frame says of a reply whose messages
// could not be stored with its conversation.
func notKeptDetail(err error) string {
	if e, ok := errors.AsType[*Error](err); ok && e.Kind == NotFound {
		return "The conversation was deleted, so this reply was not kept."
	}
	return replyNotSaved
}

// recorder keeps a reply with its conversation as the stream writes it:
// the text, the tool frames at their place in it, the usage and how it
// ended. It saves every SaveEvery from its own goroutine and at the end; a
// save refused because the user pressed Stop (or deleted the conversation)
// ends the generation through stop.
type recorder struct {
	// next is the client's sink. The reply outlives its client: a write
	// to a client that left is dropped (gone), and the generation goes on.
	next Sink
	gone bool

	uid  string
	out  *store.ReplyWriter // appends each save's new text and frames
	stop func()             // ends the generation (Stop pressed, conversation deleted)

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
func newRecorder(next Sink, st *store.Store, uid string, k *kept, now func() time.Time, stop func()) *recorder {
	msg := k.reply
	rec := &recorder{next: next, uid: uid, out: st.ReplyWriter(uid, msg), stop: stop, msg: msg, now: now, quit: make(chan struct{}),
		first: make(chan struct{}, 1), ticker: time.NewTicker(SaveEvery), kept: k}
	// A resumed reply was saved complete when it paused: it is saved as
	// going on again at once, so a reload does not show the answered
	// approval (or question) as the reply's end.
	resumed := msg.Complete
	rec.msg.Complete, rec.msg.Error = false, ""
	if resumed {
		rec.first <- struct{}{}
	}
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
	case messageIDsFrame, toolProgressFrame:
		// Progress is live only: history keeps the call's result.
		return
	case toolSigninFrame:
		// A sign-in pause is kept without its token (its id resumes it).
		r.block(map[string]any{"tool_signin": withoutToken(f.ToolSignin)})
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

// withoutToken is v as JSON without its "token" field.
func withoutToken(v any) any {
	b, err := json.Marshal(v)
	var fields map[string]json.RawMessage
	if err != nil || json.Unmarshal(b, &fields) != nil {
		return v
	}
	delete(fields, "token")
	return fields
}

// keptAsNote is what history keeps of a tool result too large for it: its
// size in place of its content, and its structured content (a view's data)
// while that still fits.
func keptAsNote(v any, size int) []byte {
	if f, ok := v.(toolResultFrame); ok {
		f.ToolResult.Content = textBlock("(This result, " + humanBytes(size) + ", was shown when it arrived; history keeps only its size.)")
		f.ToolResult.Truncated = true
		b, _ := json.Marshal(f)
		if len(b) > maxStoredBlock {
			f.ToolResult.StructuredContent = nil
			b, _ = json.Marshal(f)
		}
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
	// Saved at every tick, changed or not: the save's time tells a
	// re-attaching reader that the reply is still being generated (a tool
	// may run for a minute), and the save is what learns of a Stop. Each
	// save writes only what came since the last (store.ReplyWriter).
	r.mu.Lock()
	m := r.msg
	m.Content = r.buf.String()
	m.Blocks = append([]domain.MessageBlock(nil), r.msg.Blocks...)
	m.Complete, m.UpdatedAt = final, r.now().UTC()
	stopped := r.stopped
	r.mu.Unlock()
	var err error
	if stopped {
		err = r.out.FinishStopped(context.Background(), m)
	} else {
		err = r.out.Save(context.Background(), m)
	}
	switch {
	case errors.Is(err, store.ErrStopRequested) && !stopped:
		r.mu.Lock()
		r.stopped = true
		r.mu.Unlock()
		r.stop()
		if final { // the generation ended as Stop came: keep what it had
			return r.out.FinishStopped(context.Background(), m)
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

// The recorder is the Sink a kept reply writes to: each frame is recorded,
// then passed to the client's sink unless the client left.

func (r *recorder) Content(text string) error {
	r.text(text)
	if r.gone {
		return nil
	}
	return r.sent(r.next.Content(text))
}

func (r *recorder) Data(v any) error {
	r.frame(v)
	if r.gone {
		return nil
	}
	return r.sent(r.next.Data(v))
}

// Event records the tool_approval that pauses the reply, which ends its
// recording: without its token (its id answers it from history).
//
// A question a call holds open (elicitation.go) does not end the reply:
// it is recorded, without its token, and saved before the user sees it
// (a reload, or another device, finds the card the stream shows), and
// the recording goes on.
func (r *recorder) Event(name string, v any) error {
	r.block(map[string]any{name: withoutToken(v)})
	if q, ok := v.(elicitationView); ok && q.held {
		_ = r.save(false)
	} else {
		_ = r.finish()
	}
	if r.gone {
		return nil
	}
	return r.sent(r.next.Event(name, v))
}

// Error saves the reply with the error it ended with first.
func (r *recorder) Error(detail string) error {
	r.fail(detail)
	_ = r.finish()
	if r.gone {
		return nil
	}
	return r.sent(r.next.Error(detail))
}

// Done saves the reply first; one that could not be saved ends with an
// error frame saying so.
func (r *recorder) Done() error {
	err := r.finish()
	if r.gone {
		return nil
	}
	if err != nil {
		return r.sent(r.next.Error(replyNotSaved))
	}
	return r.sent(r.next.Done())
}

func (r *recorder) Comment(text string) error {
	if r.gone {
		return nil
	}
	return r.sent(r.next.Comment(text))
}

// sent notes a client a write failed to as gone; the reply goes on being
// saved.
func (r *recorder) sent(err error) error {
	if err != nil {
		r.gone = true
	}
	return nil
}

// NewMessageID is sortable by time and of fixed length: m, 16 hex digits of
// the time in µs, 8 random hex digits (messageIDTime reads the time back).
func NewMessageID(at time.Time) string {
	return fmt.Sprintf("m%016x%s", at.UnixMicro(), random.Hex(4))
}

// messageIDTime reads the time NewMessageID put in an id.
func messageIDTime(mid string) (time.Time, bool) {
	if len(mid) != 25 || mid[0] != 'm' {
		return time.Time{}, false
	}
	us, err := strconv.ParseInt(mid[1:17], 16, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.UnixMicro(us), true
}

// knownTTL is how long a conversation this process saw claimed by a user
// lets that user's next message in it open its stream before its own claim
// and messages are written.
const knownTTL = 5 * time.Minute

// maxKnown bounds the remembered conversations (all are forgotten past it).
const maxKnown = 10_000

// knownConversations remembers which user's conversations this process
// recently stored a message in: a next message there is sure to be the
// user's, so its first frame need not wait for its writes (its claim still
// runs, and a failed one stops the reply and removes what was written).
type knownConversations struct {
	mu sync.Mutex
	at map[string]time.Time
}

func newKnownConversations() *knownConversations {
	return &knownConversations{at: map[string]time.Time{}}
}

func knownKey(uid, cid string) string { return uid + "\x00" + cid }

// has reports whether uid's conversation cid was claimed within knownTTL.
func (k *knownConversations) has(uid, cid string, now time.Time) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	at, ok := k.at[knownKey(uid, cid)]
	return ok && now.Sub(at) < knownTTL && !now.Before(at)
}

// claimed records that uid's conversation cid took a message at now.
func (k *knownConversations) claimed(uid, cid string, now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.at) >= maxKnown {
		clear(k.at)
	}
	k.at[knownKey(uid, cid)] = now
}

// forget drops uid's conversation cid (its claim failed: deleted).
func (k *knownConversations) forget(uid, cid string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.at, knownKey(uid, cid))
}
