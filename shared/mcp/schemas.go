package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server's question comes with a form (elicitation's requestedSchema)
// whose fields it lists in the order it wants them shown. The SDK decodes
// that schema into a map (ElicitParams.RequestedSchema is an any), which
// loses the order. The schemas are therefore also read as the server
// wrote them, from the bytes of its messages (countingBody, jsonBody),
// and handed to the caller in place of the decoded ones (rawSchemas.put
// in the question's params), matched by their content.

// rawSchemas are the forms of a session's questions as the server wrote
// them, by their content (canonical JSON), until asked for.
type rawSchemas struct {
	mu sync.Mutex
	m  map[string]json.RawMessage
}

// maxRawSchemas bounds the forms kept for questions not yet handed over
// (a server that sends forms nobody asks for cannot grow it).
const maxRawSchemas = 32

// maxRawMessage bounds a message read for its forms: larger ones are
// left to the SDK alone (their forms then come in the SDK's order).
const maxRawMessage = 1 << 20

// canonical is v's JSON with object keys sorted (encoding/json's map
// order), the same for a form as written and as the SDK decoded it.
func canonical(v any) (string, bool) {
	if raw, ok := v.(json.RawMessage); ok {
		var decoded any
		if json.Unmarshal(raw, &decoded) != nil {
			return "", false
		}
		v = decoded
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", false
	}
	return string(b), true
}

func (r *rawSchemas) add(raw json.RawMessage) {
	if len(raw) == 0 || raw[0] != '{' {
		return
	}
	key, ok := canonical(raw)
	if !ok {
		return
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil || len(r.m) >= maxRawSchemas {
		r.m = map[string]json.RawMessage{}
	}
	r.m[key] = compact.Bytes()
}

// put replaces p's decoded form by the one the server wrote, when it was
// read: p is a copy then (the SDK keeps its own).
func (r *rawSchemas) put(p *mcp.ElicitParams) *mcp.ElicitParams {
	if p == nil || p.RequestedSchema == nil {
		return p
	}
	if _, raw := p.RequestedSchema.(json.RawMessage); raw {
		return p
	}
	key, ok := canonical(p.RequestedSchema)
	if !ok {
		return p
	}
	r.mu.Lock()
	raw, found := r.m[key]
	r.mu.Unlock()
	if !found {
		return p
	}
	out := *p
	out.RequestedSchema = raw
	return &out
}

// putAll does put for each question of an input-required result.
func (r *rawSchemas) putAll(res *mcp.CallToolResult) {
	if res == nil {
		return
	}
	for id, q := range res.InputRequests {
		if ep, ok := q.(*mcp.ElicitParams); ok {
			res.InputRequests[id] = r.put(ep)
		}
	}
}

// elicitMark is how a message carrying a form starts to be noticed.
var elicitMark = []byte(`"elicitation/create"`)

// read takes the forms out of one JSON-RPC message (a question, or an
// input-required result's questions).
func (r *rawSchemas) read(msg []byte) {
	if !bytes.Contains(msg, elicitMark) {
		return
	}
	type elicit struct {
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	var m struct {
		Method string  `json:"method"`
		Params *elicit `json:"params"`
		Result *struct {
			InputRequests map[string]struct {
				Method string `json:"method"`
				Params elicit `json:"params"`
			} `json:"inputRequests"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return
	}
	if m.Method == "elicitation/create" && m.Params != nil {
		r.add(m.Params.RequestedSchema)
	}
	if m.Result != nil {
		for _, q := range m.Result.InputRequests {
			if q.Method == "elicitation/create" {
				r.add(q.Params.RequestedSchema)
			}
		}
	}
}

// sseEvents gathers the data of an event stream's events as it is read
// and hands each whole event's data to r.
type sseEvents struct {
	schemas *rawSchemas
	line    []byte // the line being read
	data    []byte // the event's data lines so far
	over    bool   // the event is larger than maxRawMessage: skipped
}

func (e *sseEvents) write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			e.grow(p)
			return
		}
		e.grow(p[:i])
		e.endLine()
		p = p[i+1:]
	}
}

func (e *sseEvents) grow(p []byte) {
	if len(e.line)+len(p) > maxRawMessage {
		e.over, e.line = true, e.line[:0]
		return
	}
	e.line = append(e.line, p...)
}

func (e *sseEvents) endLine() {
	line := bytes.TrimSuffix(e.line, []byte("\r"))
	switch {
	case len(line) == 0:
		if !e.over && len(e.data) > 0 {
			e.schemas.read(e.data)
		}
		e.data, e.over = e.data[:0], false
	case bytes.HasPrefix(line, []byte("data:")) && !e.over:
		v := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
		if len(e.data)+len(v)+1 > maxRawMessage {
			e.over = true
			break
		}
		if len(e.data) > 0 {
			e.data = append(e.data, '\n')
		}
		e.data = append(e.data, v...)
	}
	e.line = e.line[:0]
}

// jsonBody reads the forms of a plain JSON answer (a tool call's result
// asking for input comes that way) once it has been read whole.
type jsonBody struct {
	io.ReadCloser
	schemas *rawSchemas
	buf     []byte
	over    bool
}

func (b *jsonBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && !b.over {
		if len(b.buf)+n > maxRawMessage {
			b.over, b.buf = true, nil
		} else {
			b.buf = append(b.buf, p[:n]...)
		}
	}
	if err == io.EOF && !b.over {
		b.schemas.read(b.buf)
		b.buf, b.over = nil, true
	}
	return n, err
}
