package llm

import (
	"cmp"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Attachment is a resource a user attached to a message (from one of
// their MCP servers), as a model is given it: with the user's turn, after
// their text, its text in full or, for binary contents, named with its
// type and size. Every provider takes it as text: the format is plain
// markup any model reads.
type Attachment struct {
	URI      string
	Name     string
	MIMEType string
	Size     int64
	// Text is the resource's text ("" for binary contents).
	Text string
	// Binary: the contents are not text (an image, a PDF...): the model
	// is told what the user attached, not given it.
	Binary bool
	// Cut: Text is the resource's start only.
	Cut bool
}

// WithAttachments is a user's turn as a model gets it: text, then each
// attachment in an <attachment> element.
func WithAttachments(text string, as []Attachment) string {
	if len(as) == 0 {
		return text
	}
	var b strings.Builder
	b.WriteString(text)
	for _, a := range as {
		fmt.Fprintf(&b, "\n\n<attachment uri=\"%s\" name=\"%s\"", html.EscapeString(a.URI), html.EscapeString(a.Name))
		if a.MIMEType != "" {
			fmt.Fprintf(&b, " mime_type=\"%s\"", html.EscapeString(a.MIMEType))
		}
		fmt.Fprintf(&b, " size=\"%d\">\n", a.Size)
		switch {
		case a.Binary:
			fmt.Fprintf(&b, "(The user attached this %s file of %s; its contents are not included.)", cmp.Or(a.MIMEType, "binary"), sizeText(a.Size))
		default:
			b.WriteString(a.Text)
			if a.Cut {
				b.WriteString("\n(The resource is longer: only its start is included.)")
			}
		}
		b.WriteString("\n</attachment>")
	}
	return b.String()
}

// ReceivedAttachment is an attachment found in a user's turn.
type ReceivedAttachment struct {
	URI      string
	MIMEType string
	Size     int64
	Body     string
}

var attachmentRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)\n\n<attachment uri="([^"]*)" name="[^"]*"(?: mime_type="([^"]*)")? size="(\d+)">\n(.*?)\n</attachment>`)
})

// SplitAttachments undoes WithAttachments: the user's text and what was
// attached.
func SplitAttachments(content string) (string, []ReceivedAttachment) {
	ms := attachmentRE().FindAllStringSubmatchIndex(content, -1)
	if len(ms) == 0 {
		return content, nil
	}
	text := content[:ms[0][0]]
	out := make([]ReceivedAttachment, 0, len(ms))
	for _, m := range ms {
		size, _ := strconv.ParseInt(content[m[6]:m[7]], 10, 64)
		a := ReceivedAttachment{URI: html.UnescapeString(content[m[2]:m[3]]), Size: size, Body: content[m[8]:m[9]]}
		if m[4] >= 0 {
			a.MIMEType = html.UnescapeString(content[m[4]:m[5]])
		}
		out = append(out, a)
	}
	return text, out
}

func sizeText(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}
