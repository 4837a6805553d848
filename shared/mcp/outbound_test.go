package mcp_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"aiwork/shared/mcp"
)

func TestAddrAllowed(t *testing.T) {
	t.Parallel()
	tenNet := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	strict, local, allowTen := mcp.Policy{}, mcp.Policy{AllowLoopback: true}, mcp.Policy{AllowedNetworks: tenNet}
	tests := []struct {
		addr                       string
		strict, loopback, allowTen bool
	}{
		// Refused ranges, IPv4.
		{"0.0.0.0", false, false, false},
		{"0.1.2.3", false, false, false},
		{"10.1.2.3", false, false, true},
		{"100.64.0.1", false, false, false},
		{"100.127.255.254", false, false, false},
		{"127.0.0.1", false, true, false},
		{"127.8.9.10", false, true, false},
		{"169.254.169.254", false, false, false},
		{"172.16.0.1", false, false, false},
		{"172.31.255.254", false, false, false},
		{"192.168.1.1", false, false, false},
		{"224.0.0.1", false, false, false},
		{"239.255.255.250", false, false, false},
		{"240.0.0.1", false, false, false},
		{"255.255.255.255", false, false, false},
		// Refused ranges, IPv6.
		{"::", false, false, false},
		{"::1", false, true, false},
		{"fc00::1", false, false, false},
		{"fd12:3456::1", false, false, false},
		{"fe80::1", false, false, false},
		{"fe80::1%eth0", false, false, false},
		{"ff02::1", false, false, false},
		// IPv4 hidden in IPv6: mapped, compatible, NAT64, 6to4.
		{"::ffff:127.0.0.1", false, true, false},
		{"::ffff:169.254.169.254", false, false, false},
		{"::ffff:10.1.2.3", false, false, true},
		{"::ffff:192.168.0.1", false, false, false},
		{"::127.0.0.1", false, false, false},
		{"::169.254.169.254", false, false, false},
		{"64:ff9b::a9fe:a9fe", false, false, false},
		{"2002:a9fe:a9fe::1", false, false, false},
		{"2002:7f00:1::1", false, true, false},
		// Public addresses, and neighbours of refused ranges.
		{"8.8.8.8", true, true, true},
		{"1.1.1.1", true, true, true},
		{"11.0.0.1", true, true, true},
		{"100.63.255.255", true, true, true},
		{"100.128.0.1", true, true, true},
		{"172.32.0.1", true, true, true},
		{"169.253.255.255", true, true, true},
		{"2606:4700:4700::1111", true, true, true},
		{"::ffff:8.8.8.8", true, true, true},
		{"64:ff9b::808:808", true, true, true},
	}
	for _, tc := range tests {
		ip := netip.MustParseAddr(tc.addr)
		for _, c := range []struct {
			name string
			p    mcp.Policy
			want bool
		}{{"strict", strict, tc.strict}, {"loopback", local, tc.loopback}, {"allow 10/8", allowTen, tc.allowTen}} {
			if got := c.p.AddrAllowed(ip); got != c.want {
				t.Errorf("%s policy: AddrAllowed(%s) = %v, want %v", c.name, tc.addr, got, c.want)
			}
		}
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		policy  mcp.Policy
		url     string
		wantErr string // part of the detail; "" means allowed
	}{
		{"https public", mcp.Policy{HTTPSOnly: true}, "https://mcp.example.com/mcp", ""},
		{"upper-case scheme", mcp.Policy{HTTPSOnly: true}, "HTTPS://Example.com/mcp", ""},
		{"http allowed locally", mcp.Policy{}, "http://mcp.example.com/mcp", ""},
		{"http refused when https only", mcp.Policy{HTTPSOnly: true}, "http://mcp.example.com/mcp", "must use https"},
		{"other scheme", mcp.Policy{}, "ftp://example.com/", "https:// or http://"},
		{"javascript", mcp.Policy{}, "javascript:alert(1)", "https:// or http://"},
		{"no host", mcp.Policy{}, "http:///mcp", "no host"},
		{"not a URL", mcp.Policy{}, "http://%zz", "not valid"},
		{"private literal", mcp.Policy{}, "http://10.0.0.1/mcp", "private or local address"},
		{"metadata literal", mcp.Policy{AllowLoopback: true}, "http://169.254.169.254/latest/meta-data/", "private or local address"},
		{"mapped metadata literal", mcp.Policy{AllowLoopback: true}, "http://[::ffff:169.254.169.254]/", "private or local address"},
		{"mapped loopback literal", mcp.Policy{}, "http://[::ffff:127.0.0.1]:3001/mcp", "private or local address"},
		{"loopback literal refused", mcp.Policy{}, "http://127.0.0.1:3001/mcp", "private or local address"},
		{"loopback literal allowed", mcp.Policy{AllowLoopback: true}, "http://127.0.0.1:3001/mcp", ""},
		{"v6 loopback allowed", mcp.Policy{AllowLoopback: true}, "http://[::1]:3001/mcp", ""},
		{"allowed network", mcp.Policy{AllowedNetworks: []netip.Prefix{netip.MustParsePrefix("192.168.0.0/16")}}, "http://192.168.4.2/mcp", ""},
		{"host names wait for the dial", mcp.Policy{}, "http://localhost/mcp", ""},
	}
	for _, tc := range tests {
		err := tc.policy.CheckURL(tc.url)
		if tc.wantErr == "" {
			if err != nil {
				t.Errorf("%s: CheckURL(%q) = %v, want nil", tc.name, tc.url, err)
			}
			continue
		}
		var e *mcp.Error
		if !errors.As(err, &e) || e.Kind != mcp.KindRefused || !strings.Contains(e.Detail, tc.wantErr) {
			t.Errorf("%s: CheckURL(%q) = %v, want refused with %q", tc.name, tc.url, err, tc.wantErr)
		}
		if addr := strings.Contains(tc.wantErr, "private"); addr != errors.Is(err, mcp.ErrRefusedAddress) {
			t.Errorf("%s: errors.Is(ErrRefusedAddress) = %v, want %v", tc.name, !addr, addr)
		}
	}
}

