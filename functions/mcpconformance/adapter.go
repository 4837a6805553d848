package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The adapter is the MCP client the conformance suite runs for a scenario:
// it drives the product only through its public HTTP API, as the web app
// does, so what the suite finds is what users meet. It registers a user,
// connects the suite's server (signing in with OAuth when the server asks,
// following redirects as a browser would, cookies included), connects the
// demo model, and sends one chat message per tool the server lists, which
// the demo model answers by calling that tool ("use <tool> with 2 and 3";
// a tool that takes an object is handed the input schema of the server's
// other tool as the Tools control shows it, so a schema's round trip
// through the product can be checked), approving any call that asks.

// adapterServerID is the registry entry the suite's server is connected
// under: any entry takes an endpoint the user gives.
const adapterServerID = "local-everything"

// maxToolMessages bounds the chat turns of one scenario.
const maxToolMessages = 5

type adapter struct {
	api    string // the product's base URL
	server string // the suite's MCP server
	token  string
	http   *http.Client // follows redirects and keeps cookies, as a browser
}

func runAdapter(ctx context.Context, api, server string) error {
	jar, _ := cookiejar.New(nil)
	a := &adapter{api: strings.TrimRight(api, "/"), server: server, http: &http.Client{Jar: jar, Timeout: 60 * time.Second}}
	if err := a.register(ctx); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	conn, err := a.connect(ctx)
	if err != nil {
		return err
	}
	chat, err := a.chatConnection(ctx)
	if err != nil {
		return fmt.Errorf("connect the demo model: %w", err)
	}
	if len(conn.Tools) == 0 {
		logf("the server lists no tools: nothing to call")
		return nil
	}
	if calls := contextToolCalls(); len(calls) > 0 {
		// The scenario names its calls: each one's arguments written out.
		for _, c := range calls {
			if err := a.useTool(ctx, chat, conn.ConnectionID, "use "+c.Name+" with "+string(c.Arguments)); err != nil {
				return fmt.Errorf("%s: %w", c.Name, err)
			}
		}
		return nil
	}
	shown, err := a.shownSchemas(ctx, conn.ConnectionID)
	if err != nil {
		return fmt.Errorf("the Tools control's list: %w", err)
	}
	for i, tool := range conn.Tools {
		if i == maxToolMessages {
			break
		}
		message := "use " + tool.Name + " with 2 and 3"
		if takesObject(shown[tool.Name]) {
			if other := otherSchema(shown, tool.Name); other != nil {
				message = "use " + tool.Name + " with " + string(other)
			}
		}
		if err := a.useTool(ctx, chat, conn.ConnectionID, message); err != nil {
			return fmt.Errorf("%q: %w", message, err)
		}
	}
	return nil
}

func (a *adapter) register(ctx context.Context) error {
	id := fmt.Sprintf("%d", time.Now().UnixNano())
	var out struct {
		AccessToken string `json:"access_token"`
	}
	err := a.call(ctx, http.MethodPost, "/api/v1/auth/register", map[string]string{
		"email": "conformance" + id + "@example.com", "username": "conf" + id, "full_name": "Conformance Client",
		"password": "conformance-password-1",
	}, &out)
	a.token = out.AccessToken
	return err
}

