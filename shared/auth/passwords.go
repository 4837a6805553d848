package auth

import (
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// PasswordCost is bcrypt's work factor for new hashes.
var PasswordCost = bcrypt.DefaultCost

// HashPassword hashes a password with bcrypt.
func HashPassword(pw string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(pw), PasswordCost)
	return string(h), err
}

// dummyHash is compared against when the account does not exist, so that a
// wrong email costs as much time as a wrong password and reveals nothing.
// It is made on first use: hashing at package init would add ~100 ms to
// every Lambda cold start.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("not-a-real-password"), bcrypt.DefaultCost)
	return h
})

// CheckPassword reports whether pw matches hash; an empty hash (an account
// without a password, e.g. Google-only) never matches but costs the same.
func CheckPassword(hash, pw string) bool {
	if hash == "" {
		_ = bcrypt.CompareHashAndPassword(dummyHash(), []byte(pw))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(pw)) == nil
}
