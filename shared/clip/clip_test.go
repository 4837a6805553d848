package clip_test

import (
	"testing"

	"aiwork/shared/clip"
)

func TestRunes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"été!", 3, "été"},
		{"😀😀😀😀", 2, "😀😀"},
		{"abc", 0, ""},
	} {
		if got := clip.Runes(tc.s, tc.n); got != tc.want {
			t.Errorf("Runes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestWithEllipsis(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"ééé", 3, "ééé"},
		{"éééé", 3, "ééé…"},
		{"", 0, ""},
	} {
		if got := clip.WithEllipsis(tc.s, tc.n); got != tc.want {
			t.Errorf("WithEllipsis(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
