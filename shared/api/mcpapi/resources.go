package mcpapi

import (
	"context"
	"net/http"
	"strings"

	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/mcp/reach"
)

// The composer's resources: the caller's servers' resources and resource
// templates (the paperclip menu), and one resource read.

// maxURILen bounds a resource's URI (or a template's) in a request.
const maxURILen = 4096

type resourceServerView struct {
	ConnectionID string                 `json:"connection_id"`
	ServerID     string                 `json:"server_id"`
	ServerName   string                 `json:"server_name"`
	Resources    []resourceView         `json:"resources"`
	Templates    []resourceTemplateView `json:"templates"`
	// Error says why the server's resources could not be read.
	Error string `json:"error,omitempty"`
}

type resourceView struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

type resourceTemplateView struct {
	URITemplate string `json:"uri_template"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
}

// listResources answers the resources and templates of the caller's
// connections whose server offers resources; a server that fails is
// listed with its error.
func (s *Service) listResources(w http.ResponseWriter, r *http.Request) error {
	c := s.composer
	views, err := each(c, r, func(ctx context.Context, uid string, conn domain.MCPConnection) *resourceServerView {
		v := &resourceServerView{ConnectionID: conn.ID, ServerID: conn.ServerID, ServerName: conn.Label(),
			Resources: []resourceView{}, Templates: []resourceTemplateView{}}
		t, err := c.reach.Target(ctx, uid, conn)
		if err != nil {
			v.Error = failureSentence(conn, err)
			return v
		}
		res, offered, err := c.pool.Resources(ctx, reach.Owner(uid, conn), t, c.connect)
		switch {
		case err != nil:
			v.Error = failureSentence(conn, err)
		case !offered:
			return nil
		}
		for _, r := range res.Resources {
			if r != nil {
				v.Resources = append(v.Resources, resourceView{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
					MIMEType: r.MIMEType, Size: r.Size})
			}
		}
		for _, t := range res.Templates {
			if t != nil {
				v.Templates = append(v.Templates, resourceTemplateView{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title,
					Description: t.Description, MIMEType: t.MIMEType})
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

type readResourceInput struct {
	URI string `json:"uri"`
}

type resourceContentsView struct {
	Contents []resourceContentView `json:"contents"`
}

type resourceContentView struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mime_type,omitempty"`
	Text     string `json:"text,omitempty"`
	// Blob is binary contents, base64 in JSON.
	Blob []byte `json:"blob,omitempty"`
}

// readResource reads one resource of the caller's server; one over
// mcp.MaxResourceBytes is refused with its size (413).
func (s *Service) readResource(w http.ResponseWriter, r *http.Request) error {
	c := s.composer
	uid, conn, err := c.connection(r)
	if err != nil {
		return err
	}
	var in readResourceInput
	if err := httpx.DecodeJSONLimit(w, r, &in, maxCompleteBody); err != nil {
		return err
	}
	in.URI = strings.TrimSpace(in.URI)
	if in.URI == "" {
		return httpx.Invalid("uri is required")
	}
	if len(in.URI) > maxURILen {
		return httpx.Invalid("The resource's URI is too long.")
	}
	ctx, cancel := context.WithTimeout(r.Context(), askTimeout)
	defer cancel()
	t, err := c.reach.Target(ctx, uid, conn)
	if err != nil {
		return askError(err)
	}
	res, err := c.pool.ReadResource(ctx, reach.Owner(uid, conn), t, in.URI, c.connect)
	if err != nil {
		return askError(err)
	}
	out := resourceContentsView{Contents: []resourceContentView{}}
	for _, rc := range res.Contents {
		if rc != nil {
			out.Contents = append(out.Contents, resourceContentView{URI: rc.URI, MIMEType: rc.MIMEType, Text: rc.Text, Blob: rc.Blob})
		}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}
