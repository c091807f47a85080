package protocol

import (
	"errors"
	"fmt"
)

// A Refusal is a sentinel error of a refused request that carries its
// code. The packages that refuse requests (the table, its chat, the
// accounts) declare each sentinel with NewRefusal, so that a sentinel and
// its code are written once, side by side: the HTTP and WebSocket answers
// and the passing of a refusal from one server to another take the code
// from the sentinel, and the code's status and retry from Codes.
type Refusal struct {
	code Code
	text string
}

// refusals are the Refusals declared, in the order of declaration.
var refusals []*Refusal

// NewRefusal declares a sentinel refusal with code and a short text naming
// it. It is meant for package-level variables only: it panics if code is
// not one of Codes or if another Refusal has the same text, so that a
// sentinel without a known code, or two that a server could not tell
// apart, stop the program at its start.
func NewRefusal(code Code, text string) *Refusal {
	if !code.Known() {
		panic(fmt.Sprintf("protocol: refusal %q has the unknown code %q", text, code))
	}
	if RefusalNamed(text) != nil {
		panic(fmt.Sprintf("protocol: two refusals are named %q", text))
	}
	r := &Refusal{code: code, text: text}
	refusals = append(refusals, r)
	return r
}

// Error returns the refusal's text.
func (r *Refusal) Error() string { return r.text }

// Code returns the refusal's code.
func (r *Refusal) Code() Code { return r.code }

// Is reports whether target is the refusal's code, so that
// errors.Is(err, protocol.Stale) holds for every error that wraps a
// refusal with that code.
func (r *Refusal) Is(target error) bool {
	c, ok := target.(Code)
	return ok && c == r.code
}

// Refusals returns every Refusal declared in the program, in the order of
// declaration.
func Refusals() []*Refusal { return append([]*Refusal(nil), refusals...) }

// RefusalNamed returns the Refusal whose text is text, or nil.
func RefusalNamed(text string) *Refusal {
	for _, r := range refusals {
		if r.text == text {
			return r
		}
	}
	return nil
}

// CodeOf returns the code of the refusal err wraps: the code of a
// *Refusal, or a Code itself. ok is false for an error that wraps
// neither, a failure rather than a refusal.
func CodeOf(err error) (code Code, ok bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.code, true
	}
	if errors.As(err, &code) {
		return code, true
	}
	return "", false
}
