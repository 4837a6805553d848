package authapi

import (
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
	maxEmail    = 254
)

var (
	emailPattern    = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
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

func validateEmail(email string) error {
	switch {
	case email == "":
		return httpx.Invalid(msgEmailRequired)
	case len(email) > maxEmail || !emailPattern.MatchString(email):
		return httpx.Invalid(msgEmailInvalid)
	}
	return nil
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
	if err := validateEmail(in.Email); err != nil {
		return err
	}
	if in.Password == "" {
		return httpx.Invalid(msgPasswordRequired)
	}
	return nil
}
