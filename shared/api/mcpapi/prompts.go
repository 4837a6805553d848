package mcpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/clip"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
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

func presentPrompt(p *mcp.Prompt) promptView {
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
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
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
	p := &mcp.CompleteParams{Argument: mcp.CompleteParamsArgument{Name: in.Argument.Name, Value: in.Argument.Value}}
	switch in.Ref.Type {
	case "ref/prompt":
		if strings.TrimSpace(in.Ref.Name) == "" {
			return httpx.Invalid("ref.name is required for a prompt")
		}
		p.Ref = &mcp.CompleteReference{Type: in.Ref.Type, Name: in.Ref.Name}
	case "ref/resource":
		if strings.TrimSpace(in.Ref.URI) == "" {
			return httpx.Invalid("ref.uri is required for a resource template")
		}
		p.Ref = &mcp.CompleteReference{Type: in.Ref.Type, URI: in.Ref.URI}
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
		p.Context = &mcp.CompleteContext{Arguments: in.Context.Arguments}
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
