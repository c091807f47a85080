package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestInt(t *testing.T) {
	tests := []struct {
		v      string
		signed bool
		want   int64
		n      int
		ok     bool
	}{
		{"0", true, 0, 1, true},
		{"17,", false, 17, 2, true},
		{"-42}", true, -42, 3, true},
		{"-0", true, 0, 2, true},
		{"-1", false, 0, 0, false},
		{"01", true, 0, 0, false},
		{"", true, 0, 0, false},
		{"-", true, 0, 0, false},
		{"123456789012345678", false, 123456789012345678, 18, true},
		{"1234567890123456789", false, 0, 0, false},
		{"1.5", true, 1, 1, true}, // the caller refuses what follows
	}
	for _, tt := range tests {
		x, n, ok := Int(tt.v, tt.signed)
		if x != tt.want || n != tt.n || ok != tt.ok {
			t.Errorf("Int(%q, %v) = %d, %d, %v; want %d, %d, %v", tt.v, tt.signed, x, n, ok, tt.want, tt.n, tt.ok)
		}
		if bx, bn, bok := Int([]byte(tt.v), tt.signed); bx != x || bn != n || bok != ok {
			t.Errorf("Int of bytes %q = %d, %d, %v; of the string %d, %d, %v", tt.v, bx, bn, bok, x, n, ok)
		}
	}
}

func TestText(t *testing.T) {
	for _, tt := range []struct {
		v, want string
		n       int
		ok      bool
	}{
		{`"abc",`, "abc", 5, true},
		{`""`, "", 2, true},
		{`"Zoë <&>"}`, "Zoë <&>", 10, true},
		{`"a\"b"`, "", 0, false},
		{`"a` + "\n" + `"`, "", 0, false},
		{`"a` + "\xff" + `"`, "\xff", 0, false},
		{`"abc`, "", 0, false},
		{`abc"`, "", 0, false},
	} {
		s, n, ok := Text(tt.v)
		if ok != tt.ok || ok && (s != tt.want || n != tt.n) {
			t.Errorf("Text(%q) = %q, %d, %v; want %q, %d, %v", tt.v, s, n, ok, tt.want, tt.n, tt.ok)
		}
		if ok {
			var want string
			if err := json.Unmarshal([]byte(tt.v[:n]), &want); err != nil || want != s {
				t.Errorf("Text(%q) = %q; encoding/json: %q, %v", tt.v, s, want, err)
			}
		}
	}
}

func TestBool(t *testing.T) {
	for _, tt := range []struct {
		v        string
		want, ok bool
		n        int
	}{{"true,", true, true, 4}, {"false}", false, true, 5}, {"tru", false, false, 0}, {"null", false, false, 0}} {
		b, n, ok := Bool(tt.v)
		if b != tt.want || ok != tt.ok || n != tt.n {
			t.Errorf("Bool(%q) = %v, %d, %v; want %v, %d, %v", tt.v, b, n, ok, tt.want, tt.n, tt.ok)
		}
	}
}
