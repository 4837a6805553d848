package mcp

import (
	"fmt"
	"mime"
	"net"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP Apps (the io.modelcontextprotocol/ui extension): a tool may declare
// a view, an HTML resource the host renders in a sandboxed frame beside
// the call. The product declares the extension on every session it opens
// (chatCapabilities), reads the tools' views when it lists them
// (toolUI), and reads and checks a view for the chat (View).
const (
	// UIExtension is the extension's identifier in capabilities.
	UIExtension = "io.modelcontextprotocol/ui"
	// UIMimeType is the one kind of view the product renders.
	UIMimeType = "text/html;profile=mcp-app"
	// UIScheme starts every view's URI.
	UIScheme = "ui://"
	// MaxViewBytes bounds a view's HTML (text, or a blob decoded).
	MaxViewBytes = 2 << 20
	// maxViewDomains bounds each list of domains a view's CSP declares.
	maxViewDomains = 32
)

// View is a view as the browser gets it: its HTML, and what its resource
// declares of the frame it runs in (_meta.ui), checked.
type View struct {
	URI  string
	HTML string
	CSP  ViewCSP
	// Permissions are the browser features the view asks for, of
	// "camera", "microphone", "geolocation", "clipboardWrite".
	Permissions []string
	// PrefersBorder: the view asks for a border (true), for none (false),
	// or leaves it to the host (nil).
	PrefersBorder *bool
}

// ViewCSP is the origins a view may reach, by the CSP directives they
// become: each an http(s) origin (scheme://host[:port]), never a wildcard.
type ViewCSP struct {
	ConnectDomains  []string
	ResourceDomains []string
	FrameDomains    []string
	BaseURIDomains  []string
}

// ViewRefusedError is a view the product will not render: not an MCP App,
// too large, or asking for a CSP wider than exact origins. Detail says why
// in a sentence.
type ViewRefusedError struct{ Detail string }

func (e *ViewRefusedError) Error() string { return e.Detail }

func refuseView(format string, args ...any) *ViewRefusedError {
	return &ViewRefusedError{Detail: fmt.Sprintf(format, args...)}
}

// IsViewMimeType reports whether a resource's MIME type is an MCP App's
// (text/html with profile=mcp-app), however its parameters are spaced or
// cased; other parameters (a charset) are let through.
func IsViewMimeType(mt string) bool {
	media, params, err := mime.ParseMediaType(mt)
	return err == nil && media == "text/html" && strings.EqualFold(strings.TrimSpace(params["profile"]), "mcp-app")
}

// ViewFrom checks what resources/read answered for uri and makes it a
// View: the content for uri (else the first), an MCP App's MIME type, at
// most MaxViewBytes of UTF-8 HTML. The frame's settings come from the
// content's _meta.ui, else the result's, else listed's (the resources/list
// entry's _meta, looked up only then; listed may be nil). A refusal is a
// *ViewRefusedError.
func ViewFrom(res *mcp.ReadResourceResult, uri string, listed func() mcp.Meta) (View, error) {
	var c *mcp.ResourceContents
	for _, rc := range res.Contents {
		if rc == nil {
			continue
		}
		if c == nil || (rc.URI == uri && c.URI != uri) {
			c = rc
		}
	}
	if c == nil {
		return View{}, refuseView("The server sent nothing for the view %s.", uri)
	}
	if !IsViewMimeType(c.MIMEType) {
		mt := c.MIMEType
		if mt == "" {
			mt = "no type"
		}
		return View{}, refuseView("The view %s is %s, not %s: only MCP App views are shown.", uri, trimRunes(mt, 100), UIMimeType)
	}
	html := c.Text
	if len(c.Blob) > 0 {
		html = string(c.Blob)
	}
	if len(html) > MaxViewBytes {
		return View{}, refuseView("The view %s is %s; the limit is %s.", uri, HumanSize(int64(len(html))), HumanSize(MaxViewBytes))
	}
	if strings.TrimSpace(html) == "" {
		return View{}, refuseView("The view %s is empty.", uri)
	}
	if !utf8.ValidString(html) {
		return View{}, refuseView("The view %s is not UTF-8 text.", uri)
	}
	meta := uiMeta(c.Meta)
	if meta == nil {
		meta = uiMeta(res.Meta)
	}
	if meta == nil && listed != nil {
		meta = uiMeta(listed())
	}
	v := View{URI: uri, HTML: html}
	if err := v.settings(meta); err != nil {
		return View{}, err
	}
	return v, nil
}

// uiMeta is a _meta's "ui" object; nil when there is none.
func uiMeta(m mcp.Meta) map[string]any {
	ui, _ := m["ui"].(map[string]any)
	return ui
}

// settings reads a view's _meta.ui: its CSP (each domain an exact http(s)
// origin), its permissions and its border preference.
func (v *View) settings(ui map[string]any) error {
	csp, _ := ui["csp"].(map[string]any)
	for _, d := range []struct {
		name string
		into *[]string
	}{
		{"connectDomains", &v.CSP.ConnectDomains}, {"resourceDomains", &v.CSP.ResourceDomains},
		{"frameDomains", &v.CSP.FrameDomains}, {"baseUriDomains", &v.CSP.BaseURIDomains},
	} {
		origins, err := viewOrigins(csp[d.name], d.name)
		if err != nil {
			return err
		}
		*d.into = origins
	}
	perms, _ := ui["permissions"].(map[string]any)
	for _, p := range []string{"camera", "microphone", "geolocation", "clipboardWrite"} {
		if _, ok := perms[p].(map[string]any); ok {
			v.Permissions = append(v.Permissions, p)
		}
	}
	if b, ok := ui["prefersBorder"].(bool); ok {
		v.PrefersBorder = &b
	}
	return nil
}

// viewOrigins checks one of a CSP's lists of domains: a list of exact
// http(s) origins, each answered as scheme://host[:port] in lower case.
func viewOrigins(raw any, name string) ([]string, error) {
	out := []string{}
	if raw == nil {
		return out, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, refuseView("The view's Content Security Policy has %s that is not a list of origins.", name)
	}
	if len(list) > maxViewDomains {
		return nil, refuseView("The view's Content Security Policy lists %d %s; at most %d are allowed.", len(list), name, maxViewDomains)
	}
	for _, item := range list {
		s, _ := item.(string)
		origin, err := viewOrigin(s)
		if err != nil {
			return nil, refuseView("The view's Content Security Policy asks for %q in %s: %s", trimRunes(s, 100), name, err.Error())
		}
		out = append(out, origin)
	}
	return out, nil
}

// viewOrigin is s as an exact http(s) origin; the error says why it is
// not one.
func viewOrigin(s string) (string, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "*") {
		return "", fmt.Errorf("wildcards are not allowed, only exact origins")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", fmt.Errorf("only http or https origins are allowed (such as https://api.example.com)")
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", fmt.Errorf("an origin has no path, query or user (such as https://api.example.com)")
	}
	host := strings.ToLower(u.Hostname())
	if !validHost(host) {
		return "", fmt.Errorf("the host is not a valid name or address")
	}
	if p := u.Port(); p != "" {
		if strings.Trim(p, "0123456789") != "" {
			return "", fmt.Errorf("the port is not a number")
		}
		host = net.JoinHostPort(host, p)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return u.Scheme + "://" + host, nil
}

// validHost: a DNS name of letters, digits, hyphens and dots (no empty
// label), or an IP address. Nothing else may reach a CSP, where a space,
// a quote or a semicolon would change its meaning.
func validHost(h string) bool {
	if net.ParseIP(h) != nil {
		return true
	}
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || strings.Trim(label, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	return true
}
