package chatapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/chat/chattest"
	"aiwork/shared/store/storetest"
)

// A reply kept with its conversation and paused for an approval keeps no
// usable token in the table: its stored tool_approval frame has the
// approval's id (the token's hash) instead, which a reloaded page answers
// it by, with the user's session.
func TestPausedReplyKeepsNoToken(t *testing.T) {
	t.Parallel()
	s := newToolStack(t, nil, nil)
	token, conn, mcpID := s.referenceUser()
	conv := s.newConversation(token, "Logging")
	w := s.sendWithin(token, map[string]any{"connection_id": conn, "message": "use toggle-simulated-logging", "context": []any{},
		"mcp_connection_ids": []string{mcpID}, "conversation_id": conv.ID}, patience)
	r := parseReply(t, withoutMessageIDs(w.Body.String()))
	if r.approval == nil || r.approval.Token == "" {
		t.Fatalf("no approval: %s", r.raw)
	}
	raw := r.approval.Token
	sum := sha256.Sum256([]byte(raw))
	id := hex.EncodeToString(sum[:])
	if !strings.Contains(r.raw, `"id":"`+id+`"`) {
		t.Errorf("the live tool_approval event has no id %s:\n%s", id, r.raw)
	}
	tableHolds := func(what string) {
		t.Helper()
		out, err := s.st.DB().Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(s.st.Table())})
		storetest.Must(t, err, "scan")
		if out.LastEvaluatedKey != nil {
			t.Fatal("the table is larger than one scan page")
		}
		if len(out.Items) < 5 {
			t.Fatalf("the scan found %d items: not the whole table", len(out.Items))
		}
		for _, item := range out.Items {
			if text := itemText(&types.AttributeValueMemberM{Value: item}); strings.Contains(text, raw) {
				t.Errorf("%s: an item holds the raw approval token: %s", what, text)
			}
		}
	}
	tableHolds("paused")

	msgs := s.messages(token, conv.ID)
	last := msgs[len(msgs)-1]
	if len(last.Blocks) == 0 {
		t.Fatalf("the paused reply has no blocks: %+v", last)
	}
	var frame struct {
		Approval map[string]json.RawMessage `json:"tool_approval"`
	}
	storetest.Must(t, json.Unmarshal(last.Blocks[len(last.Blocks)-1].Frame, &frame), "stored frame")
	if _, has := frame.Approval["token"]; has || string(frame.Approval["id"]) != `"`+id+`"` || frame.Approval["call"] == nil {
		t.Fatalf("stored tool_approval %s, want its id and call, no token", last.Blocks[len(last.Blocks)-1].Frame)
	}

	// A reloaded page has only the id: with the session, it answers.
	chattest.WantError(t, s.send(token, map[string]any{"connection_id": conn, "approval": map[string]string{"decision": "approve"}}), http.StatusBadRequest)
	w = s.sendWithin(token, map[string]any{"connection_id": conn, "approval": map[string]string{"id": id, "decision": "approve"}}, patience)
	if w.Code != http.StatusOK {
		t.Fatalf("answered by its id: %d %s", w.Code, w.Body)
	}
	if got := parseReply(t, withoutMessageIDs(w.Body.String())); len(got.results) != 1 || got.results[0].IsError || !got.done {
		t.Fatalf("answered by its id: %+v, want the tool's result", got)
	}
	if e := chattest.WantError(t, s.send(token, toolMsg{ConnectionID: conn, Approval: &approvalInput{Token: raw, Decision: "approve"}}), http.StatusConflict); !strings.Contains(e.Detail, "already answered") {
		t.Errorf("its token after its id answered: %q", e.Detail)
	}
	tableHolds("answered")
}

// withoutMessageIDs is an SSE body without the message_ids frame a kept
// reply starts with (parseReply knows the reply's frames only).
func withoutMessageIDs(body string) string {
	var out []string
	for _, f := range chattest.Frames(body) {
		if !strings.HasPrefix(f, `data: {"message_ids"`) {
			out = append(out, f)
		}
	}
	return strings.Join(out, "")
}

// itemText is every name, string and byte value in av, at any depth.
func itemText(av types.AttributeValue) string {
	var b strings.Builder
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		b.WriteString(v.Value)
	case *types.AttributeValueMemberSS:
		b.WriteString(strings.Join(v.Value, " "))
	case *types.AttributeValueMemberB:
		b.Write(v.Value)
	case *types.AttributeValueMemberBS:
		for _, x := range v.Value {
			b.Write(x)
		}
	case *types.AttributeValueMemberL:
		for _, e := range v.Value {
			b.WriteString(itemText(e) + " ")
		}
	case *types.AttributeValueMemberM:
		for k, e := range v.Value {
			b.WriteString(k + "=" + itemText(e) + " ")
		}
	default:
		fmt.Fprint(&b, v)
	}
	return b.String()
}
