package mcp

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server's prompts and resources, which a user brings into a chat (the
// composer's prompts, resources attached as context), on the same warm
// sessions and outbound rules as its tools.

// Bounds of what is read from a server for the composer.
const (
	// MaxResourceBytes is the largest resource a user may read or attach:
	// its contents (text, or decoded blobs) in all.
	MaxResourceBytes = 4 << 20
	maxListed        = 500 // prompts, resources or templates of one server
	maxListPages     = 50  // a server could hand out cursors forever
	maxCompletions   = 100 // values of one completion (the spec's own cap)
)

// Prompts lists the server's prompts; offered is false when it has no
// prompts capability (nothing was asked).
func (s *Session) Prompts(ctx context.Context) (prompts []*mcp.Prompt, offered bool, err error) {
	if !slices.Contains(s.features, "prompts") {
		return nil, false, nil
	}
	prompts, err = listAll(func(cursor string) ([]*mcp.Prompt, string, error) {
		r, err := s.cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return r.Prompts, r.NextCursor, nil
	})
	if err != nil {
		return nil, true, s.failure(ctx, err, 0)
	}
	return prompts, true, nil
}

// GetPrompt gets prompt name filled with args.
func (s *Session) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	res, err := s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, s.failure(ctx, err, 0)
	}
	if res == nil {
		return nil, &Error{Kind: KindNotMCP, Detail: "The server sent no prompt."}
	}
	return res, nil
}

// Complete asks the server for completions of an argument (of a prompt or
// a resource template); a server without the completions capability has
// none to give, and is not asked.
func (s *Session) Complete(ctx context.Context, p *mcp.CompleteParams) (mcp.CompletionResultDetails, error) {
	if !slices.Contains(s.features, "completions") {
		return mcp.CompletionResultDetails{Values: []string{}}, nil
	}
	res, err := s.cs.Complete(ctx, p)
	if err != nil {
		return mcp.CompletionResultDetails{}, s.failure(ctx, err, 0)
	}
	out := res.Completion
	if len(out.Values) > maxCompletions {
		out.Values, out.HasMore = out.Values[:maxCompletions], true
	}
	if out.Values == nil {
		out.Values = []string{}
	}
	return out, nil
}

// Resources are a server's resources and resource templates.
type Resources struct {
	Resources []*mcp.Resource
	Templates []*mcp.ResourceTemplate
}

// Resources lists the server's resources and templates; offered is false
// when it has no resources capability (nothing was asked).
func (s *Session) Resources(ctx context.Context) (res Resources, offered bool, err error) {
	if !slices.Contains(s.features, "resources") {
		return Resources{}, false, nil
	}
	res.Resources, err = listAll(func(cursor string) ([]*mcp.Resource, string, error) {
		r, err := s.cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return r.Resources, r.NextCursor, nil
	})
	if err != nil {
		return Resources{}, true, s.failure(ctx, err, 0)
	}
	// Templates are optional: a server that lists resources but answers
	// templates/list with an error (method not found) still has its
	// resources.
	res.Templates, err = listAll(func(cursor string) ([]*mcp.ResourceTemplate, string, error) {
		r, err := s.cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return r.ResourceTemplates, r.NextCursor, nil
	})
	if err != nil && ctx.Err() != nil {
		return Resources{}, true, s.failure(ctx, err, 0)
	}
	return res, true, nil
}

// TooLargeError is a resource over MaxResourceBytes. Size is its size,
// or 0 when the server's answer passed the session's client's cap on a
// response (Limits.MaxBodyBytes) before it could be measured.
type TooLargeError struct {
	URI  string
	Size int64
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("The resource %s is %s; the limit is %s.", e.URI, HumanSize(e.Size), HumanSize(MaxResourceBytes))
	}
	return fmt.Sprintf("The resource %s is larger than the limit of %s.", e.URI, HumanSize(MaxResourceBytes))
}

