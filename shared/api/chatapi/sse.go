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
	// rec keeps the reply with its conversation (nil: not kept). Then the
	// reply outlives its client: a write to a client that left is
	// dropped, and the generation goes on (gone says it left).
	rec  *recorder
	gone bool
	// gate, when set, runs before the first frame: it answers bytes to
	// send first, or an error that stops the stream before anything is
	// written (gateErr keeps it).
	gate    func() ([]byte, error)
	gateErr error
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
	if s.rec != nil {
		s.rec.frame(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.raw("data: " + string(b) + "\n\n")
}

// content is the frame of one delta, {"content":"…"}, built without a map
// or a second copy: it runs once per chunk (DESIGN §10 per-chunk budget).
func (s *sse) content(text string) error {
	if s.rec != nil {
		s.rec.text(text)
	}
	quoted, err := json.Marshal(text)
	if err != nil {
		return err
	}
	s.buf = append(append(append(s.buf[:0], `data: {"content":`...), quoted...), "}\n\n"...)
	return s.write(s.buf)
}

// error ends the stream with an error frame (a reply kept with its
// conversation is saved with the error first).
func (s *sse) error(detail string) error {
	if s.rec != nil {
		s.rec.fail(detail)
		_ = s.rec.finish()
	}
	b, _ := json.Marshal(map[string]string{"detail": detail})
	return s.raw("event: error\ndata: " + string(b) + "\n\n")
}

// event is a named event: `event: name` and its data. The tool_approval
// that pauses a reply kept with its conversation ends its recording.
func (s *sse) event(name string, v any) error {
	if s.rec != nil {
		s.rec.block(map[string]any{name: v})
		_ = s.rec.finish()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.raw("event: " + name + "\ndata: " + string(b) + "\n\n")
}

// comment is a line clients ignore; it keeps a quiet stream alive.
func (s *sse) comment(text string) error { return s.raw(": " + text + "\n\n") }

// replyNotSaved is the error frame of a reply the table did not keep.
const replyNotSaved = "The reply was not saved with the conversation: the service is busy. Copy it before you leave this page."

// done ends the stream; a reply kept with its conversation is saved first,
// and one that could not be saved ends with an error frame saying so.
func (s *sse) done() error {
	if s.rec != nil {
		if err := s.rec.finish(); err != nil {
			b, _ := json.Marshal(map[string]string{"detail": replyNotSaved})
			return s.raw("event: error\ndata: " + string(b) + "\n\n")
		}
	}
	return s.raw("data: [DONE]\n\n")
}

func (s *sse) raw(frame string) error { return s.write([]byte(frame)) }

func (s *sse) write(frame []byte) error {
	if s.gone {
		return nil
	}
	if s.gateErr != nil {
		return s.gateErr
	}
	if !s.started && s.gate != nil {
		first, err := s.gate()
		if err != nil {
			s.gateErr = err
			return err
		}
		s.gate = nil
		frame = append(first, frame...)
	}
	if !s.started {
		s.start()
	}
	_, err := s.w.Write(frame)
	if err == nil {
		err = s.rc.Flush()
	}
	if err != nil && s.rec != nil {
		s.gone = true // the client left; the reply goes on being saved
		return nil
	}
	return err
}
