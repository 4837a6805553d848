package apitest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/seeddata"
	"aiwork/shared/store"
)

// Stack is a route tree (the whole API, as the devserver mounts it) on a
// fresh table, with the tokens its users sign in with: what the API
// packages' tests drive.
type Stack struct {
	T      *testing.T
	H      http.Handler
	St     *store.Store
	Tokens *auth.Tokens
}

// User creates a confirmed account with a session and answers its id and
// token (see User).
func (s *Stack) User(name string) (uid, token string) {
	s.T.Helper()
	return User(s.T, s.St, s.Tokens, name)
}

// Do sends one request as token ("" for none).
func (s *Stack) Do(method, path, token, body string) *httptest.ResponseRecorder {
	return Do(s.H, method, path, token, body, nil)
}

// Update applies an update expression to one item: how a test sets what
// no route sets (an admin's right, payouts Stripe enabled).
func (s *Stack) Update(pk, sk, expr string, values map[string]types.AttributeValue) {
	s.T.Helper()
	_, err := s.St.DB().UpdateItem(context.Background(), &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.St.Table()),
		Key:                       map[string]types.AttributeValue{store.AttrPK: &types.AttributeValueMemberS{Value: pk}, store.AttrSK: &types.AttributeValueMemberS{Value: sk}},
		UpdateExpression:          aws.String(expr),
		ExpressionAttributeValues: values,
	})
	if err != nil {
		s.T.Fatalf("update %s: %v", pk, err)
	}
}

// Admin makes a user with admin rights and a session, and answers its token.
func (s *Stack) Admin(name string) string {
	s.T.Helper()
	uid, token := s.User(name)
	s.Update(store.PKUser+uid, "PROFILE", "SET is_superuser = :t", map[string]types.AttributeValue{":t": &types.AttributeValueMemberBOOL{Value: true}})
	return token
}

// EnablePayouts marks creator uid's payouts enabled, as Stripe's
// account.updated does once onboarding is complete.
func (s *Stack) EnablePayouts(uid string) {
	s.T.Helper()
	s.Update(store.PKUser+uid, "CREATOR", "SET payouts_status = :s, charges_enabled = :t, payouts_enabled = :t",
		map[string]types.AttributeValue{":s": &types.AttributeValueMemberS{Value: "enabled"}, ":t": &types.AttributeValueMemberBOOL{Value: true}})
}

// PutCatalogue puts the categories and the given prompts in st.
func PutCatalogue(t testing.TB, st *store.Store, prompts ...domain.Prompt) {
	t.Helper()
	ctx := context.Background()
	for _, c := range seeddata.Categories {
		if err := st.PutCategory(ctx, c); err != nil {
			t.Fatalf("category: %v", err)
		}
	}
	for _, p := range prompts {
		if err := st.PutPrompt(ctx, p); err != nil {
			t.Fatalf("prompt: %v", err)
		}
	}
}
