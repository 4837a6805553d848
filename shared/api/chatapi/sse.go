package chatapi

import (
	"encoding/json"
	"net/http"
)

// sse writes the chat stream framing of DESIGN §4, flushing every frame.
// The status and headers go with the first frame, so a refusal that comes
// before it is still a plain HTTP answer.
type sse struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
	buf     []byte // the last content frame, reused
}

func (s *sse) start() {
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("X-Accel-Buffering", "no")
	s.w.WriteHeader(http.StatusOK)
	s.rc = http.NewResponseController(s.w)
}

func (s *sse) data(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.raw("data: " + string(b) + "\n\n")
}

// content is the frame of one delta, {"content":"…"}, built without a map
// or a second copy: it runs once per chunk (DESIGN §10 per-chunk budget).
func (s *sse) content(text string) error {
	quoted, err := json.Marshal(text)
	if err != nil {
		return err
	}
	s.buf = append(append(append(s.buf[:0], `data: {"content":`...), quoted...), "}\n\n"...)
	return s.write(s.buf)
}

func (s *sse) error(detail string) error {
	b, _ := json.Marshal(map[string]string{"detail": detail})
	return s.raw("event: error\ndata: " + string(b) + "\n\n")
}

// event is a named event: `event: name` and its data.
func (s *sse) event(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.raw("event: " + name + "\ndata: " + string(b) + "\n\n")
}

// comment is a line clients ignore; it keeps a quiet stream alive.
func (s *sse) comment(text string) error { return s.raw(": " + text + "\n\n") }

func (s *sse) done() error { return s.raw("data: [DONE]\n\n") }

func (s *sse) raw(frame string) error { return s.write([]byte(frame)) }

func (s *sse) write(frame []byte) error {
	if !s.started {
		s.start()
	}
	if _, err := s.w.Write(frame); err != nil {
		return err
	}
	return s.rc.Flush()
}
