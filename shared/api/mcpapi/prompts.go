package mcpapi

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/clip"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/mcp"
	"aiwork/shared/mcp/reach"
)

// The composer's prompts: the caller's servers' prompts (typing "/"), one
// prompt filled with its arguments, and the completions of an argument.

// Bounds of a prompt request.
const (
	maxNameLen      = 500
	maxArguments    = 50
	maxArgumentLen  = 10_000
	maxPromptBody   = 256 << 10
	maxCompleteBody = 64 << 10
)

type promptServerView struct {
	ConnectionID string       `json:"connection_id"`
	ServerID     string       `json:"server_id"`
	ServerName   string       `json:"server_name"`
	Prompts      []promptView `json:"prompts"`
	// Error says why the server's prompts could not be read (Prompts is
	// then empty).
	Error string `json:"error,omitempty"`
}

type promptView struct {
	Name        string               `json:"name"`
	Title       string               `json:"title"`
	Description string               `json:"description"`
	Arguments   []promptArgumentView `json:"arguments"`
}

type promptArgumentView struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

// listPrompts answers the prompts of the caller's connections whose server
// offers prompts; a server that fails is listed with its error.
func (s *Service) listPrompts(w http.ResponseWriter, r *http.Request) error {
	c := s.composer
	views, err := each(c, r, func(ctx context.Context, uid string, conn domain.MCPConnection) *promptServerView {
		v := &promptServerView{ConnectionID: conn.ID, ServerID: conn.ServerID, ServerName: conn.Label(), Prompts: []promptView{}}
		t, err := c.reach.Target(ctx, uid, conn)
		if err != nil {
			v.Error = failureSentence(conn, err)
			return v
		}
		prompts, offered, err := c.pool.Prompts(ctx, reach.Owner(uid, conn), t, c.connect)
		switch {
		case err != nil:
			v.Error = failureSentence(conn, err)
		case !offered:
			return nil
		}
		for _, p := range prompts {
			if p != nil {
				v.Prompts = append(v.Prompts, presentPrompt(p))
			}
		}
		return v
	})
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, views)
	return nil
}

func presentPrompt(p *sdk.Prompt) promptView {
	v := promptView{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: []promptArgumentView{}}
	for _, a := range p.Arguments {
		if a != nil {
			v.Arguments = append(v.Arguments, promptArgumentView{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
		}
	}
	return v
}

type getPromptInput struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments"`
}

type promptMessagesView struct {
	Description string              `json:"description,omitempty"`
	Messages    []promptMessageView `json:"messages"`
	// Attachments are the resources the messages refer to without their
	// contents (resource links, embedded resources with a uri only), each
	// read once to check its server gives it: the client attaches them to
	// the message, so the model gets their contents.
	Attachments []promptAttachmentView `json:"attachments"`
}

// promptAttachmentView is one resource a prompt refers to, as a message's
// attachment names it.
type promptAttachmentView struct {
	ConnectionID string `json:"connection_id"`
	URI          string `json:"uri"`
	Name         string `json:"name,omitempty"`
	MIMEType     string `json:"mime_type,omitempty"`
	// Size is the bytes its server gave when read.
	Size int64 `json:"size,omitempty"`
}

type promptMessageView struct {
	Role string `json:"role"`
	// Content is the MCP content block as the server sent it (text, image,
	// audio, resource link or embedded resource).
	Content json.RawMessage `json:"content"`
}

// getPrompt fills one of the caller's server's prompts with arguments.
func (s *Service) getPrompt(w http.ResponseWriter, r *http.Request) error {
	c := s.composer
	uid, conn, err := c.connection(r)
	if err != nil {
		return err
	}
	var in getPromptInput
	if err := httpx.DecodeJSONLimit(w, r, &in, maxPromptBody); err != nil {
		return err
	}
	if err := checkPromptInput(in); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), askTimeout)
	defer cancel()
	t, err := c.reach.Target(ctx, uid, conn)
	if err != nil {
		return askError(err)
	}
	res, err := c.pool.GetPrompt(ctx, reach.Owner(uid, conn), t, in.Name, in.Arguments, c.connect)
	if err != nil {
		return askError(err)
	}
	out := promptMessagesView{Description: res.Description, Messages: []promptMessageView{}}
	for _, m := range res.Messages {
		if m == nil || m.Content == nil {
			continue
		}
		content, err := json.Marshal(m.Content)
		if err != nil {
			return fmt.Errorf("prompt content: %w", err)
		}
		out.Messages = append(out.Messages, promptMessageView{Role: string(m.Role), Content: content})
	}
	out.Attachments, err = c.readPromptResources(ctx, uid, conn, t, in.Name, res.Messages)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// maxPromptResources is how many resources a prompt may refer to: they go
