package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The demo model's tool rule (docs/chat.md, "Tools in chat"): when the user's
// last message says "use <tool>" naming a tool it was offered (by its name
// on its server, e.g. "use echo to say hello", "use get-sum with 2 and 3"),
// it calls that tool with arguments taken from the rest of the message,
// then answers from the result. Deterministic, so `make run` and the tests
// exercise the whole tool loop with no keys.

// DemoToolCall is the call the demo model makes for req, if any: only on
// the user's turn, never right after tool results (so it cannot loop).
func DemoToolCall(req Request) (ToolCall, bool) {
	if len(req.Tools) == 0 || len(req.Messages) == 0 {
		return ToolCall{}, false
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role != "user" {
		return ToolCall{}, false
	}
	tool, rest, ok := namedTool(req.Tools, last.Content)
	if !ok {
		// "use <server>__<tool>" names a tool the model was not offered:
		// the demo model calls it anyway, as a real model may, so that a
		// chat's refusal of such a call can be tried with no keys.
		if m := demoUnoffered().FindStringSubmatch(last.Content); m != nil {
			return ToolCall{ID: fmt.Sprintf("demo_call_%d", countTurns(req.Messages)), Name: m[1], Arguments: "{}"}, true
		}
		return ToolCall{}, false
	}
	args, _ := json.Marshal(demoArguments(tool.InputSchema, rest))
	return ToolCall{ID: fmt.Sprintf("demo_call_%d", countTurns(req.Messages)), Name: tool.Name, Arguments: string(args)}, true
}

// BareToolName is a namespaced tool name's part after the server's
// ("everything__get-sum" → "get-sum").
func BareToolName(name string) string {
	if i := strings.LastIndex(name, "__"); i >= 0 {
		return name[i+2:]
	}
	return name
}

// namedTool finds the offered tool the message asks for ("use <name>",
// the longest name that fits) and the text after it.
func namedTool(tools []Tool, msg string) (Tool, string, bool) {
	lower := strings.ToLower(msg)
	best, rest, found := Tool{}, "", false
	for _, t := range tools {
		for _, name := range []string{BareToolName(t.Name), t.Name} {
			needle := "use " + strings.ToLower(name)
			i := strings.Index(lower, needle)
			for i >= 0 {
				end := i + len(needle)
				if end == len(lower) || !isNameRune(lower[end]) {
					if !found || len(name) > len(BareToolName(best.Name)) {
						best, rest, found = t, msg[end:], true
					}
					break
				}
				next := strings.Index(lower[end:], needle)
				if next < 0 {
					break
				}
				i = end + next
			}
		}
	}
	return best, rest, found
}

func isNameRune(b byte) bool {
	return b == '-' || b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

var (
	demoUnoffered = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\buse ([a-z0-9_-]+__[a-z0-9_-]+)`) })
	demoNumber    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-?\d+(\.\d+)?`) })
	demoTextStart = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(to say|saying|that says|to|with|and say|:)\s+`)
	})
)

// schemaProperty is one property of an input schema, in the schema's order.
type schemaProperty struct {
	name    string
	kind    string // the JSON Schema type
	enum    []any
	def     any
	hasDef  bool
	require bool
}

// demoArguments fills the schema's properties from the message's rest:
// numbers in order for number and integer properties, the text for the
// first string property, an enum value the text names (else the first), a
// JSON object written in the message for the first object property;
// defaults where the message gives nothing; optional properties left out.
// A written object that names only the tool's own properties, of a tool
// that takes no object, is the arguments as they stand.
func demoArguments(schema json.RawMessage, rest string) map[string]any {
	args := map[string]any{}
	object, rest := writtenObject(rest)
	props := properties(schema)
	if object != nil && namesOnly(object, props) {
		return object // the arguments themselves, written out
	}
	numbers := demoNumber().FindAllString(rest, -1)
	text := strings.Trim(strings.TrimSpace(demoTextStart().ReplaceAllString(rest, "")), `"'.`)
	textUsed := false
	for _, p := range props {
		switch p.kind {
		case "object":
			if object != nil {
				args[p.name], object = object, nil
				continue
			}
		case "number", "integer":
			if len(numbers) > 0 {
				n, _ := strconv.ParseFloat(numbers[0], 64)
				numbers = numbers[1:]
				if p.kind == "integer" {
					args[p.name] = int64(n)
				} else {
					args[p.name] = n
				}
				continue
			}
		case "string":
			if len(p.enum) > 0 {
				args[p.name] = p.enum[0]
				for _, v := range p.enum {
					if s, ok := v.(string); ok && strings.Contains(strings.ToLower(rest), strings.ToLower(s)) {
						args[p.name] = s
						break
					}
				}
				continue
			}
			if !textUsed && text != "" {
				args[p.name], textUsed = text, true
				continue
			}
		case "boolean":
			if p.require && !p.hasDef {
				args[p.name] = strings.Contains(strings.ToLower(rest), "true")
				continue
			}
		}
		if p.hasDef {
			args[p.name] = p.def
		}
	}
	return args
}

