package table

import (
	"encoding/base64"
	"encoding/json"
	"strconv"

	"github.com/razziagame/razzia/internal/jsonscan"
	"github.com/razziagame/razzia/internal/match"
)

// parseEnvelope decodes a message on a node's channel. The owner of a
// game decodes every move passed to it: decodeRequest reads a request as
// ask writes it without reflection, into q; encoding/json decodes the
// rest.
func parseEnvelope(payload string, q *request) (envelope, error) {
	if env, ok := decodeRequest(payload, q); ok {
		return env, nil
	}
	return unmarshalEnvelope(payload)
}

// A request holds the command of a request decoded and its hash's bytes,
// kept with what serves it: a move passed to this node is decoded without
// an allocation of its own.
type request struct {
	cmd  match.Command
	hash [33]byte // a token's hash: SHA-256, and the byte base64.DecodedLen counts for its padding
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
func decodeRequest(p string, q *request) (envelope, bool) {
	var env envelope
	n, ok := jsonObject(p, func(key, v string) (int, bool) {
		switch key {
		case "id":
			id, n, ok := jsonscan.Int(v, false)
			env.ID = uint64(id)
			return n, ok
		case "from":
			return readText(v, &env.From)
		case "notice":
			return readBool(v, &env.Notice)
		case "req":
			q.cmd, env.Req = match.Command{}, &q.cmd
			return jsonObject(v, func(key, v string) (int, bool) { return decodeCommandField(env.Req, key, v, q.hash[:0]) })
		}
		return 0, false
	})
	if !ok || n != len(p) || env.Req == nil {
		return envelope{}, false
	}
	return env, true
}

// decodeCommandField decodes the value at the start of v of r's field
// key, and returns its length; a hash goes into hash's room if it fits.
func decodeCommandField(r *match.Command, key, v string, hash []byte) (int, bool) {
	var s *string
	switch key {
	case "op":
		op, n, ok := jsonscan.Text(v)
		r.Kind = match.Kind(op)
		return n, ok
	case "hash":
		h, n, ok := jsonscan.Text(v)
		if !ok {
			return 0, false
		}
		b, err := decodeHash(h, hash)
		r.Hash = b
		return n, err == nil
	case "seat", "seq":
		x, n, ok := jsonscan.Int(v, true)
		if key == "seat" {
			r.Seat = int(x)
		} else {
			r.Seq = int(x)
		}
		return n, ok
	case "mute":
		return readBool(v, &r.Mute)
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
	return readText(v, s)
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
		key, n, ok := jsonscan.Text(v[i:])
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

// readText reads the string at the start of v into s, and returns its length.
func readText(v string, s *string) (n int, ok bool) {
	*s, n, ok = jsonscan.Text(v)
	return n, ok
}

// readBool reads the boolean at the start of v into b, and returns its
// length.
func readBool(v string, b *bool) (n int, ok bool) {
	*b, n, ok = jsonscan.Bool(v)
	return n, ok
}

// decodeHash returns the base64 h decoded into room if it fits, as
// DecodeString decodes it.
func decodeHash(h string, room []byte) ([]byte, error) {
	var src [64]byte
	if len(h) > len(src) || base64.StdEncoding.DecodedLen(len(h)) > cap(room) {
		return base64.StdEncoding.DecodeString(h)
	}
	copy(src[:], h)
	n, err := base64.StdEncoding.Decode(room[:cap(room)], src[:len(h)])
	return room[:n], err
}

// encodeRequest returns the payload of env, a request, as encoding/json
// writes it, without reflection and in one allocation, when its strings
// are printable ASCII that encoding/json writes unescaped; any other
// request it leaves to encoding/json (FuzzEncodeRequest checks that the
// two agree). A node passes on every move of its players whose game
// another node runs.
func encodeRequest(env envelope) (string, error) {
	var a [512]byte
	if b, ok := appendRequest(a[:0], env); ok {
		return string(b), nil
	}
	b, err := json.Marshal(env)
	return string(b), err
}

// appendRequest appends env's payload to b, or returns false.
func appendRequest(b []byte, env envelope) ([]byte, bool) {
	r := env.Req
	if r == nil || env.Re != nil {
		return b, false
	}
	b = strconv.AppendUint(append(b, `{"id":`...), env.ID, 10)
	b = append(b, `,"from":`...)
	b, ok := appendPlain(b, env.From)
	b = append(b, `,"req":{"op":`...)
	b, ok2 := appendPlain(b, string(r.Kind))
	b = append(b, `,"game":`...)
	b, ok3 := appendPlain(b, r.Game)
	ok = ok && ok2 && ok3
	if len(r.Hash) > 0 {
		b = append(base64.StdEncoding.AppendEncode(append(b, `,"hash":"`...), r.Hash), '"')
	}
	for _, f := range [...]struct{ key, v string }{{`,"name":`, r.Name}, {`,"account":`, r.Account}} {
		if f.v != "" {
			b, ok2 = appendPlain(append(b, f.key...), f.v)
			ok = ok && ok2
		}
	}
	b = strconv.AppendInt(append(b, `,"seat":`...), int64(r.Seat), 10)
	if r.Move != "" {
		b, ok2 = appendPlain(append(b, `,"move":`...), r.Move)
		ok = ok && ok2
	}
	b = strconv.AppendInt(append(b, `,"seq":`...), int64(r.Seq), 10)
	for _, f := range [...]struct{ key, v string }{{`,"phrase":`, r.Phrase}, {`,"text":`, r.Text}} {
		if f.v != "" {
			b, ok2 = appendPlain(append(b, f.key...), f.v)
			ok = ok && ok2
		}
	}
	if r.Mute {
		b = append(b, `,"mute":true`...)
	}
	if r.Level != "" {
		b, ok2 = appendPlain(append(b, `,"level":`...), r.Level)
		ok = ok && ok2
	}
	b = append(b, '}')
	if env.Notice {
		b = append(b, `,"notice":true`...)
	}
	return append(b, '}'), ok
}

// appendPlain appends s quoted, and false if encoding/json would escape
// a byte of it.
func appendPlain(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return b, false
		}
	}
	return append(append(append(b, '"'), s...), '"'), true
}
