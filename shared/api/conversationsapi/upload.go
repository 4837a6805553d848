package conversationsapi

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"time"

	"aiwork/shared/chat"
	"aiwork/shared/clip"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
)

// A conversation can be made with its past messages (POST
// ConversationsPath with messages): the chat uploads so the tabs it stored
// in the browser before conversations were kept with the account. With an
// upload_key the upload is made once: the same key again answers the
// conversation it made (a retry after a lost answer makes no copy).
const (
	MaxUploadedMessages = 500
	// uploadBody bounds the body of a POST that uploads messages.
	uploadBody   = 4 << 20
	maxErrorText = 500
)

type uploadedMessage struct {
	Role      string               `json:"role"`
	Content   *string              `json:"content"`
	CreatedAt string               `json:"created_at"`
	Error     string               `json:"error"`
	Usage     *domain.MessageUsage `json:"usage"`
}

// uploadedMessages checks the messages of an upload and makes them the
// messages of conversation cid, in their order, with ids before now's.
func uploadedMessages(in []uploadedMessage, cid string, now time.Time) ([]domain.ConversationMessage, error) {
	if len(in) > MaxUploadedMessages {
		return nil, httpx.Invalid(fmt.Sprintf("messages: at most %d can be uploaded (send the newest)", MaxUploadedMessages))
	}
	out := make([]domain.ConversationMessage, 0, len(in))
	first := now.Add(-time.Duration(len(in)) * time.Microsecond)
	for i, u := range in {
		if u.Role != domain.RoleUser && u.Role != domain.RoleAssistant {
			return nil, httpx.Invalid(fmt.Sprintf(`messages[%d].role must be "user" or "assistant"`, i))
		}
		if u.Content == nil {
			return nil, httpx.Invalid(fmt.Sprintf("messages[%d].content is required", i))
		}
		at, err := time.Parse(time.RFC3339Nano, u.CreatedAt)
		if err != nil || at.After(now) {
			at = now
		}
		m := domain.ConversationMessage{ID: chat.NewMessageID(first.Add(time.Duration(i) * time.Microsecond)), ConversationID: cid, Role: u.Role,
			Content: *u.Content, CreatedAt: at.UTC(), UpdatedAt: now, Complete: true}
		if u.Role == domain.RoleAssistant {
			m.Error = clip.Runes(strings.TrimSpace(u.Error), maxErrorText)
			if u.Usage != nil {
				if err := checkUsage(*u.Usage, fmt.Sprintf("messages[%d].usage", i)); err != nil {
					return nil, err
				}
				m.Usage = u.Usage
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// What one reply can have used: far above any model's context and price,
// far inside what the table can hold.
const (
	maxUsageTokens  = 1_000_000_000
	maxUsageCostUSD = 1_000_000
	// minUsageCostUSD: no token of any model costs less than a trillionth
	// of a dollar (and 1e-200 is a number the table cannot hold).
	minUsageCostUSD = 1e-12
)

// checkUsage holds an uploaded usage (named field) to what a reply can
// have used, naming the field that is not.
func checkUsage(u domain.MessageUsage, field string) error {
	for _, c := range []struct {
		name string
		n    int
	}{{"input_tokens", u.InputTokens}, {"output_tokens", u.OutputTokens}} {
		if c.n < 0 || c.n > maxUsageTokens {
			return httpx.Invalid(fmt.Sprintf("%s.%s must be a whole number from 0 to %d", field, c.name, maxUsageTokens))
		}
	}
	if math.IsNaN(u.CostUSD) || u.CostUSD < 0 || u.CostUSD > maxUsageCostUSD || (u.CostUSD != 0 && u.CostUSD < minUsageCostUSD) {
		return httpx.Invalid(fmt.Sprintf("%s.cost_usd must be 0 or from %g to %d (US dollars)", field, minUsageCostUSD, maxUsageCostUSD))
	}
	return nil
}

// uploadConversationID is the id of the conversation an upload_key makes:
// the same for the same user and key, of the length of a random one.
func uploadConversationID(uid, key string) string {
	sum := sha256.Sum256([]byte(uid + "\x00" + key))
	return "c" + hex.EncodeToString(sum[:12])
}