// namesOnly tells whether every key of obj is one of props and none of
// props takes an object.
func namesOnly(obj map[string]any, props []schemaProperty) bool {
	known := map[string]bool{}
	for _, p := range props {
		if p.kind == "object" {
			return false
		}
		known[p.name] = true
	}
	for k := range obj {
		if !known[k] {
			return false
		}
	}
	return len(obj) > 0
}

// writtenObject finds the first JSON object written in the message, and
// answers it (nil for none) with the message without it, so its numbers
// and text fill no other property.
func writtenObject(msg string) (map[string]any, string) {
	for i := strings.IndexByte(msg, '{'); i >= 0; {
		dec := json.NewDecoder(strings.NewReader(msg[i:]))
		var obj map[string]any
		if dec.Decode(&obj) == nil && obj != nil {
			end := i + int(dec.InputOffset())
			return obj, msg[:i] + msg[end:]
		}
		next := strings.IndexByte(msg[i+1:], '{')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return nil, msg
}

// properties reads an object schema's properties in their written order
// (encoding/json's maps have none).
func properties(schema json.RawMessage) []schemaProperty {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(s.Properties))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var out []schemaProperty
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		name, _ := tok.(string)
		var def struct {
			Type    any             `json:"type"`
			Enum    []any           `json:"enum"`
			Default json.RawMessage `json:"default"`
		}
		if err := dec.Decode(&def); err != nil {
			return out
		}
		p := schemaProperty{name: name, enum: def.Enum}
		switch t := def.Type.(type) {
		case string:
			p.kind = t
		case []any: // ["number","null"]: the first non-null type
			for _, v := range t {
				if s, ok := v.(string); ok && s != "null" {
					p.kind = s
					break
				}
			}
		}
		if len(def.Default) > 0 && json.Unmarshal(def.Default, &p.def) == nil {
			p.hasDef = true
		}
		for _, r := range s.Required {
			p.require = p.require || r == name
		}
		out = append(out, p)
	}
	return out
}

// demoCallNote is what the demo model says before its call.
func demoCallNote(c ToolCall) string {
	return fmt.Sprintf("**Local demo model**: calling the tool `%s` with arguments from your message.\n\n", BareToolName(c.Name))
}

// lastToolResults answers the results of the conversation's last turn when
// it is a tool turn.
func lastToolResults(msgs []Message) ([]ToolResult, bool) {
	if len(msgs) == 0 || msgs[len(msgs)-1].Role != "tool" {
		return nil, false
	}
	return msgs[len(msgs)-1].ToolResults, true
}

// demoToolAnswer answers from the tool results, quoting each.
func demoToolAnswer(provider, model string, results []ToolResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Local demo model** (standing in for %s `%s`), answering from the tool results:\n\n", provider, model)
	for _, r := range results {
		quoted := "> " + strings.ReplaceAll(strings.TrimSpace(firstRunes(r.Content, 600)), "\n", "\n> ")
		if r.IsError {
			fmt.Fprintf(&b, "The tool `%s` did not give a result, so I answer without it:\n\n%s\n\n", BareToolName(r.Name), quoted)
			continue
		}
		fmt.Fprintf(&b, "The tool `%s` answered:\n\n%s\n\n", BareToolName(r.Name), quoted)
	}
	b.WriteString("A real model would now use this in its answer; set the provider's API key (see the README) to chat with it.")
	return b.String()
}

func firstRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func countTurns(ms []Message) int {
	n := 0
	for _, m := range ms {
		if m.Role == "user" {
			n++
		}
	}
	return n
}