// with one message, which attaches at most chat.MaxAttachments.
const maxPromptResources = 10

// readPromptResources reads, at once, each resource the messages of prompt
// refer to without its contents, from the same server, and answers them as
// attachments. One the server will not read (an error, no contents, over
// mcp.MaxResourceBytes) refuses the prompt naming it, so what the user
// inserts never silently lacks a resource.
func (c *composer) readPromptResources(ctx context.Context, uid string, conn domain.MCPConnection, t mcp.Target, prompt string, msgs []*sdk.PromptMessage) ([]promptAttachmentView, error) {
	refs := promptResources(conn.ID, msgs)
	if len(refs) > maxPromptResources {
		return nil, httpx.Invalid(fmt.Sprintf("The prompt %q refers to %d resources; a message may attach at most %d.",
			clip.WithEllipsis(prompt, 100), len(refs), maxPromptResources))
	}
	for _, ref := range refs {
		if len(ref.URI) > maxURILen {
			return nil, httpx.Invalid(fmt.Sprintf("The prompt %q refers to a resource whose URI is too long.", clip.WithEllipsis(prompt, 100)))
		}
	}
	errs := make([]error, len(refs))
	var wg sync.WaitGroup
	for i := range refs {
		wg.Go(func() {
			res, err := c.pool.ReadResource(ctx, reach.Owner(uid, conn), t, refs[i].URI, c.connect)
			if err == nil {
				err = describeRead(&refs[i], res)
			}
			if err != nil {
				errs[i] = unreadablePromptResource(prompt, conn, refs[i].URI, err)
			}
		})
	}
	wg.Wait()
	// The first in the prompt's order, whichever failed first.
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return refs, nil
}

// promptResources are the resources msgs refer to without their contents,
// each once, in order: resource links, and embedded resources that carry
// a uri but neither text nor a blob.
func promptResources(connectionID string, msgs []*sdk.PromptMessage) []promptAttachmentView {
	out := []promptAttachmentView{}
	for _, m := range msgs {
		if m == nil {
			continue
		}
		var ref promptAttachmentView
		switch b := m.Content.(type) {
		case *sdk.ResourceLink:
			ref = promptAttachmentView{URI: b.URI, Name: cmp.Or(b.Title, b.Name), MIMEType: b.MIMEType}
		case *sdk.EmbeddedResource:
			if b.Resource == nil || b.Resource.Text != "" || len(b.Resource.Blob) > 0 {
				continue
			}
			ref = promptAttachmentView{URI: b.Resource.URI, MIMEType: b.Resource.MIMEType}
		default:
			continue
		}
		ref.ConnectionID, ref.URI = connectionID, strings.TrimSpace(ref.URI)
		if ref.URI == "" || slices.ContainsFunc(out, func(o promptAttachmentView) bool { return o.URI == ref.URI }) {
			continue
		}
		out = append(out, ref)
	}
	return out
}

// errNoContents is a read the server answered with nothing in it.
var errNoContents = errors.New("it sent no contents")

// describeRead completes ref from what its read gave: its size, and its
// type when the prompt did not say.
func describeRead(ref *promptAttachmentView, res *sdk.ReadResourceResult) error {
	found := false
	for _, rc := range res.Contents {
		if rc == nil {
			continue
		}
		found = true
		ref.Size += int64(len(rc.Text) + len(rc.Blob))
		if ref.MIMEType == "" {
			ref.MIMEType = rc.MIMEType
		}
	}
	if !found {
		return errNoContents
	}
	return nil
}

