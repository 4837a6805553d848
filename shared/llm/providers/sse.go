package providers

import (
	"bufio"
	"bytes"
	"io"
)

// maxSSELine bounds one line of a stream: an event carries a whole delta
// (a tool call's arguments can come in one piece), so it is generous; the
// buffer only grows that far when a line needs it.
const maxSSELine = 16 << 20

// sseReader reads the events of a server-sent event stream. Only the event
// and data fields matter to the providers; comments (keep-alives), id and
// retry are skipped.
type sseReader struct {
	sc *bufio.Scanner
	// event and data are the current event's; data is reused, valid until
	// the next call of next.
	event string
	data  []byte
}

func newSSEReader(r io.Reader) *sseReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4<<10), maxSSELine)
	return &sseReader{sc: sc}
}

var doneData = []byte("[DONE]")

// next reads the next event that has data. It is false at the end of the
// stream, at OpenAI's "data: [DONE]", and on a read error (err). An event
// cut off before its blank line is dropped, as the SSE standard says.
func (r *sseReader) next() bool {
	r.event, r.data = "", r.data[:0]
	hasData := false
	for r.sc.Scan() {
		line := r.sc.Bytes()
		if len(line) == 0 { // the end of an event
			if hasData {
				return !bytes.Equal(r.data, doneData)
			}
			r.event = ""
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value, _ = bytes.CutPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			r.event = string(value)
		case "data":
			if hasData {
				r.data = append(r.data, '\n')
			}
			r.data, hasData = append(r.data, value...), true
		}
	}
	return false
}

// err is the error that ended the stream; nil at its end or at [DONE].
func (r *sseReader) err() error { return r.sc.Err() }
