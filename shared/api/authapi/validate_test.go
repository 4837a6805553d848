package authapi

import (
	"strings"
	"testing"
)

// deliverable: a bare address SES sends to. Each refused address below
// registered before and could never be confirmed.
func TestDeliverable(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 58) + ".io"
	for _, tt := range []struct {
		addr string
		ok   bool
	}{
		{"ada@example.com", true},
		{"ada.lovelace+work@mail.example.co.uk", true},
		{"o'brien@example.ie", true},
		{"x_y-z@sub-domain.example.io", true},
		{"1@2.example.com", true},
		{"ada@xn--bcher-kva.example", true}, // a Unicode domain in its ASCII form
		{long, true},                        // 254 characters
		{long + "x", false},                 // 255
		{strings.Repeat("a", 65) + "@example.com", false},
		{"<svg/onload=alert(1)>@x.io", false},
		{`a"><img/src=x/onerror=alert(1)>@x.io`, false},
		{"a@x.io.", false},
		{`"a.b"@x.io`, false},
		{`"a b"@x.io`, false},
		{"a..b@x.io", false},
		{".a@x.io", false},
		{"a.@x.io", false},
		{"<a@x.io>", false},
		{"Ada <a@x.io>", false},
		{"a(comment)@x.io", false},
		{"a@x", false},
		{"a@x..io", false},
		{"a@.x.io", false},
		{"a@-x.io", false},
		{"a@x-.io", false},
		{"a@x_y.io", false},
		{"a@[192.0.2.1]", false},
		{"a@192.0.2.1", false},
		{"a@bücher.example", false}, // no IDNA library: Unicode domains are refused
		{"ü@x.io", false},
		{"a@b@x.io", false},
		{"a b@x.io", false},
		{"a@" + strings.Repeat("b", 64) + ".io", false},
		{"", false},
	} {
		if got := deliverable(tt.addr); got != tt.ok {
			t.Errorf("deliverable(%q) = %v, want %v", tt.addr, got, tt.ok)
		}
	}
}
