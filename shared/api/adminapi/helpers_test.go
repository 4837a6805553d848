package adminapi_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/api/apitest"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/local/devstack"
	"aiwork/shared/store"
	"aiwork/shared/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

var jwtSecret = []byte("admin-test-secret-admin-test-secret")

const admin = "/api/v1/admin/"

// stack is the whole API (as the devserver mounts it) on a fresh table
// with the sample categories and the given prompts.
type stack struct{ *apitest.Stack }

func newStack(t *testing.T, prompts ...domain.Prompt) *stack {
	t.Helper()
	return newStackFree(t, 5, prompts...)
}

// newStackFree is newStack with free uses free per user.
func newStackFree(t *testing.T, free int, prompts ...domain.Prompt) *stack {
	t.Helper()
	return newStackWith(t, func(*devstack.Config) {}, free, prompts...)
}

// newStackWith is newStackFree with the stack's configuration changed by
// change first.
func newStackWith(t *testing.T, change func(*devstack.Config), free int, prompts ...domain.Prompt) *stack {
	t.Helper()
	st, storeCfg := storetest.NewWithConfig(t)
	apitest.PutCatalogue(t, st, prompts...)
	cfg := devstack.ConfigFor(storeCfg, jwtSecret, free, "whsec_admin_test")
	change(&cfg)
	h, err := devstack.Handler(st, cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	return &stack{&apitest.Stack{T: t, H: h, St: st, Tokens: auth.NewTokens(jwtSecret, time.Hour)}}
}

// admin makes a confirmed admin with a session.
func (s *stack) admin(name string) (uid, token string) {
	s.T.Helper()
	uid, token = s.User(name)
	if _, err := s.St.MarkVerified(context.Background(), uid, true); err != nil {
		s.T.Fatal(err)
	}
	return uid, token
}

// setAdmin changes a stored user's admin right directly in the table (the
// token stays as it was).
func (s *stack) setAdmin(uid string, on bool) {
	s.T.Helper()
	_, err := s.St.DB().UpdateItem(context.Background(), &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.St.Table()),
		Key:                       map[string]types.AttributeValue{store.AttrPK: &types.AttributeValueMemberS{Value: store.PKUser + uid}, store.AttrSK: &types.AttributeValueMemberS{Value: "PROFILE"}},
		UpdateExpression:          aws.String("SET is_superuser = :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberBOOL{Value: on}},
	})
	storetest.Must(s.T, err, "set admin")
}

type promptJSON struct {
	ID           string  `json:"id"`
	Title        string  `json:"title"`
	Description  string  `json:"description"`
	Content      string  `json:"content"`
	Price        float64 `json:"price"`
	CategoryID   string  `json:"category_id"`
	CategoryName string  `json:"category_name"`
	Published    bool    `json:"published"`
	Version      int     `json:"version"`
	Stats        struct {
		FreeUses  int     `json:"free_uses"`
		Purchases int     `json:"purchases"`
		Revenue   float64 `json:"revenue"`
	} `json:"stats"`
}

type pageJSON[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"next_cursor"`
	Total      int    `json:"total"`
}

type auditJSON struct {
	Action     string          `json:"action"`
	ActorID    string          `json:"actor_id"`
	ActorEmail string          `json:"actor_email"`
	TargetType string          `json:"target_type"`
	TargetID   string          `json:"target_id"`
	Before     json.RawMessage `json:"before"`
	After      json.RawMessage `json:"after"`
}

func decode[T any](t *testing.T, w *httptest.ResponseRecorder, status int) T {
	t.Helper()
	return apitest.Decode[T](t, w, status)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