type connection struct {
	ConnectionID string `json:"connection_id"`
	Tools        []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// connect connects the suite's server; a server that asks for sign-in is
// signed in to through the OAuth routes, as the registry page does.
func (a *adapter) connect(ctx context.Context) (connection, error) {
	var c connection
	err := a.call(ctx, http.MethodPost, "/api/v1/mcp-connections/", map[string]string{"server_id": adapterServerID, "endpoint_url": a.server}, &c)
	if err == nil {
		logf("connected with no sign-in: %d tools", len(c.Tools))
		return c, nil
	}
	logf("connect: %v; signing in", err)
	err = a.signIn(ctx)
	if errors.Is(err, errHandshakeRefused) {
		// The registry page says the server did not take the connection,
		// and why; a user signs in again (a server that moved to another
		// authorization server refuses the old one's token).
		logf("signing in again")
		err = a.signIn(ctx)
	}
	if err != nil {
		return c, fmt.Errorf("sign in: %w", err)
	}
	return a.connectionTo(ctx)
}

// errHandshakeRefused: signed in, but the server did not take the connection.
var errHandshakeRefused = errors.New("signed in, but the server did not accept the connection")

// signIn starts the OAuth sign-in and follows the authorization URL as a
// browser: the authorization server's redirects lead to the product's
// callback, which redirects to the registry page with the outcome.
func (a *adapter) signIn(ctx context.Context) error {
	landed, err := a.browseSignIn(ctx, map[string]string{"server_id": adapterServerID, "endpoint_url": a.server})
	if err != nil {
		return err
	}
	q := landed.Query()
	if q.Get("connected") != "" {
		return nil
	}
	if id := q.Get("detail_id"); id != "" {
		var f struct {
			Detail string `json:"detail"`
		}
		if err := a.call(ctx, http.MethodGet, "/api/v1/mcp-oauth/errors/"+url.PathEscape(id), nil, &f); err == nil {
			logf("the registry says: %s", f.Detail)
		}
	}
	if q.Get("oauth_error") == "handshake_failed" {
		return errHandshakeRefused
	}
	return fmt.Errorf("sign-in did not connect: %s", landed.RawQuery)
}

// browseSignIn starts an OAuth sign-in with start (POST
// /api/v1/mcp-oauth/start) and follows its authorization URL as a browser;
// it returns the page the redirects landed on, whose query says connected
// or why not.
func (a *adapter) browseSignIn(ctx context.Context, start map[string]string) (*url.URL, error) {
	var started struct {
		AuthorizationURL string `json:"authorization_url"`
	}
	if err := a.call(ctx, http.MethodPost, "/api/v1/mcp-oauth/start", start, &started); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, started.AuthorizationURL, nil)
	if err != nil {
		return nil, err
	}
	res, err := a.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	landed := res.Request.URL
	logf("sign-in ended at %s", landed.Redacted())
	return landed, nil
}

// connectionTo finds the user's connection to the suite's server.
func (a *adapter) connectionTo(ctx context.Context) (connection, error) {
	var list []struct {
		connection
		EndpointURL string `json:"endpoint_url"`
	}
	if err := a.call(ctx, http.MethodGet, "/api/v1/mcp-connections/", nil, &list); err != nil {
		return connection{}, err
	}
	for _, c := range list {
		if c.EndpointURL == a.server {
			conn, err := a.withTools(ctx, c.connection)
			logf("signed in: %d tools", len(conn.Tools))
			return conn, err
		}
	}
	return connection{}, errors.New("no connection to the server after sign-in")
}

// chatConnection connects OpenAI with no key: the demo model.
func (a *adapter) chatConnection(ctx context.Context) (string, error) {
	var c struct {
		ID   string `json:"id"`
		Demo bool   `json:"demo"`
	}
	if err := a.call(ctx, http.MethodPost, "/api/v1/mcp-connections/openai", map[string]string{"model": "gpt-4o-mini"}, &c); err != nil {
		return "", err
	}
	if !c.Demo {
		return "", errors.New("the chat connection is not the demo model (a provider key is set)")
	}
	return c.ID, nil
}

// contextToolCalls are the calls a scenario asks for in
// MCP_CONFORMANCE_CONTEXT ({"toolCalls": [{"name", "arguments"}]}).
func contextToolCalls() []struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
} {
	var c struct {
		ToolCalls []struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"toolCalls"`
	}
	_ = json.Unmarshal([]byte(os.Getenv("MCP_CONFORMANCE_CONTEXT")), &c)
	return c.ToolCalls
}

// shownSchemas answers the input schema of each tool of the connection as
// the Tools control shows it (GET /api/v1/mcp-connections/tools).
func (a *adapter) shownSchemas(ctx context.Context, connID string) (map[string]json.RawMessage, error) {
	var view struct {
		Servers []struct {
			ConnectionID string `json:"connection_id"`
			Tools        []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"input_schema"`
			} `json:"tools"`
		} `json:"servers"`
	}
	if err := a.call(ctx, http.MethodGet, "/api/v1/mcp-connections/tools", nil, &view); err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	for _, s := range view.Servers {
		if s.ConnectionID != connID {
			continue
		}
		for _, t := range s.Tools {
			out[t.Name] = t.InputSchema
		}
	}
	return out, nil
}

// takesObject tells whether a schema has a property of type object.
func takesObject(schema json.RawMessage) bool {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return false
	}
	for _, p := range s.Properties {
		if p.Type == "object" {
			return true
		}
	}
	return false
}

