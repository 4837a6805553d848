package domain_test

import (
	"testing"

	"aiwork/shared/domain"
)

func TestCanonicalMailbox(t *testing.T) {
	for _, tt := range []struct{ email, want string }{
		{"bob@example.com", "bob@example.com"},
		{"Bob@Example.COM", "bob@example.com"},
		{"bob+farm1@example.com", "bob@example.com"},
		{"bob+farm+1@example.com", "bob@example.com"},
		{"bob+@example.com", "bob@example.com"},
		{"BOB+Farm@EXAMPLE.com", "bob@example.com"},
		{"b.o.b@example.com", "b.o.b@example.com"}, // dots count outside Gmail
		{"b.o.b+x@gmail.com", "bob@gmail.com"},
		{"B.o.B@GMail.com", "bob@gmail.com"},
		{"b.ob+x@googlemail.com", "bob@gmail.com"},
		{"bob@gmail.com.", "bob@gmail.com"}, // the root's dot
		{`"bob"@example.com`, "bob@example.com"},
		{`"bob+x"@example.com`, "bob@example.com"},
		{`"b\ob"@example.com`, "bob@example.com"},
		{`"b.ob"@gmail.com`, "bob@gmail.com"},
		{"+tag@example.com", "+tag@example.com"}, // nothing before the tag: kept whole
		{"Jörg@BÜCHER.de", "jörg@bücher.de"},
		{"jörg+x@bücher.de", "jörg@bücher.de"},
		{"bob@example.com.au", "bob@example.com.au"},
		{"bob@mail.gmail.com", "bob@mail.gmail.com"}, // not Gmail itself
		{"", ""},
		{"bob", ""},
		{"@example.com", ""},
		{"bob@", ""},
		{`""@example.com`, ""},
	} {
		if got := domain.CanonicalMailbox(tt.email); got != tt.want {
			t.Errorf("CanonicalMailbox(%q) = %q, want %q", tt.email, got, tt.want)
		}
	}
}
