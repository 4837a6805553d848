// Package clip cuts text that goes into messages, names and stored fields
// to a length counted in characters (runes), never inside one: a cut made
// in bytes can split a character and leave invalid UTF-8.
package clip

import "unicode/utf8"

// Runes is s cut to at most n characters.
func Runes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// WithEllipsis is s cut to at most n characters and, when it was cut, "…"
// after them (for a reader who should see that more was there).
func WithEllipsis(s string, n int) string {
	if cut := Runes(s, n); len(cut) < len(s) {
		return cut + "…"
	}
	return s
}
