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
				if !validUsage(*u.Usage) {
					return nil, httpx.Invalid(fmt.Sprintf("messages[%d].usage must hold counts and a cost of 0 or more", i))
				}
				m.Usage = u.Usage
			}
		}
		out = append(out, m)
	}
	return out, nil
}

func validUsage(u domain.MessageUsage) bool {
	return u.InputTokens >= 0 && u.OutputTokens >= 0 && u.CostUSD >= 0 && !math.IsInf(u.CostUSD, 0) && !math.IsNaN(u.CostUSD)
}

// uploadConversationID is the id of the conversation an upload_key makes:
// the same for the same user and key, of the length of a random one.
func uploadConversationID(uid, key string) string {
	sum := sha256.Sum256([]byte(uid + "\x00" + key))
	return "c" + hex.EncodeToString(sum[:12])
}
