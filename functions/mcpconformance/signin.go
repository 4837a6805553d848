package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// toolSignIn is what the adapter reads of a tool_signin frame.
type toolSignIn struct {
	ServerID    string `json:"server_id"`
	EndpointURL string `json:"endpoint_url"`
	Scope       string `json:"scope"`
	Token       string `json:"token"`
}

// maxStepUps bounds the sign-ins the adapter does for one reply (the
// product stops asking before).
const maxStepUps = 3

// stepUp does what a user does when a tool call asks for sign-in in the
// middle of a reply (a tool_signin frame): Sign in, the OAuth flow for
// that connection with the scope the server asked for, coming back to the
// chat; then the reply resumes with the frame's token, and its stream is
// read to its end (signing in again when it asks again).
func (a *adapter) stepUp(ctx context.Context, message any, data string) error {
	m, _ := message.(map[string]any)
	for range maxStepUps {
		var frame struct {
			ToolSignin toolSignIn `json:"tool_signin"`
		}
		if err := json.Unmarshal([]byte(data), &frame); err != nil {
			return err
		}
		s := frame.ToolSignin
		logf("the call asks for sign-in with scope %q; signing in", s.Scope)
		if err := a.signInFromChat(ctx, s); err != nil {
			return fmt.Errorf("sign in for the call: %w", err)
		}
		body := map[string]any{"connection_id": m["connection_id"], "mcp_connection_ids": m["mcp_connection_ids"], "signin": map[string]string{"token": s.Token}}
		res, err := a.send(ctx, http.MethodPost, "/api/v1/mcp-connections/message", body)
		if err != nil {
			return err
		}
		next, err := a.readResumed(ctx, body, res)
		if err != nil || next == "" {
			return err
		}
		data = next
	}
	return errors.New("the reply kept asking for sign-in")
}

// readResumed reads a reply resumed after a sign-in to its end; it
// answers the data of a tool_signin frame the reply paused on again.
func (a *adapter) readResumed(ctx context.Context, message any, res *http.Response) (signin string, err error) {
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		return "", fmt.Errorf("resume after sign-in: HTTP %d: %s", res.StatusCode, b)
	}
	return a.followResumed(ctx, message, res.Body)
}

func isSignInFrame(data string) bool {
	var f struct {
		ToolSignin *toolSignIn `json:"tool_signin"`
	}
	return json.Unmarshal([]byte(data), &f) == nil && f.ToolSignin != nil
}

// signInFromChat starts the sign-in a tool_signin frame asks for and
// follows its authorization URL as a browser; the callback sends it back
// to the chat page, saying connected or why not.
func (a *adapter) signInFromChat(ctx context.Context, s toolSignIn) error {
	landed, err := a.browseSignIn(ctx, map[string]string{"server_id": s.ServerID, "endpoint_url": s.EndpointURL, "scope": s.Scope, "return_to": "chat"})
	if err != nil {
		return err
	}
	if landed.Query().Get("connected") != "" {
		return nil
	}
	// Signed in, but the server refused the connection's handshake with
	// the new token (a server that never takes any): the reply is resumed
	// anyway, and the product says the server still refuses.
	if landed.Query().Get("oauth_error") == "handshake_failed" {
		return nil
	}
	return fmt.Errorf("sign-in did not connect: %s", url.QueryEscape(landed.RawQuery))
}

// withTools fills in a connection's tools as the Tools control lists them
// (the connections list, which the sign-in's return leads to, counts them
// only).
func (a *adapter) withTools(ctx context.Context, c connection) (connection, error) {
	if len(c.Tools) > 0 {
		return c, nil
	}
	shown, err := a.shownSchemas(ctx, c.ConnectionID)
	if err != nil {
		return c, fmt.Errorf("the Tools control's list: %w", err)
	}
	for name := range shown {
		c.Tools = append(c.Tools, struct {
			Name string `json:"name"`
		}{Name: name})
	}
	slices.SortFunc(c.Tools, func(x, y struct {
		Name string `json:"name"`
	}) int {
		return strings.Compare(x.Name, y.Name)
	})
	return c, nil
}
