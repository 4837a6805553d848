// Package chathttp is the chat engine's HTTP edge, shared by the route
// groups that call it (chatapi's message, conversationsapi's re-attach):
// the SSE writer that is their chat.Sink, and the HTTP answer of each of
// the engine's refusals.
package chathttp

import (
	"encoding/json"
	"net/http"

	"aiwork/shared/chat"
)

// SSE writes the engine's frames as text/event-stream (DESIGN §4),
// flushing every frame. The status and headers go with the first frame, so
// a refusal that comes before it is still a plain HTTP answer.
type SSE struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
	buf     []byte // the last content frame, reused
}

var _ chat.Sink = (*SSE)(nil)

// NewSSE writes frames to w.
func NewSSE(w http.ResponseWriter) *SSE { return &SSE{w: w} }

func (s *SSE) start() {
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("X-Accel-Buffering", "no")
	s.w.WriteHeader(http.StatusOK)
	s.rc = http.NewResponseController(s.w)
}

// Content is the frame of one delta, {"content":"…"}, built without a map
// or a second copy: it runs once per chunk (DESIGN §10 per-chunk budget).
func (s *SSE) Content(text string) error {
	quoted, err := json.Marshal(text)
	if err != nil {
		return err
	}
	s.buf = append(append(append(s.buf[:0], `data: {"content":`...), quoted...), "}\n\n"...)
	return s.write(s.buf)
}

// Data is a data frame; a json.RawMessage (a frame kept in history) is
// sent as it is.
func (s *SSE) Data(v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	return s.raw("data: " + string(b) + "\n\n")
}

// Event is a named event: `event: name` and its data.
func (s *SSE) Event(name string, v any) error {
	b, err := marshal(v)
	if err != nil {
		return err
	}
	return s.raw("event: " + name + "\ndata: " + string(b) + "\n\n")
}

// Error ends the stream with an error frame.
func (s *SSE) Error(detail string) error {
	b, _ := json.Marshal(map[string]string{"detail": detail})
	return s.raw("event: error\ndata: " + string(b) + "\n\n")
}

// Done ends the stream.
func (s *SSE) Done() error { return s.raw("data: [DONE]\n\n") }

// Comment is a line clients ignore; it keeps a quiet stream alive.
func (s *SSE) Comment(text string) error { return s.raw(": " + text + "\n\n") }

func marshal(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(v)
}

func (s *SSE) raw(frame string) error { return s.write([]byte(frame)) }

func (s *SSE) write(frame []byte) error {
	if !s.started {
		s.start()
	}
	_, err := s.w.Write(frame)
	if err == nil {
		err = s.rc.Flush()
	}
	return err
}