// otherSchema is the input schema of a tool other than name (the first by
// name), compacted onto one line.
func otherSchema(shown map[string]json.RawMessage, name string) json.RawMessage {
	var names []string
	for n := range shown {
		if n != name {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	var b bytes.Buffer
	if json.Compact(&b, shown[names[0]]) != nil {
		return nil
	}
	return b.Bytes()
}

// useTool sends message and reads the reply, approving the call when the
// reply pauses for it.
func (a *adapter) useTool(ctx context.Context, chat, mcpConn, message string) error {
	body := map[string]any{"connection_id": chat, "message": message, "mcp_connection_ids": []string{mcpConn}}
	for range 3 {
		pause, err := a.message(ctx, body)
		if err != nil || pause == "" {
			return err
		}
		logf("approving the call asked by %q", message)
		body = map[string]any{"connection_id": chat, "mcp_connection_ids": []string{mcpConn}, "approval": map[string]string{"token": pause, "decision": "approve"}}
	}
	return errors.New("the reply kept asking for approval")
}

// message posts one chat message and reads its stream to its end; it
// answers the approval token when the reply paused for one.
func (a *adapter) message(ctx context.Context, body any) (approval string, err error) {
	res, err := a.send(ctx, http.MethodPost, "/api/v1/mcp-connections/message", body)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		return "", fmt.Errorf("HTTP %d: %s", res.StatusCode, b)
	}
	err = readStream(res.Body, func(event, data string) (bool, error) {
		switch event {
		case "tool_approval":
			var p struct {
				Token string `json:"token"`
			}
			if err := json.Unmarshal([]byte(data), &p); err != nil {
				return true, err
			}
			approval = p.Token
			return true, nil
		case "elicitation":
			return a.answerElicitation(ctx, body, data)
		case "error":
			return true, fmt.Errorf("stream error: %s", data)
		case "":
			if isSignInFrame(data) {
				return true, a.stepUp(ctx, body, data)
			}
		}
		return data == "[DONE]", nil
	})
	return approval, err
}

// readStream reads a reply's SSE stream, logging each data frame and
// handing it, with its event name ("" for plain data), to frame until frame
// says stop; a stream that ends first is an error (no [DONE]).
func readStream(r io.Reader, frame func(event, data string) (stop bool, err error)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 8<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data := strings.TrimPrefix(line, "data: ")
			logf("%s %s", cmpEvent(event), clipLine(data))
			if stop, err := frame(event, data); err != nil || stop {
				return err
			}
			event = ""
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the stream ended without [DONE]")
}

func cmpEvent(e string) string {
	if e == "" {
		return "data"
	}
	return e
}

func clipLine(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// call sends a JSON request and decodes a 2xx answer into out.
func (a *adapter) call(ctx context.Context, method, path string, in, out any) error {
	res, err := a.send(ctx, method, path, in)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: HTTP %d: %s", method, path, res.StatusCode, b)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}

// busyTries is how often a request the product answers 503 (busy: nothing
// was done) is sent, as the web app's user would try again.
const busyTries = 4

func (a *adapter) send(ctx context.Context, method, path string, in any) (*http.Response, error) {
	var b []byte
	if in != nil {
		var err error
		if b, err = json.Marshal(in); err != nil {
			return nil, err
		}
	}
	u, err := url.JoinPath(a.api, path)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(path, "/") && !strings.HasSuffix(u, "/") {
		u += "/"
	}
	for try := 1; ; try++ {
		var body io.Reader
		if b != nil {
			body = bytes.NewReader(b)
		}
		req, err := http.NewRequestWithContext(ctx, method, u, body)
		if err != nil {
			return nil, err
		}
		if b != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if a.token != "" {
			req.Header.Set("Authorization", "Bearer "+a.token)
		}
		res, err := a.http.Do(req)
		if err != nil || res.StatusCode != http.StatusServiceUnavailable || try == busyTries {
			return res, err
		}
		wait := retryAfter(res.Header.Get("Retry-After"))
		res.Body.Close()
		logf("%s %s: busy, trying again in %s", method, path, wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// retryAfter is the wait a 503 asks for (seconds), 1 s when it names none,
// at most 5 s.
func retryAfter(h string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil || n < 0 {
		return time.Second
	}
	return min(time.Duration(n)*time.Second, 5*time.Second)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "adapter: "+format+"\n", args...)
}
