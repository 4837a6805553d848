package localdynamo_test

import (
	"context"
	"net"
	"net/url"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"aiwork/shared/config"
	"aiwork/shared/store"
	"aiwork/shared/testbed/localdynamo"
)

// A client that closes its connection before dynalite answered (a request
// cancelled mid-call: a browser that navigated away, a caller's deadline)
// must not stop the engine. dynalite itself throws from the request's
// error listener then, and every later call of every user of the local
// table failed until a restart.
func TestARequestCutHalfwayLeavesTheEngineUp(t *testing.T) {
	srv, err := localdynamo.Start(context.Background(), localdynamo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	u, err := url.Parse(srv.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		// The headers announce a body that never comes in full.
		_, err = c.Write([]byte("POST / HTTP/1.1\r\nHost: " + u.Host + "\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n" +
			"Content-Type: application/x-amz-json-1.0\r\nContent-Length: 100\r\n\r\n{\"Lim"))
		if err != nil {
			t.Fatal(err)
		}
		_ = c.Close()
	}
	st := store.NewFromAWS(config.AWS("us-east-1"), config.Store{Endpoint: srv.Endpoint, TableName: "t", Region: "us-east-1"})
	if _, err := st.DB().ListTables(context.Background(), &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("the engine after requests cut halfway: %v", err)
	}
}
