// Package jsonscan reads values at the start of a JSON text as
// encoding/json writes them, without reflection and without allocating:
// for the hand-written decoders of the messages every node of a cluster
// decodes many times a move. Each function reports false for any other
// spelling (white space, an escape, an exponent, ...), which its caller
// leaves to encoding/json; what it accepts, it reads as encoding/json
// would.
package jsonscan

import "unicode/utf8"

// Int reads the integer at the start of v, an optional minus (if signed)
// and then 0 or digits without a leading zero, at most 18 of them, and
// returns it and its length. What follows it is the caller's to check: a
// fraction or an exponent makes it a number encoding/json refuses for an
// integer.
func Int[T ~string | ~[]byte](v T, signed bool) (int64, int, bool) {
	i, neg := 0, false
	if signed && len(v) > 0 && v[0] == '-' {
		i, neg = 1, true
	}
	start := i
	var x int64
	for ; i < len(v) && v[i] >= '0' && v[i] <= '9'; i++ {
		x = x*10 + int64(v[i]-'0')
	}
	if digits := i - start; digits == 0 || digits > 18 || digits > 1 && v[start] == '0' {
		return 0, 0, false
	}
	if neg {
		x = -x
	}
	return x, i, true
}

// Text reads the string at the start of v, without escapes or control
// characters and in UTF-8 (which encoding/json decodes unchanged), and
// returns its contents, a part of v, and its length.
func Text(v string) (string, int, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", 0, false
	}
	for i := 1; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			return v[1:i], i + 1, utf8.ValidString(v[1:i])
		case c == '\\' || c < 0x20:
			return "", 0, false
		}
	}
	return "", 0, false
}

// Bool reads true or false at the start of v, and returns it and its
// length.
func Bool(v string) (bool, int, bool) {
	switch {
	case len(v) >= 4 && v[:4] == "true":
		return true, 4, true
	case len(v) >= 5 && v[:5] == "false":
		return false, 5, true
	}
	return false, 0, false
}
