// Package storetest gives tests a real DynamoDB engine: one in-memory dynalite
// per test binary (so packages share nothing) and a fresh table per test.
package storetest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"aiwork/shared/config"
	"aiwork/shared/random"
	"aiwork/shared/store"
	"aiwork/shared/testbed/faultproxy"
	"aiwork/shared/testbed/localdynamo"
)

var (
	once     sync.Once
	server   *localdynamo.Server
	errStart error
)

// Main runs the package's tests and stops dynalite afterwards. Use it from
// TestMain: os.Exit(storetest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	server.Stop()
	return code
}

// Endpoint starts (once) and returns the package's dynalite endpoint.
func Endpoint(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		server, errStart = localdynamo.Start(context.Background(), localdynamo.Options{})
	})
	if errStart != nil {
		t.Fatalf("dynalite: %v", errStart)
	}
	return server.Endpoint
}

// Config is a store configuration for a new, empty table on the package's dynalite.
func Config(t testing.TB) config.Store {
	t.Helper()
	return config.Store{TableName: "test-" + random.Hex(6), Endpoint: Endpoint(t), Region: "us-east-1"}
}

// New is a store on a new, empty table of its own.
func New(t testing.TB) *store.Store {
	t.Helper()
	s, _ := NewWithConfig(t)
	return s
}

// NewWithConfig is New that also answers the configuration it used.
func NewWithConfig(t testing.TB) (*store.Store, config.Store) {
	t.Helper()
	cfg := Config(t)
	os.Setenv("AWS_ACCESS_KEY_ID", "local")
	os.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	s, err := store.New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("store: %v", err)
	}
	if err := s.EnsureTable(context.Background()); err != nil {
		t.Fatalf("table %s: %v", cfg.TableName, err)
	}
	return s, cfg
}

// ScanAll answers every item of st's table (for invariants over what is
// stored, such as a secret never held in clear).
func ScanAll(t testing.TB, st *store.Store) []map[string]types.AttributeValue {
	t.Helper()
	var out []map[string]types.AttributeValue
	p := dynamodb.NewScanPaginator(st.DB(), &dynamodb.ScanInput{TableName: aws.String(st.Table()), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		Must(t, err, "scan")
		out = append(out, page.Items...)
	}
	return out
}

// Must fails the test on err.
func Must(t testing.TB, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatal(fmt.Errorf("%s: %w", what, err))
	}
}

// ViaFaultProxy is a fresh table reached through a fault-injecting proxy
// (faultproxy), each table attempt given up after attempt (0: the store's
// default): the store a fault test uses, and the table's own configuration.
func ViaFaultProxy(t testing.TB, attempt time.Duration) (*store.Store, *faultproxy.Proxy, config.Store) {
	t.Helper()
	_, cfg := NewWithConfig(t)
	u, err := url.Parse(cfg.Endpoint)
	Must(t, err, "endpoint")
	proxy := faultproxy.Start(t, u.Host)
	via := cfg
	via.Endpoint, via.AttemptTimeout = proxy.URL(), attempt
	return store.NewFromAWS(config.AWS(via.Region), via), proxy, via
}
