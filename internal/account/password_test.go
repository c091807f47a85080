package account

import (
	"errors"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/store/memstore"
)

// cheap are argon2id parameters fast enough for tests.
var cheap = Params{Memory: 64, Time: 1, Threads: 1}

func TestHashPassword(t *testing.T) {
	h, err := hashPassword("correct horse battery staple", OWASP)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("the hash %q does not record argon2id with OWASP's parameters", h)
	}
	again, _ := hashPassword("correct horse battery staple", OWASP)
	if again == h {
		t.Error("two hashes of one password are equal: no random salt")
	}
	for _, tc := range []struct {
		password string
		want     bool
	}{
		{"correct horse battery staple", true},
		{"correct horse battery stapl", false},
		{"Correct horse battery staple", false},
		{"", false},
	} {
		ok, err := verifyPassword(tc.password, h)
		if err != nil || ok != tc.want {
			t.Errorf("verify %q: %t, %v; want %t", tc.password, ok, err, tc.want)
		}
	}
	// A hash made with other parameters verifies with its own.
	old, _ := hashPassword("another good secret", cheap)
	if ok, err := verifyPassword("another good secret", old); !ok || err != nil {
		t.Errorf("a hash of older parameters: %t, %v", ok, err)
	}
}

func TestCheckPassword(t *testing.T) {
	for _, tc := range []struct {
		name, password string
		ok             bool
	}{
		{"7 characters", "abcdefg", false},
		{"8 characters", "zq8#kfw2", true},
		{"8 characters in 24 bytes", "ĳĳĳĳĳĳĳĳ", true},
		{"257 bytes", strings.Repeat("k", 257), false},
		{"256 bytes", strings.Repeat("k", 256), true},
		{"common", "password", false},
		{"common in capitals", "PASSWORD1", false},
		{"not UTF-8", "abcdefgh\xff", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckPassword(tc.password)
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrWeakPassword)) {
				t.Errorf("CheckPassword: %v, want ok %t", err, tc.ok)
			}
		})
	}
}

var (
	memoryParam = regexp.MustCompile(`m=(\d+)`)
	canonical   = regexp.MustCompile(`^\$argon2id\$v=19\$m=[1-9]\d*,t=[1-9]\d*,p=[1-9]\d*\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$`)
)

// FuzzVerifyPassword: a stored hash that is not one this program made is
// an error, never a panic or a match.
func FuzzVerifyPassword(f *testing.F) {
	good, _ := hashPassword("correct horse battery staple", cheap)
	for _, s := range []string{good, "", "$argon2id$v=19$m=64,t=1,p=1$$", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5",
		"$argon2id$v=19$m=0,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=18$m=64,t=1,p=1$c2FsdA$a2V5", strings.Replace(good, "$", "$$", 1)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, encoded string) {
		// Large memory parameters are legal but slow: not this test's point.
		for _, m := range memoryParam.FindAllStringSubmatch(encoded, -1) {
			if n, err := strconv.Atoi(m[1]); err != nil || n > 1024 {
				t.Skip()
			}
		}
		ok, err := verifyPassword("correct horse battery staple", encoded)
		if err != nil && ok {
			t.Errorf("%q: a match and an error", encoded)
		}
		if ok && !canonical.MatchString(encoded) {
			t.Errorf("%q matched, not in the one form hashPassword writes", encoded)
		}
	})
}

// The hash an unknown name is checked against has the parameters of real
// ones, so that checking costs as much, matches no password, and is made
// without running argon2: a server start would otherwise spend that run
// (and its 19 MiB) on it.
func TestDummyHash(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s := New(memstore.New(), Options{Params: OWASP})
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("New allocated %d KiB: the dummy hash was computed", grew>>10)
	}
	if !strings.HasPrefix(s.dummy, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("the dummy hash %q does not have the parameters of a real one", s.dummy)
	}
	for _, password := range []string{"", "correct horse battery staple"} {
		if ok, err := verifyPassword(password, s.dummy); ok || err != nil {
			t.Errorf("verify %q against the dummy hash: %v, %v; want false, nil", password, ok, err)
		}
	}
	if other := New(memstore.New(), Options{Params: OWASP}); other.dummy == s.dummy {
		t.Error("two services have the same dummy hash")
	}
}
