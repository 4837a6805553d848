package chat

import (
	"context"
	"errors"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"aiwork/shared/clip"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/mcp"
	"aiwork/shared/store"
)

// Resources a user attached to a message: each read from its server (the
// user's own connection, through the same sessions and rules as a tool
// call) before the model is called, given to the model with the user's
// turn, and named on the user's message as the conversation keeps it.

// AttachmentRef names a resource of one of the caller's MCP connections.
type AttachmentRef struct {
	ConnectionID string
	URI          string
	// Name is the client's label for it ("" : the URI's last segment).
	Name string
}

// MaxAttachments is how many resources one message may attach.
const MaxAttachments = 10

// attachedTextForModel bounds the text of a message's attachments the
// model is given, shared among them (the conversation's own bound,
// chatapi.MaxContextChars, is 120,000 characters).
const attachedTextForModel = 100_000

// attachTo reads refs for uid and gives them to the model with the last
// of msgs, the user's new message (a copy: the request's own message is
// what the conversation keeps); kept names them for the conversation.
func (b *toolbox) attachTo(ctx context.Context, uid string, msgs []llm.Message, refs []AttachmentRef) (_ []llm.Message, kept []domain.MessageAttachment, _ error) {
	read, kept, err := b.attach(ctx, uid, refs)
	if err != nil {
		return nil, nil, err
	}
	msgs = slices.Clone(msgs)
	last := &msgs[len(msgs)-1]
	last.Content = llm.WithAttachments(last.Content, read)
	return msgs, kept, nil
}

// attach reads refs for uid, answering what the model is given and what
// the conversation keeps. Another user's connection, or an unknown one,
// is refused NotFound before any server is asked; a resource over
// mcp.MaxResourceBytes, or one its server does not read, is refused
// saying so.
func (b *toolbox) attach(ctx context.Context, uid string, refs []AttachmentRef) ([]llm.Attachment, []domain.MessageAttachment, error) {
	if len(refs) == 0 {
		return nil, nil, nil
	}
	if b.opts.Sealer == nil {
		return nil, nil, refuse(Invalid, "Resources from MCP servers are not available on this server.")
	}
	conns := map[string]domain.MCPConnection{}
	for _, ref := range refs {
		if _, ok := conns[ref.ConnectionID]; ok {
			continue
		}
		c, err := b.st.GetMCPConnection(ctx, uid, ref.ConnectionID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil, refuse(NotFound, "MCP connection %s not found. Connect the server again in the MCP Registry.", clip.WithEllipsis(ref.ConnectionID, 100))
		}
		if err != nil {
			return nil, nil, err
		}
		conns[ref.ConnectionID] = c
	}
	read := make([]llm.Attachment, len(refs))
	errs := make([]error, len(refs))
	var wg sync.WaitGroup
	for i, ref := range refs {
		wg.Go(func() { read[i], errs[i] = b.readAttachment(ctx, uid, conns[ref.ConnectionID], ref) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, e := range errs {
			var refusal *Error
			if errors.As(e, &refusal) {
				return nil, nil, refusal
			}
		}
		return nil, nil, err
	}
	budget := attachedTextForModel / len(refs)
	kept := make([]domain.MessageAttachment, len(refs))
	for i := range read {
		a := &read[i]
		kept[i] = domain.MessageAttachment{ConnectionID: refs[i].ConnectionID, URI: a.URI, Name: a.Name, MIMEType: a.MIMEType, Size: a.Size}
		if utf8.RuneCountInString(a.Text) > budget {
			a.Text, a.Cut = clip.Runes(a.Text, budget), true
		}
	}
	return read, kept, nil
}

// readAttachment reads one resource: its text contents joined, or, when
// any part is binary (and not text in a blob), named with its type and
// size.
func (b *toolbox) readAttachment(ctx context.Context, uid string, c domain.MCPConnection, ref AttachmentRef) (llm.Attachment, error) {
	a := llm.Attachment{URI: ref.URI, Name: attachmentName(ref)}
	target, err := b.target(ctx, uid, c)
	if err != nil {
		return a, unreadable(ref, c, err)
	}
	rctx, cancel := context.WithTimeout(ctx, b.opts.CallTimeout)
	defer cancel()
	res, err := b.opts.Pool.ReadResource(rctx, owner(uid, c), target, ref.URI, b.opts.ConnectTimeout)
	if err != nil {
		b.noteSignInRefused(ctx, uid, c, err)
		return a, unreadable(ref, c, err)
	}
	var text strings.Builder
	for _, rc := range res.Contents {
		if rc == nil {
			continue
		}
		if a.MIMEType == "" {
			a.MIMEType = rc.MIMEType
		}
		a.Size += int64(len(rc.Text) + len(rc.Blob))
		switch {
		case rc.Blob == nil:
			text.WriteString(rc.Text)
		case textual(rc.MIMEType) && utf8.Valid(rc.Blob):
			text.Write(rc.Blob)
		default:
			a.Binary = true
			a.MIMEType = rc.MIMEType
		}
	}
	if !a.Binary {
		a.Text = text.String()
	}
	return a, nil
}

// unreadable is the refusal of a message whose attachment was not read.
func unreadable(ref AttachmentRef, c domain.MCPConnection, err error) error {
	var tl *mcp.TooLargeError
	if errors.As(err, &tl) {
		return refuse(Invalid, "%s", tl.Error())
	}
	var me *mcp.Error
	if errors.As(err, &me) {
		return refuse(Invalid, "The resource %s could not be read from %s: %s", clip.WithEllipsis(ref.URI, 200), c.Label(), me.Detail)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return refuse(Invalid, "The resource %s could not be read from %s.", clip.WithEllipsis(ref.URI, 200), c.Label())
}

// textual: a MIME type whose contents are text.
func textual(mime string) bool {
	mime = strings.ToLower(strings.TrimSpace(strings.SplitN(mime, ";", 2)[0]))
	switch {
	case strings.HasPrefix(mime, "text/"), strings.HasSuffix(mime, "+json"), strings.HasSuffix(mime, "+xml"):
		return true
	}
	switch mime {
	case "application/json", "application/xml", "application/javascript", "application/yaml", "application/x-yaml", "application/toml":
		return true
	}
	return false
}

// attachmentName is the client's label, else the URI's last segment.
func attachmentName(ref AttachmentRef) string {
	if n := strings.TrimSpace(ref.Name); n != "" {
		return clip.Runes(n, 200)
	}
	if u, err := url.Parse(ref.URI); err == nil {
		p := u.Path
		if p == "" {
			p = u.Opaque
		}
		if base := path.Base(p); base != "." && base != "/" && base != "" {
			return clip.Runes(base, 200)
		}
	}
	return clip.Runes(ref.URI, 200)
}
