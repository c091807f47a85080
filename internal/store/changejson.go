package store

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/razziagame/razzia/internal/jsonscan"
)

// Every node decodes every change notice of the cluster, several a move:
// decodeChange reads the payloads Payload writes (an object of the
// Change's keys, strings escaped no more than a clock's quotes need)
// without reflection, mostly without allocating. Anything else (a key it
// does not know, a null, white space, an escape other than \" and \\) it
// leaves to encoding/json, which it never contradicts (FuzzDecodeChange).
func decodeChange(p string) (c Change, ok bool) {
	if len(p) < 2 || p[0] != '{' || p[len(p)-1] != '}' {
		return Change{}, false
	}
	for i := 1; i < len(p)-1; {
		if i > 1 {
			if p[i] != ',' || i+1 == len(p)-1 {
				return Change{}, false
			}
			i++
		}
		key, n, ok := jsonString(p[i:])
		if !ok || n >= len(p)-1-i || p[i+n] != ':' {
			return Change{}, false
		}
		i += n + 1
		if n, ok = c.set(key, p[i:len(p)-1]); !ok {
			return Change{}, false
		}
		i += n
	}
	return c, true
}

// set decodes the value of key at the start of v into c, and returns its
// length.
func (c *Change) set(key, v string) (int, bool) {
	var (
		s  *string
		n  int
		ok bool
	)
	switch key {
	case "game":
		s = &c.Game
	case "node":
		s = &c.Node
	case "token":
		s = &c.Token
	case "clock":
		s = &c.Clock
	case "asker":
		s = &c.Asker
	case "kind", "status":
		var word string
		if word, n, ok = jsonString(v); ok {
			if key == "kind" {
				c.Kind = ChangeKind(intern(word))
			} else {
				c.Status = Status(intern(word))
			}
		}
		return n, ok
	case "moves", "fence", "ask":
		var x int64
		// A fraction or an exponent after it: encoding/json's to refuse.
		if x, n, ok = jsonscan.Int(v, key != "ask"); ok && n < len(v) && v[n] != ',' {
			return 0, false
		}
		if ok {
			switch key {
			case "moves":
				c.Moves = int(x)
			case "fence":
				c.Fence = Fence(x)
			default:
				c.Ask = uint64(x)
			}
		}
		return n, ok
	default:
		return 0, false
	}
	*s, n, ok = jsonString(v)
	return n, ok
}

// words are the kinds and statuses, so that a decoded change holds no
// copy of them.
var words = func() map[string]string {
	m := map[string]string{}
	for _, w := range []string{string(ChangeCreated), string(ChangeSeat), string(ChangeClosed), string(ChangeMove),
		string(ChangeClock), string(ChangeLease), string(ChangeChat), string(ChangeRematch),
		string(StatusOpen), string(StatusPlaying), string(StatusFinished), string(StatusArchived),
		string(StatusExpired), string(StatusCancelled)} {
		m[w] = w
	}
	return m
}()

func intern(w string) string {
	if k, ok := words[w]; ok {
		return k
	}
	return strings.Clone(w) // not to keep the whole payload for a word
}

// jsonString decodes the JSON string at the start of v and returns its
// length; only \" and \\ are unescaped, and v must be UTF-8 without
// control characters, as encoding/json would have it unchanged.
func jsonString(v string) (string, int, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", 0, false
	}
	escaped := false
	for i := 1; i < len(v); i++ {
		switch b := v[i]; {
		case b == '"':
			s := v[1:i]
			if !utf8.ValidString(s) {
				return "", 0, false
			}
			if escaped {
				s = unescape(s)
			}
			return s, i + 1, true
		case b == '\\':
			if i+1 == len(v) || v[i+1] != '"' && v[i+1] != '\\' {
				return "", 0, false
			}
			escaped = true
			i++
		case b < 0x20:
			return "", 0, false
		}
	}
	return "", 0, false
}

// unescape returns s with \" and \\ unescaped, the only escapes it has.
func unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// PeekChange returns the game and the kind of the change a payload of
// ChangesChannel announces, read from its start as Payload writes them,
// without decoding the rest: a node passes over the notices of the games
// it does not serve, and of those it runs (it made them), for the price
// of a map lookup. False for a payload it cannot read so; ParseChange
// decides then.
func PeekChange(p string) (game string, kind ChangeKind, ok bool) {
	const gameKey, kindKey = `{"game":"`, `","kind":"`
	rest, found := strings.CutPrefix(p, gameKey)
	end := strings.IndexByte(rest, '"')
	if !found || end < 0 || strings.IndexByte(rest[:end], '\\') >= 0 {
		return "", "", false
	}
	game = rest[:end]
	if rest, found = strings.CutPrefix(rest[end:], kindKey); !found {
		return "", "", false
	}
	end = strings.IndexByte(rest, '"')
	if end < 0 {
		return "", "", false
	}
	w, known := words[rest[:end]]
	if !known || game == "" {
		return "", "", false
	}
	return game, ChangeKind(w), true
}

// AskerText returns the text by which a payload of ChangesChannel names
// node as the asker of the change (Change.Asker): a node that finds it
// in no payload has no request answered there (strings.Contains), and
// one that does decodes the payload.
func AskerText(node string) string {
	q, err := json.Marshal(node) // as Payload quotes it, either way
	if err != nil {
		panic(err) // a string always encodes
	}
	return `"asker":` + string(q)
}
