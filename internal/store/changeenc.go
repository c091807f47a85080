package store

import (
	"encoding/json"
	"strconv"
)

// Every committed change is encoded once, at commit, on the writer's
// path: appendChange writes a Change as encoding/json does, without
// reflection and into one buffer, for the strings it can write so (ASCII
// but control characters, with \" and \\ and HTML's escapes as
// encoding/json writes them); for any other it leaves the whole change
// to encoding/json (FuzzPayload checks the two agree).

// encodeChange returns c's payload and true, or false if a string of c
// needs what appendJSONString does not write.
func encodeChange(c Change) (string, bool) {
	var a [256]byte
	b := append(a[:0], `{"game":`...)
	var ok bool
	if b, ok = appendJSONString(b, c.Game); !ok {
		return "", false
	}
	b = append(b, `,"kind":`...)
	if b, ok = appendJSONString(b, string(c.Kind)); !ok {
		return "", false
	}
	b = append(b, `,"moves":`...)
	b = strconv.AppendInt(b, int64(c.Moves), 10)
	b = append(b, `,"status":`...)
	if b, ok = appendJSONString(b, string(c.Status)); !ok {
		return "", false
	}
	if b, ok = appendField(b, `,"node":`, c.Node); !ok {
		return "", false
	}
	if c.Fence != 0 {
		b = append(b, `,"fence":`...)
		b = strconv.AppendInt(b, int64(c.Fence), 10)
	}
	for _, f := range [...]struct{ key, v string }{{`,"token":`, c.Token}, {`,"clock":`, c.Clock}, {`,"asker":`, c.Asker}} {
		if b, ok = appendField(b, f.key, f.v); !ok {
			return "", false
		}
	}
	if c.Ask != 0 {
		b = append(b, `,"ask":`...)
		b = strconv.AppendUint(b, c.Ask, 10)
	}
	return string(append(b, '}')), true
}

// appendField appends key and v, quoted, unless v is empty (omitempty).
func appendField(b []byte, key, v string) ([]byte, bool) {
	if v == "" {
		return b, true
	}
	return appendJSONString(append(b, key...), v)
}

// appendJSONString appends s quoted as encoding/json quotes it, or
// reports false if s holds a byte it leaves to encoding/json: a control
// character or one outside ASCII.
func appendJSONString(b []byte, s string) ([]byte, bool) {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f:
			return b, false
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '<' || c == '>' || c == '&':
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"'), true
}

// marshalChange is encoding/json's encoding of c.
func marshalChange(c Change) string {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // strings and numbers always encode
	}
	return string(b)
}
