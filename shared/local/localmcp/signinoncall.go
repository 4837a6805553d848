package localmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"aiwork/shared/testbed/localproc"
)

// The sign-in-on-call server's tools and the scope its private tool needs.
const (
	PublicNoteTool    = "get-public-note"
	PrivateNoteTool   = "get-private-note"
	SignInOnCallScope = "mcp:tools"
)

// signInOnCallMaxBody bounds a POST the server reads to see whether it calls
// the private tool; MCP messages from a client are far smaller.
const signInOnCallMaxBody = 1 << 20

// SignInOnCallServer is a streamable-HTTP MCP server (the official Go SDK,
// in this process) that lets anyone connect, list its tools and call
// get-public-note, and asks for sign-in only when get-private-note is
// called: that call, without a valid bearer token, is answered 401 with a
// WWW-Authenticate naming its protected resource metadata and the scope.
// Its authorization server is the MCP TypeScript SDK's demo one (the OAuth
// example's script, run with --oauth only: its own MCP port is unused),
// which approves every sign-in at once; tokens are checked there by
// introspection on every call.
type SignInOnCallServer struct {
	// Endpoint is the MCP URL, http://localhost:<port>/mcp, and the
	// resource a token must be issued for.
	Endpoint string
	// Issuer is the authorization server's issuer, http://localhost:<port>/.
	Issuer string
	// ResourceMetadata is the protected resource metadata URL (RFC 9728)
	// that the 401's WWW-Authenticate names.
	ResourceMetadata string

	srv    *http.Server
	served chan struct{}
	as     *localproc.Child
}

// StartSignInOnCall starts the authorization server (a child process) and
// the MCP server (in this process), each on a free loopback port, and
// answers once both accept connections.
func StartSignInOnCall(ctx context.Context) (*SignInOnCallServer, error) {
	as, _, authPort, err := startOAuthExampleProcess(ctx, "--oauth")
	if err != nil {
		return nil, err
	}
	port, err := localproc.FreePort()
	if err != nil {
		as.Stop()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		as.Stop()
		return nil, fmt.Errorf("MCP sign-in-on-call server: %w", err)
	}
	s := &SignInOnCallServer{
		Endpoint:         fmt.Sprintf("http://localhost:%d/mcp", port),
		Issuer:           fmt.Sprintf("http://localhost:%d/", authPort),
		ResourceMetadata: fmt.Sprintf("http://localhost:%d/.well-known/oauth-protected-resource/mcp", port),
		served:           make(chan struct{}),
		as:               as,
	}
	server := newSignInOnCallMCPServer()
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.requireSignInForPrivateNote(mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return server },
		// Stateless: every request stands alone, so a call asked again
		// after sign-in needs no session, and Stop leaves none behind.
		&mcp.StreamableHTTPOptions{Stateless: true})))
	mux.Handle("/.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(
		&oauthex.ProtectedResourceMetadata{
			Resource:               s.Endpoint,
			AuthorizationServers:   []string{s.Issuer},
			ScopesSupported:        []string{SignInOnCallScope},
			BearerMethodsSupported: []string{"header"},
		}))
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// Stop closes the MCP server and every client connection, and ends the
// authorization server.
func (s *SignInOnCallServer) Stop() {
	if s == nil {
		return
	}
	_ = s.srv.Close()
	<-s.served
	s.as.Stop()
}

// newSignInOnCallMCPServer is the MCP server with its two tools.
func newSignInOnCallMCPServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "signin-on-call-example", Title: "Sign-in on call example", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        PublicNoteTool,
		Title:       "Get the public note",
		Description: "Reads the public note. Anyone can, with no sign-in.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return textResult("The public note: anyone can read this one."), nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{
		Name:        PrivateNoteTool,
		Title:       "Get your private note",
		Description: "Reads your private note. Needs you to sign in.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		// The HTTP layer lets this call through only with a verified token;
		// without one here (a request it did not take for this call), the
		// note stays private.
		if req.Extra == nil || req.Extra.TokenInfo == nil {
			r := textResult("Sign in to read your private note.")
			r.IsError = true
			return r, nil, nil
		}
		return textResult(fmt.Sprintf("Your private note (signed in as client %s): remember the milk.", req.Extra.TokenInfo.UserID)), nil, nil
	})
	return srv
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// requireSignInForPrivateNote lets every request through to next except a
// POST calling the private tool (alone or in a batch), which must carry a
// bearer token the authorization server says is active, issued for this
// server and with the scope; else it is answered 401 with the challenge.
func (s *SignInOnCallServer) requireSignInForPrivateNote(next http.Handler) http.Handler {
	signedIn := auth.RequireBearerToken(s.verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: s.ResourceMetadata,
		Scopes:              []string{SignInOnCallScope},
	})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, signInOnCallMaxBody))
		if err != nil {
			if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
				http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "could not read the request", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if callsTool(body, PrivateNoteTool) {
			signedIn.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// callsTool reports whether a JSON-RPC body (one message or a batch) has a
// tools/call of the tool name. Objects are read as maps: their keys match
// exactly, as the SDK's decoder matches them, so no spelling of a key reads
// differently here and there.
func callsTool(body []byte, name string) bool {
	var batch []json.RawMessage
	if err := json.Unmarshal(body, &batch); err != nil {
		batch = []json.RawMessage{body}
	}
	return slices.ContainsFunc(batch, func(raw json.RawMessage) bool {
		var msg, params map[string]json.RawMessage
		var method, tool string
		return json.Unmarshal(raw, &msg) == nil &&
			json.Unmarshal(msg["method"], &method) == nil && method == "tools/call" &&
			json.Unmarshal(msg["params"], &params) == nil &&
			json.Unmarshal(params["name"], &tool) == nil && tool == name
	})
}

var introspectClient = &http.Client{Timeout: 5 * time.Second}

// verify asks the authorization server about token (RFC 7662
// introspection, nothing cached): it is good when active, issued for this
// server (aud) and with the scope. Any other answer, or none, is an invalid
// token (401), never a server error.
func (s *SignInOnCallServer) verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.Issuer+"introspect",
		strings.NewReader(url.Values{"token": {token}}.Encode()))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := introspectClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: the authorization server did not answer", auth.ErrInvalidToken)
	}
	defer resp.Body.Close()
	var got struct {
		Active   bool            `json:"active"`
		ClientID string          `json:"client_id"`
		Scope    string          `json:"scope"`
		Exp      int64           `json:"exp"`
		Aud      json.RawMessage `json:"aud"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&got) != nil || !got.Active {
		return nil, fmt.Errorf("%w: not active", auth.ErrInvalidToken)
	}
	if !audienceHas(got.Aud, s.Endpoint) {
		return nil, fmt.Errorf("%w: issued for another server", auth.ErrInvalidToken)
	}
	scopes := strings.Fields(got.Scope)
	if !slices.Contains(scopes, SignInOnCallScope) {
		return nil, fmt.Errorf("%w: without the scope %s", auth.ErrInvalidToken, SignInOnCallScope)
	}
	info := &auth.TokenInfo{Scopes: scopes, UserID: got.ClientID}
	if got.Exp > 0 {
		info.Expiration = time.Unix(got.Exp, 0)
	}
	return info, nil
}

// audienceHas reports whether an introspection's aud (one string or a list,
// RFC 7662 §2.2) names resource.
func audienceHas(aud json.RawMessage, resource string) bool {
	var one string
	if json.Unmarshal(aud, &one) == nil {
		return one == resource
	}
	var many []string
	return json.Unmarshal(aud, &many) == nil && slices.Contains(many, resource)
}
