package table

import (
	"encoding/base64"
	"encoding/json"
	"unicode/utf8"

	"github.com/razziagame/razzia/internal/match"
)

// parseEnvelope decodes a message on a node's channel. The owner of a
// game decodes every move passed to it: decodeRequest reads a request as
// ask writes it without reflection; encoding/json decodes the rest.
func parseEnvelope(payload string) (envelope, error) {
	if env, ok := decodeRequest(payload); ok {
		return env, nil
	}
	return unmarshalEnvelope(payload)
}

// unmarshalEnvelope decodes the envelopes decodeRequest leaves: a variable
// of its own, so that parseEnvelope's stays off the heap.
func unmarshalEnvelope(payload string) (envelope, error) {
	var env envelope
	err := json.Unmarshal([]byte(payload), &env)
	return env, err
}

// decodeRequest decodes the envelope of a request as encoding/json would,
// its strings sharing p's bytes: an object of envelope's keys and a
// match.Command's, each once, strings without escapes. Anything else (an
// answer, a key it does not know, a null, white space, an escape) it
// leaves to encoding/json, which it never contradicts (FuzzDecodeRequest).
func decodeRequest(p string) (envelope, bool) {
	var env envelope
	n, ok := jsonObject(p, func(key, v string) (int, bool) {
		switch key {
		case "id":
			id, n, ok := jsonInt(v, false)
			env.ID = uint64(id)
			return n, ok
		case "from":
			return jsonText(v, &env.From)
		case "notice":
			return jsonBool(v, &env.Notice)
		case "req":
			env.Req = &match.Command{}
			return jsonObject(v, func(key, v string) (int, bool) { return decodeCommandField(env.Req, key, v) })
		}
		return 0, false
	})
	if !ok || n != len(p) || env.Req == nil {
		return envelope{}, false
	}
	return env, true
}

// decodeCommandField decodes the value at the start of v of r's field
// key, and returns its length.
func decodeCommandField(r *match.Command, key, v string) (int, bool) {
	var s *string
	switch key {
	case "op":
		var op string
		n, ok := jsonText(v, &op)
		r.Kind = match.Kind(op)
		return n, ok
	case "hash":
		var h string
		n, ok := jsonText(v, &h)
		if !ok {
			return 0, false
		}
		b, err := base64.StdEncoding.DecodeString(h)
		r.Hash = b
		return n, err == nil
	case "seat", "seq":
		x, n, ok := jsonInt(v, true)
		if key == "seat" {
			r.Seat = int(x)
		} else {
			r.Seq = int(x)
		}
		return n, ok
	case "mute":
		return jsonBool(v, &r.Mute)
	case "game":
		s = &r.Game
	case "name":
		s = &r.Name
	case "account":
		s = &r.Account
	case "move":
		s = &r.Move
	case "phrase":
		s = &r.Phrase
	case "text":
		s = &r.Text
	case "level":
		s = &r.Level
	default:
		return 0, false
	}
	return jsonText(v, s)
}

// jsonObject reads the object at the start of v, handing field each key
// and the text from its value on; field decodes the value and returns its
// length. It returns the object's length; false for another shape or a
// key given twice (encoding/json would merge or overwrite).
func jsonObject(v string, field func(key, v string) (int, bool)) (int, bool) {
	if len(v) < 2 || v[0] != '{' {
		return 0, false
	}
	if v[1] == '}' {
		return 2, true
	}
	var (
		seen [16]string
		keys int
	)
	for i := 1; ; {
		var key string
		n, ok := jsonText(v[i:], &key)
		if !ok || i+n >= len(v) || v[i+n] != ':' || keys == len(seen) {
			return 0, false
		}
		for _, k := range seen[:keys] {
			if k == key {
				return 0, false
			}
		}
		seen[keys] = key
		keys++
		i += n + 1
		if n, ok = field(key, v[i:]); !ok {
			return 0, false
		}
		if i += n; i >= len(v) {
			return 0, false
		}
		switch v[i] {
		case ',':
			i++
		case '}':
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// jsonText reads the string at the start of v into s, sharing v's bytes,
// and returns its length: UTF-8 without escapes or control characters,
// which encoding/json would decode unchanged.
func jsonText(v string, s *string) (int, bool) {
	if len(v) < 2 || v[0] != '"' {
		return 0, false
	}
	for i := 1; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			*s = v[1:i]
			return i + 1, utf8.ValidString(*s)
		case c == '\\' || c < 0x20:
			return 0, false
		}
	}
	return 0, false
}

// jsonBool reads true or false at the start of v into b.
func jsonBool(v string, b *bool) (int, bool) {
	switch {
	case len(v) >= 4 && v[:4] == "true":
		*b = true
		return 4, true
	case len(v) >= 5 && v[:5] == "false":
		*b = false
		return 5, true
	}
	return 0, false
}

// jsonInt reads the integer at the start of v as encoding/json writes it
// (signed or not, at most 18 digits) and returns its length.
func jsonInt(v string, signed bool) (int64, int, bool) {
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