// ReadResource reads uri. Contents over MaxResourceBytes in all are a
// *TooLargeError, as is an answer larger than the session's client lets
// through (Limits.MaxBodyBytes: a client whose cap leaves room for a
// resource's JSON encoding measures it).
func (s *Session) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		s.obs.mu.Lock()
		tooLarge := s.obs.tooLarge
		s.obs.mu.Unlock()
		if tooLarge && ctx.Err() == nil {
			return nil, &TooLargeError{URI: uri}
		}
		return nil, s.failure(ctx, err, 0)
	}
	if res == nil {
		return nil, &Error{Kind: KindNotMCP, Detail: "The server sent no contents."}
	}
	var size int64
	for _, c := range res.Contents {
		if c != nil {
			size += int64(len(c.Text) + len(c.Blob))
		}
	}
	if size > MaxResourceBytes {
		return nil, &TooLargeError{URI: uri, Size: size}
	}
	return res, nil
}

// HumanSize writes n bytes as people read it: "512 bytes", "12.3 KB",
// "5.0 MB" (binary multiples, as MaxResourceBytes is 4 MB).
func HumanSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}

// listAll pages through a list up to maxListed items and maxListPages
// pages (a server could hand out cursors forever).
func listAll[T any](page func(cursor string) ([]T, string, error)) ([]T, error) {
	out := []T{}
	cursor := ""
	for range maxListPages {
		items, next, err := page(cursor)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if len(out) < maxListed {
				out = append(out, it)
			}
		}
		if next == "" || len(out) >= maxListed {
			break
		}
		cursor = next
	}
	return out, nil
}

// Prompts lists owner's target's prompts on a warm session (see
// Session.Prompts).
func (p *Pool) Prompts(ctx context.Context, owner string, t Target, connectTimeout time.Duration) ([]*mcp.Prompt, bool, error) {
	type listed struct {
		prompts []*mcp.Prompt
		offered bool
	}
	out, err := withSession(ctx, p, owner, t, connectTimeout, func(s *Session) (listed, error) {
		ps, offered, err := s.Prompts(ctx)
		return listed{ps, offered}, err
	})
	return out.prompts, out.offered, err
}

// GetPrompt gets a prompt on a warm session.
func (p *Pool) GetPrompt(ctx context.Context, owner string, t Target, name string, args map[string]string, connectTimeout time.Duration) (*mcp.GetPromptResult, error) {
	return withSession(ctx, p, owner, t, connectTimeout, func(s *Session) (*mcp.GetPromptResult, error) {
		return s.GetPrompt(ctx, name, args)
	})
}

// Complete asks for an argument's completions on a warm session.
func (p *Pool) Complete(ctx context.Context, owner string, t Target, params *mcp.CompleteParams, connectTimeout time.Duration) (mcp.CompletionResultDetails, error) {
	return withSession(ctx, p, owner, t, connectTimeout, func(s *Session) (mcp.CompletionResultDetails, error) {
		return s.Complete(ctx, params)
	})
}

// Resources lists resources and templates on a warm session.
func (p *Pool) Resources(ctx context.Context, owner string, t Target, connectTimeout time.Duration) (Resources, bool, error) {
	type listed struct {
		res     Resources
		offered bool
	}
	out, err := withSession(ctx, p, owner, t, connectTimeout, func(s *Session) (listed, error) {
		r, offered, err := s.Resources(ctx)
		return listed{r, offered}, err
	})
	return out.res, out.offered, err
}

// ReadResource reads a resource on a warm session (see
// Session.ReadResource).
func (p *Pool) ReadResource(ctx context.Context, owner string, t Target, uri string, connectTimeout time.Duration) (*mcp.ReadResourceResult, error) {
	return withSession(ctx, p, owner, t, connectTimeout, func(s *Session) (*mcp.ReadResourceResult, error) {
		return s.ReadResource(ctx, uri)
	})
}
