package chatapi_test

import (
	"net/http"
	"strings"
	"testing"

	"aiwork/shared/chat/chattest"
)

// An approval answered from another of the user's chat connections is
// refused and left for the right one: that one still runs the tool.
func TestToolApprovalFromAnotherConnectionKeepsIt(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	token, conn, _, r := s.pausedReply()
	other := s.connect(token, "openai", "gpt-4o")
	for range 2 {
		w := s.send(token, toolMsg{ConnectionID: other, Approval: &approvalInput{Token: r.approval.Token, Decision: "approve"}})
		if e := chattest.WantError(t, w, http.StatusConflict); !strings.Contains(e.Detail, "belongs to another chat connection") {
			t.Errorf("another connection's answer: detail %q", e.Detail)
		}
	}
	got := s.sendTool(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: r.approval.Token, Decision: "approve"}})
	if len(got.results) != 1 || got.results[0].IsError || !got.done {
		t.Fatalf("the right connection's answer after a refused one: %+v, want the tool's result\n%s", got, got.raw)
	}
	w := s.send(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: r.approval.Token, Decision: "approve"}})
	if e := chattest.WantError(t, w, http.StatusConflict); !strings.Contains(e.Detail, "already answered") {
		t.Errorf("replay after the run: detail %q", e.Detail)
	}
}
