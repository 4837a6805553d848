package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolOutput is a tool call's result in the two forms the chat needs: the
// content blocks to show the user, and the text a model reads.
type ToolOutput struct {
	// Content is the result's content blocks in MCP's JSON shape, at most
	// maxShown bytes in all; Truncated when some were left out.
	Content   []json.RawMessage
	Truncated bool
	// Text is what the model gets: text blocks as they are, other blocks
	// named, structured content when there is no text; cut to maxModel
	// bytes with a note saying so.
	Text    string
	IsError bool
}

// Output converts a tool result (nil: an empty one).
func Output(res *mcp.CallToolResult, maxShown, maxModel int) ToolOutput {
	out := ToolOutput{Content: []json.RawMessage{}}
	if res == nil {
		return out
	}
	out.IsError = res.IsError
	shown := 0
	var text []string
	for i, c := range res.Content {
		if c == nil {
			continue
		}
		b, err := c.MarshalJSON()
		if err == nil && shown+len(b) <= maxShown {
			out.Content = append(out.Content, b)
			shown += len(b)
		} else if !out.Truncated {
			out.Truncated = true
			note, _ := json.Marshal(map[string]string{"type": "text",
				"text": fmt.Sprintf("[%d more content blocks are not shown: a result is shown up to %d KB]", len(res.Content)-i, maxShown>>10)})
			out.Content = append(out.Content, note)
		}
		text = append(text, modelText(c))
	}
	if len(text) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			text = append(text, string(b))
		}
	}
	out.Text = cut(strings.Join(text, "\n"), maxModel)
	return out
}

// modelText is what a model reads of one content block: text as it is,
// anything else named (images and audio never go to a model as data here).
func modelText(c mcp.Content) string {
	switch v := c.(type) {
	case *mcp.TextContent:
		return v.Text
	case *mcp.ImageContent:
		return fmt.Sprintf("[image: %s, %d bytes, shown to the user]", v.MIMEType, len(v.Data))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio: %s, %d bytes]", v.MIMEType, len(v.Data))
	case *mcp.ResourceLink:
		return fmt.Sprintf("[resource link: %s %s]", v.Name, v.URI)
	case *mcp.EmbeddedResource:
		if v.Resource == nil {
			return "[embedded resource]"
		}
		if v.Resource.Text != "" {
			return v.Resource.Text
		}
		return fmt.Sprintf("[embedded resource: %s %s, %d bytes]", v.Resource.URI, v.Resource.MIMEType, len(v.Resource.Blob))
	}
	return "[content]"
}

// cut keeps the first max bytes of s (whole runes) and says how much was cut.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	end := max
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + fmt.Sprintf("\n[cut: the result was %d bytes; only the first %d KB are given]", len(s), max>>10)
}
