package chatapi

import (
	"sync"
	"time"

	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/store"
)

// verdictTTL is how long what an admission found stays a reason to start
// the next message's upstream call before its own checks are over.
const verdictTTL = 30 * time.Second

// verdicts remembers, per user, what this process's last admissions found,
// so that a message sure to pass (DESIGN §10: nothing slow between the
// request and the upstream call) goes to its provider at once while its
// checks run beside it. "Sure" leaves room in every limit: the same session
// and connection passed within verdictTTL, and the per-minute count, the
// day's tokens and the streams this process runs for the user all stay
// below their limits with one message to spare. Anything else (a first
// message, a refusal, a limit close by, the demo model) waits for the
// checks, so a refusal near a limit never reaches a provider. The checks
// always run: a message they refuse after all is cut off (see stream).
type verdicts struct {
	mu     sync.Mutex
	byUser map[string]*verdict
}

type verdict struct {
	sessionID string
	conn      domain.ChatConnection
	at        time.Time // when the checks last passed
	window    store.Window
	tokens    int // today's tokens when last read, plus what ended since
	day       string
	streams   int // this process's streams for the user, running now
}

func newVerdicts() *verdicts { return &verdicts{byUser: map[string]*verdict{}} }

// sure answers the connection to stream on at once, when the remembered
// verdict allows it for this message, and counts the stream as running.
func (v *verdicts) sure(uid, sessionID, cid string, lim config.ChatLimits, now time.Time) (domain.ChatConnection, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	vd := v.byUser[uid]
	switch {
	case vd == nil || vd.sessionID == "" || vd.sessionID != sessionID || vd.conn.ID != cid:
		return domain.ChatConnection{}, false
	case now.Sub(vd.at) > verdictTTL || now.Before(vd.at):
		return domain.ChatConnection{}, false
	case lim.RequestsPerMinute > 0 && now.Before(vd.window.Ends(time.Minute)) && vd.window.Count+2 > lim.RequestsPerMinute:
		return domain.ChatConnection{}, false
	case lim.DailyTokenBudget > 0 && (vd.day != now.UTC().Format(time.DateOnly) || vd.tokens >= lim.DailyTokenBudget):
		return domain.ChatConnection{}, false
	case lim.MaxConcurrentStreams > 0 && vd.streams+2 > lim.MaxConcurrentStreams:
		return domain.ChatConnection{}, false
	}
	vd.streams++
	return vd.conn, true
}

// passed records an admission that let a message stream; counted tells
// whether sure already counted its stream.
func (v *verdicts) passed(uid, sessionID string, a *admission, counted bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	vd := v.byUser[uid]
	if vd == nil {
		v.forgetStale(a.now)
		vd = &verdict{}
		v.byUser[uid] = vd
	}
	vd.sessionID, vd.conn, vd.at, vd.window = sessionID, a.conn, a.now, a.window
	vd.tokens, vd.day = a.used, a.now.UTC().Format(time.DateOnly)
	if !counted {
		vd.streams++
	}
}

// maxRemembered bounds the map: past it, verdicts too old to use (and with
// no stream running) are dropped before a new user's is added.
const maxRemembered = 10_000

func (v *verdicts) forgetStale(now time.Time) {
	if len(v.byUser) < maxRemembered {
		return
	}
	for uid, vd := range v.byUser {
		if vd.streams == 0 && now.Sub(vd.at) > verdictTTL {
			delete(v.byUser, uid)
		}
	}
}

// refused forgets the user's verdict: the next message waits for its checks.
func (v *verdicts) refused(uid string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.byUser, uid)
}

// ended counts a stream of the user as over, with the tokens it spent.
func (v *verdicts) ended(uid string, tokens int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if vd := v.byUser[uid]; vd != nil {
		vd.streams = max(0, vd.streams-1)
		vd.tokens += tokens
	}
}