// TestClientDial: the check runs on the address actually dialled, so host
// names that resolve to refused addresses are stopped, and nothing reaches
// the server.
func TestClientDial(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		io.WriteString(w, "ok")
	}))
	t.Cleanup(srv.Close)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	at := func(host string) string { return "http://" + net.JoinHostPort(host, strconv.Itoa(port)) + "/" }
	loopNet := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	tests := []struct {
		name   string
		policy mcp.Policy
		url    string
		reach  bool
	}{
		{"loopback refused", mcp.Policy{}, at("127.0.0.1"), false},
		{"localhost resolves to loopback, refused", mcp.Policy{}, at("localhost"), false},
		{"mapped loopback refused", mcp.Policy{}, at("::ffff:127.0.0.1"), false},
		{"loopback allowed", mcp.Policy{AllowLoopback: true}, at("127.0.0.1"), true},
		{"localhost allowed", mcp.Policy{AllowLoopback: true}, at("localhost"), true},
		{"mapped loopback allowed", mcp.Policy{AllowLoopback: true}, at("::ffff:127.0.0.1"), true},
		{"allowed network overrides", mcp.Policy{AllowedNetworks: loopNet}, at("127.0.0.1"), true},
		{"https only refuses http", mcp.Policy{AllowLoopback: true, HTTPSOnly: true}, at("127.0.0.1"), false},
		// Refused before connecting: these never leave the machine.
		{"private", mcp.Policy{}, at("10.255.255.1"), false},
		{"metadata", mcp.Policy{AllowLoopback: true}, at("169.254.169.254"), false},
		{"mapped metadata", mcp.Policy{AllowLoopback: true}, at("::ffff:169.254.169.254"), false},
		{"unique local v6", mcp.Policy{}, at("fd00::1"), false},
		{"link-local v6", mcp.Policy{}, at("fe80::1"), false},
	}
	for _, tc := range tests {
		before := hits.Load()
		resp, err := tc.policy.Client().Get(tc.url)
		if err == nil {
			resp.Body.Close()
		}
		reached := hits.Load() > before
		if reached != tc.reach || (err == nil) != tc.reach {
			t.Errorf("%s: reached = %v, err = %v; want reached %v", tc.name, reached, err, tc.reach)
			continue
		}
		if !tc.reach {
			var e *mcp.Error
			if !errors.As(err, &e) || e.Kind != mcp.KindRefused {
				t.Errorf("%s: err = %v, want a refusal", tc.name, err)
			}
		}
	}
}

