package authapi

import (
	"net/mail"
	"regexp"
	"strings"
	"unicode/utf8"

	"aiwork/shared/httpx"
)

// The messages are SPEC §5's, so the server and the forms say the same thing.
const (
	msgEmailRequired    = "Email is required"
	msgEmailInvalid     = "Invalid email address"
	msgPasswordRequired = "Password is required"
	msgPasswordShort    = "Password must be at least 6 characters"
	msgUsernameRequired = "Username is required"
	msgUsernameShort    = "Username must be at least 3 characters"
	msgFullNameRequired = "Full name is required"
	msgBadCredentials   = "Incorrect email or password"
)

const (
	minPassword = 6
	maxPassword = 72 // bcrypt reads no further
	minUsername = 3
	maxUsername = 30
	maxFullName = 100
	maxEmail    = 254 // SMTP's path limit (RFC 5321 §4.5.3.1.3), less the angle brackets
	maxLocal    = 64
	maxLabel    = 63
)

var (
	// emailShape is the loose shape a sign-in's email must have: an account
	// registered before the stricter rule (deliverable) still signs in.
	emailShape      = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
	usernamePattern = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
)

type registerInput struct {
	Email    string `json:"email"`
	Username string `json:"username"`
	FullName string `json:"full_name"`
	Password string `json:"password"`
}

type loginInput struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func normalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// validateEmail accepts an address the product can mail: registration and
// a reset request. An address mail can never reach would make an account
// that can never be confirmed.
func validateEmail(email string) error {
	switch {
	case email == "":
		return httpx.Invalid(msgEmailRequired)
	case !deliverable(email):
		return httpx.Invalid(msgEmailInvalid)
	}
	return nil
}

// validateLoginEmail is the sign-in's check: the loose shape only, so that
// an address accepted before deliverable existed still signs in.
func validateLoginEmail(email string) error {
	switch {
	case email == "":
		return httpx.Invalid(msgEmailRequired)
	case len(email) > maxEmail || !emailShape.MatchString(email):
		return httpx.Invalid(msgEmailInvalid)
	}
	return nil
}

// deliverable reports whether s is a bare address the mail provider (SES)
// sends to: net/mail's RFC 5322 parser, then the provider's narrower rules.
// No display name or angle brackets (the parsed address is s itself), no
// quoted local part, a dot-atom local part of ASCII characters, and a
// domain name of at least two labels of letters, digits and hyphens (no
// trailing dot, no address literal, no Unicode: shared/go.mod has no IDNA
// library to turn it into the ASCII form SES needs).
func deliverable(s string) bool {
	if len(s) > maxEmail {
		return false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	return dotAtom(s[:at]) && hostName(s[at+1:])
}

// dotAtom: atext runs (RFC 5322 §3.2.3) joined by single dots.
func dotAtom(local string) bool {
	if local == "" || len(local) > maxLocal {
		return false
	}
	for part := range strings.SplitSeq(local, ".") {
		if part == "" {
			return false
		}
		for _, c := range []byte(part) {
			if !isAtext(c) {
				return false
			}
		}
	}
	return true
}

func isAtext(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}

// hostName: labels of letters, digits and hyphens (not at either end),
// at least two of them, the last not all digits (an IP address is not a
// mail domain).
func hostName(d string) bool {
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > maxLabel || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range []byte(l) {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return strings.Trim(labels[len(labels)-1], "0123456789") != ""
}

func validatePassword(pw string) error {
	switch {
	case pw == "":
		return httpx.Invalid(msgPasswordRequired)
	case utf8.RuneCountInString(pw) < minPassword:
		return httpx.Invalid(msgPasswordShort)
	}
	return nil
}

func (in *registerInput) validate() error {
	in.Email = normalizeEmail(in.Email)
	in.Username = strings.TrimSpace(in.Username)
	in.FullName = strings.TrimSpace(in.FullName)
	if err := validateEmail(in.Email); err != nil {
		return err
	}
	switch n := utf8.RuneCountInString(in.Username); {
	case n == 0:
		return httpx.Invalid(msgUsernameRequired)
	case n < minUsername:
		return httpx.Invalid(msgUsernameShort)
	case n > maxUsername:
		return httpx.Invalid("Username must be at most 30 characters")
	case !usernamePattern.MatchString(in.Username):
		return httpx.Invalid("Username may contain only letters, digits, '.', '_' and '-'")
	}
	switch n := utf8.RuneCountInString(in.FullName); {
	case n == 0:
		return httpx.Invalid(msgFullNameRequired)
	case n > maxFullName:
		return httpx.Invalid("Full name must be at most 100 characters")
	}
	if err := validatePassword(in.Password); err != nil {
		return err
	}
	if len(in.Password) > maxPassword {
		return httpx.Invalid("Password must be at most 72 bytes")
	}
	return nil
}

func (in *loginInput) validate() error {
	in.Email = normalizeEmail(in.Email)
	if err := validateLoginEmail(in.Email); err != nil {
		return err
	}
	if in.Password == "" {
		return httpx.Invalid(msgPasswordRequired)
	}
	return nil
}
