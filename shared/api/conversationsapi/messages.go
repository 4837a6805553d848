package conversationsapi

import (
	"net/http"

	"aiwork/shared/auth"
	"aiwork/shared/chat/chathttp"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
)

type messageView struct {
	ID        string               `json:"id"`
	Role      string               `json:"role"`
	Content   string               `json:"content"`
	CreatedAt string               `json:"created_at"`
	Complete  bool                 `json:"complete"`
	Error     string               `json:"error,omitempty"`
	Usage     *domain.MessageUsage `json:"usage,omitempty"`
	Blocks    []blockView          `json:"blocks,omitempty"`
	Truncated bool                 `json:"truncated,omitempty"`
	Stopped   bool                 `json:"stopped,omitempty"`
	// Attachments: the resources the user attached (user messages).
	Attachments []domain.MessageAttachment `json:"attachments,omitempty"`
}

type blockView struct {
	At    int     `json:"at"`
	Frame rawJSON `json:"frame"`
}

type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

func presentMessage(m domain.ConversationMessage) messageView {
	v := messageView{ID: m.ID, Role: m.Role, Content: m.Content, CreatedAt: exactTime(m.CreatedAt),
		Complete: m.Complete || m.StopRequested, Error: m.Error, Usage: m.Usage, Truncated: m.Truncated, Stopped: m.StopRequested, Attachments: m.Attachments}
	for _, b := range m.Blocks {
		v.Blocks = append(v.Blocks, blockView{At: b.At, Frame: rawJSON(b.Frame)})
	}
	return v
}

// listMessages answers a conversation's messages in order.
func (s *Service) listMessages(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	cid := r.PathValue("id")
	if _, err := s.conversationOr404(r.Context(), uid, cid); err != nil {
		return err
	}
	msgs, err := s.st.ListMessages(r.Context(), uid, cid)
	if err != nil {
		return err
	}
	out := make([]messageView, len(msgs))
	for i, m := range msgs {
		out[i] = presentMessage(m)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"messages": out})
	return nil
}

// stopReply asks the invocation generating a reply to end it.
func (s *Service) stopReply(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	if err := s.replies.Stop(r.Context(), uid, r.PathValue("id"), r.PathValue("mid")); err != nil {
		return chathttp.Error(err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// reattach streams a reply kept with its conversation (chat.Replies): what
// it has so far at once, then the rest as its generator saves it.
func (s *Service) reattach(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	return chathttp.Error(s.replies.Reattach(r.Context(), uid, r.PathValue("id"), r.PathValue("mid"), chathttp.NewSSE(w)))
}