// TestClientRedirects: each hop is checked before it is dialled (so a
// redirect to the metadata address sends no packet), and hops are capped.
func TestClientRedirects(t *testing.T) {
	t.Parallel()
	var hops atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hops.Add(1)
		switch r.URL.Path {
		case "/metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/mapped":
			http.Redirect(w, r, "http://[::ffff:169.254.169.254]/", http.StatusTemporaryRedirect)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/once":
			http.Redirect(w, r, "/done", http.StatusFound)
		default:
			io.WriteString(w, "done")
		}
	}))
	t.Cleanup(srv.Close)
	hc := loopback.Client()
	for _, path := range []string{"/metadata", "/mapped"} {
		_, err := hc.Get(srv.URL + path)
		var e *mcp.Error
		if !errors.As(err, &e) || e.Kind != mcp.KindRefused || !errors.Is(err, mcp.ErrRefusedAddress) {
			t.Errorf("redirect %s: err = %v, want a refused address", path, err)
		}
		// The refusal came from the redirect check, not from a dial attempt.
		var opErr *net.OpError
		if errors.As(err, &opErr) {
			t.Errorf("redirect %s: a dial was attempted: %v", path, opErr)
		}
	}

	hops.Store(0)
	resp, err := hc.Get(srv.URL + "/loop")
	if err == nil {
		resp.Body.Close()
		t.Fatal("endless redirects were followed")
	}
	if got, want := hops.Load(), int32(1+mcp.DefaultMaxRedirects); got != want {
		t.Errorf("requests = %d, want %d (first + %d redirects)", got, want, mcp.DefaultMaxRedirects)
	}

	resp, err = hc.Get(srv.URL + "/once")
	if err != nil {
		t.Fatalf("a redirect within the rules: %v", err)
	}
	resp.Body.Close()
}

// TestClientBodyCap: a body up to the cap reads whole; one byte more fails.
func TestClientBodyCap(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := map[string]int{"/small-ok": 1024, "/small-over": 1025, "/default-ok": mcp.DefaultMaxBodyBytes, "/default-over": mcp.DefaultMaxBodyBytes + 1}[r.URL.Path]
		w.Write([]byte(strings.Repeat("x", n)))
	}))
	t.Cleanup(srv.Close)
	small := loopback.ClientWithLimits(mcp.Limits{MaxBodyBytes: 1024})
	tests := []struct {
		client  *http.Client
		path    string
		wantErr bool
	}{
		{small, "/small-ok", false},
		{small, "/small-over", true},
		{loopback.Client(), "/default-ok", false},
		{loopback.Client(), "/default-over", true},
	}
	for _, tc := range tests {
		resp, err := tc.client.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if got := errors.Is(err, mcp.ErrResponseTooLarge); got != tc.wantErr {
			t.Errorf("%s: read err = %v, want too large %v", tc.path, err, tc.wantErr)
		}
	}
}

func TestParseAllowedNetworks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    string // the prefixes joined by spaces
		wantErr string
	}{
		{"", "", ""},
		{" , ", "", ""},
		{"10.0.0.0/8", "10.0.0.0/8", ""},
		{"10.0.0.0/8, 192.168.1.0/24 ,fd00::/8", "10.0.0.0/8 192.168.1.0/24 fd00::/8", ""},
		{"10.1.2.3/8", "10.0.0.0/8", ""},
		{"10.0.0.7", "10.0.0.7/32", ""},
		{"fd00::7", "fd00::7/128", ""},
		{"10.0.0.0/8,nonsense", "", `"nonsense"`},
		{"10.0.0.0/33", "", `"10.0.0.0/33"`},
	}
	for _, tc := range tests {
		got, err := mcp.ParseAllowedNetworks(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), mcp.EnvAllowedNetworks) {
				t.Errorf("ParseAllowedNetworks(%q) err = %v, want one naming %s", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseAllowedNetworks(%q): %v", tc.in, err)
			continue
		}
		var parts []string
		for _, p := range got {
			parts = append(parts, p.String())
		}
		if s := strings.Join(parts, " "); s != tc.want {
			t.Errorf("ParseAllowedNetworks(%q) = %q, want %q", tc.in, s, tc.want)
		}
	}
}