// unreadablePromptResource refuses prompt because conn's server did not
// read uri. The server's refusal (its error, or no contents) is the
// prompt's fault, not the connection's: 400, as the message route refuses
// an attachment its server will not read; a resource over the limit is 413
// with its size, as resources/read answers; a server that did not answer
// keeps askError's status.
func unreadablePromptResource(prompt string, conn domain.MCPConnection, uri string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	name, uri := clip.WithEllipsis(prompt, 100), clip.WithEllipsis(uri, 200)
	var tl *mcp.TooLargeError
	if errors.As(err, &tl) {
		return &httpx.Error{Code: httpx.CodeTooLarge, Detail: fmt.Sprintf("The prompt %q refers to a resource too large to attach: %s", name, tl.Error())}
	}
	code, reason := httpx.CodeInvalid, ""
	var rpc *jsonrpc.Error
	switch {
	case errors.Is(err, errNoContents):
		reason = err.Error()
	case errors.As(err, &rpc):
		reason = rpc.Message
	default:
		var he *httpx.Error
		if !errors.As(askError(err), &he) {
			return err
		}
		code, reason = he.Code, he.Detail
	}
	reason = strings.TrimSpace(clip.WithEllipsis(reason, 300))
	if reason == "" {
		reason = "it gave no reason"
	}
	if !strings.HasSuffix(reason, ".") && !strings.HasSuffix(reason, "!") && !strings.HasSuffix(reason, "?") && !strings.HasSuffix(reason, "…") {
		reason += "."
	}
	return &httpx.Error{Code: code, Detail: fmt.Sprintf("The prompt %q refers to %s, which %s would not read: %s", name, uri, conn.Label(), reason)}
}

func checkPromptInput(in getPromptInput) error {
	if strings.TrimSpace(in.Name) == "" {
		return httpx.Invalid("name is required")
	}
	if len(in.Name) > maxNameLen {
		return httpx.Invalid("The prompt's name is too long.")
	}
	return checkArguments(in.Arguments)
}

func checkArguments(args map[string]string) error {
	if len(args) > maxArguments {
		return httpx.Invalid(fmt.Sprintf("A prompt takes at most %d arguments.", maxArguments))
	}
	for k, v := range args {
		if len(k) > maxNameLen || utf8.RuneCountInString(v) > maxArgumentLen {
			return httpx.Invalid(fmt.Sprintf("The argument %q is too long (at most %d characters).", clip.WithEllipsis(k, 60), maxArgumentLen))
		}
	}
	return nil
}

type completeInput struct {
	Ref struct {
		Type string `json:"type"`
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"ref"`
	Argument struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	Context *struct {
		Arguments map[string]string `json:"arguments"`
	} `json:"context"`
}

type completionView struct {
	Values  []string `json:"values"`
	Total   int      `json:"total,omitempty"`
	HasMore bool     `json:"has_more,omitempty"`
}

// complete asks one of the caller's servers to complete an argument of a
// prompt or a resource template; empty when it offers no completions.
func (s *Service) complete(w http.ResponseWriter, r *http.Request) error {
	c := s.composer
	uid, conn, err := c.connection(r)
	if err != nil {
		return err
	}
	var in completeInput
	if err := httpx.DecodeJSONLimit(w, r, &in, maxCompleteBody); err != nil {
		return err
	}
	p := &sdk.CompleteParams{Argument: sdk.CompleteParamsArgument{Name: in.Argument.Name, Value: in.Argument.Value}}
	switch in.Ref.Type {
	case "ref/prompt":
		if strings.TrimSpace(in.Ref.Name) == "" {
			return httpx.Invalid("ref.name is required for a prompt")
		}
		p.Ref = &sdk.CompleteReference{Type: in.Ref.Type, Name: in.Ref.Name}
	case "ref/resource":
		if strings.TrimSpace(in.Ref.URI) == "" {
			return httpx.Invalid("ref.uri is required for a resource template")
		}
		p.Ref = &sdk.CompleteReference{Type: in.Ref.Type, URI: in.Ref.URI}
	default:
		return httpx.Invalid("ref.type must be ref/prompt or ref/resource")
	}
	if strings.TrimSpace(in.Argument.Name) == "" {
		return httpx.Invalid("argument.name is required")
	}
	if len(in.Ref.Name) > maxNameLen || len(in.Ref.URI) > maxURILen || len(in.Argument.Name) > maxNameLen || len(in.Argument.Value) > maxArgumentLen {
		return httpx.Invalid("The completion request is too long.")
	}
	if in.Context != nil {
		if err := checkArguments(in.Context.Arguments); err != nil {
			return err
		}
		p.Context = &sdk.CompleteContext{Arguments: in.Context.Arguments}
	}
	ctx, cancel := context.WithTimeout(r.Context(), completeTimeout)
	defer cancel()
	t, err := c.reach.Target(ctx, uid, conn)
	if err != nil {
		return askError(err)
	}
	res, err := c.pool.Complete(ctx, reach.Owner(uid, conn), t, p, c.connect)
	if err != nil {
		return askError(err)
	}
	httpx.WriteJSON(w, http.StatusOK, completionView{Values: res.Values, Total: res.Total, HasMore: res.HasMore})
	return nil
}
