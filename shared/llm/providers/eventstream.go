package providers

import (
	"bufio"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

// eventReader reads the messages of an AWS event stream
// (application/vnd.amazon.eventstream, Bedrock's ConverseStream answer)
// with the SDK's own decoder, which checks each message's lengths and
// checksums; the bedrockruntime client around it is what costs init time.
type eventReader struct {
	in      countingReader
	dec     *eventstream.Decoder
	payload []byte // reused: a message's payload is read before the next
}

func newEventReader(body io.Reader) *eventReader {
	// Buffered: the decoder reads each header field on its own.
	return &eventReader{in: countingReader{r: bufio.NewReader(body)}, dec: eventstream.NewDecoder()}
}

// next is the next message: io.EOF when the stream ended between two
// messages, io.ErrUnexpectedEOF when it ended inside one. The decoder alone
// takes a stream cut just before a message's closing checksum for a clean
// end, and the SDK's client so ended a reply cut there as if it were whole.
func (e *eventReader) next() (eventstream.Message, error) {
	start := e.in.n
	m, err := e.dec.Decode(&e.in, e.payload[:0])
	if err == io.EOF && e.in.n != start {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return eventstream.Message{}, err
	}
	if m.Payload != nil {
		e.payload = m.Payload
	}
	return m, nil
}

// header is the string value of the message's header name ("" if none).
func header(m eventstream.Message, name string) string {
	if v := m.Headers.Get(name); v != nil {
		return v.String()
	}
	return ""
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
