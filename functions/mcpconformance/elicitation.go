package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// answerElicitation answers a server's question (the elicitation event) as
// a user would: Submit with the form as the card pre-fills it, each field's
// default (SEP-1034), or Done for a page. A question the call holds open is
// acknowledged (202) and the reply goes on in its own stream (done false);
// a reply paused on one resumes in the answer's stream, read here to its
// end (done true).
func (a *adapter) answerElicitation(ctx context.Context, message any, data string) (done bool, err error) {
	var q struct {
		Token           string `json:"token"`
		Mode            string `json:"mode"`
		RequestedSchema struct {
			Properties map[string]struct {
				Default any `json:"default"`
			} `json:"properties"`
		} `json:"requested_schema"`
	}
	if err := json.Unmarshal([]byte(data), &q); err != nil {
		return false, err
	}
	answer := map[string]any{"token": q.Token, "action": "accept"}
	if q.Mode != "url" {
		content := map[string]any{}
		for name, p := range q.RequestedSchema.Properties {
			if p.Default != nil {
				content[name] = p.Default
			}
		}
		answer["content"] = content
	}
	m, _ := message.(map[string]any)
	body := map[string]any{"connection_id": m["connection_id"], "mcp_connection_ids": m["mcp_connection_ids"], "elicitation": answer}
	logf("answering the server's question with %v", answer["content"])
	res, err := a.send(ctx, http.MethodPost, "/api/v1/mcp-connections/message", body)
	if err != nil {
		return false, err
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusAccepted:
		_, _ = io.Copy(io.Discard, res.Body)
		return false, nil
	case http.StatusOK:
		signin, err := a.followResumed(ctx, body, res.Body)
		if err == nil && signin != "" {
			// The resumed call asks for sign-in: as a reply the message's own stream pauses on.
			err = a.stepUp(ctx, body, signin)
		}
		return true, err
	}
	b, _ := io.ReadAll(res.Body)
	return false, fmt.Errorf("answer: HTTP %d: %s", res.StatusCode, b)
}

// followResumed reads a resumed reply's stream to its end, answering the
// questions it asks again; a reply that pauses for sign-in again returns
// that tool_signin frame's data.
func (a *adapter) followResumed(ctx context.Context, message any, r io.Reader) (signin string, err error) {
	err = readStream(r, func(event, data string) (bool, error) {
		switch {
		case event == "elicitation":
			return a.answerElicitation(ctx, message, data)
		case event == "error":
			return true, fmt.Errorf("stream error: %s", data)
		case event == "tool_approval":
			return true, errors.New("a resumed reply asked for an approval")
		case event == "" && isSignInFrame(data):
			signin = data
			return true, nil
		}
		return data == "[DONE]", nil
	})
	return signin, err
}
