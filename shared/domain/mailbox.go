package domain

import "strings"

// CanonicalMailbox names the mailbox an email address delivers to, so that
// aliases of one mailbox count as one (free uses are per mailbox, not per
// account): lowercased; a quoted local part unquoted; everything from the
// first '+' dropped (sub-addressing, every domain); and for Gmail the dots
// of the local part dropped, googlemail.com being gmail.com. It answers ""
// for a string that is not an address (no '@', or an empty side).
func CanonicalMailbox(email string) string {
	at := strings.LastIndex(email, "@")
	if at <= 0 || at == len(email)-1 {
		return ""
	}
	local := unquoteLocal(strings.ToLower(email[:at]))
	domain := strings.TrimSuffix(strings.ToLower(email[at+1:]), ".")
	if plus := strings.Index(local, "+"); plus > 0 {
		local = local[:plus]
	}
	if domain == "googlemail.com" {
		domain = "gmail.com"
	}
	if domain == "gmail.com" {
		local = strings.ReplaceAll(local, ".", "")
	}
	if local == "" || domain == "" {
		return ""
	}
	return local + "@" + domain
}

// unquoteLocal removes the quotes of a quoted local part ("bob"@x is
// bob@x) and their backslash escapes; any other local part is unchanged.
func unquoteLocal(local string) string {
	if len(local) < 2 || local[0] != '"' || local[len(local)-1] != '"' {
		return local
	}
	var b strings.Builder
	inner := local[1 : len(local)-1]
	for i := 0; i < len(inner); i++ {
		if inner[i] == '\\' && i+1 < len(inner) {
			i++
		}
		b.WriteByte(inner[i])
	}
	return b.String()
}
