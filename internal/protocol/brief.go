package protocol

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// DecodeBrief decodes the brief part of a server message, as
// json.Unmarshal into a BriefMessage does, for a fraction of its cost: it
// checks the message in one pass and decodes only the members it keeps,
// where json.Unmarshal runs its scanner over every byte three times. A
// message it does not read plainly (an escaped or differently cased key,
// a key given twice, a member of the wrong type) goes to json.Unmarshal,
// so the answer, error included, is always json.Unmarshal's.
func DecodeBrief(data []byte) (BriefMessage, error) {
	var m BriefMessage
	if m.decode(data) {
		return m, nil
	}
	m = BriefMessage{}
	err := json.Unmarshal(data, &m)
	return m, err
}

// decode decodes data into m, and reports false when it cannot decode
// it as json.Unmarshal would (data is not valid JSON, or is not plain).
func (m *BriefMessage) decode(data []byte) bool {
	var seen uint
	fields := []field{{"type", &m.Type}, {"game", &m.Game}, {"seat", &m.Seat}, {"code", &m.Code}, {"message", &m.Message},
		{"version", &m.Version}, {"view", nil}} // the view is decoded apart; listed for its key
	return members(data, func(key, value []byte) bool {
		if string(key) != "view" {
			return member(key, value, fields, &seen)
		}
		if !once(&seen, 1<<(len(fields)-1)) {
			return false
		}
		if string(value) == "null" {
			m.View = nil
			return true
		}
		m.View = &BriefView{}
		var vseen uint
		vfields := []field{{"seat", &m.View.Seat}, {"moves", &m.View.Moves}, {"phase", &m.View.Phase},
			{"toMove", &m.View.ToMove}, {"auction", &m.View.Auction}, {"legal", &m.View.Legal}}
		return members(value, func(key, value []byte) bool { return member(key, value, vfields, &vseen) })
	})
}

// A field is a member an object is decoded into: its key and where its
// value goes.
type field struct {
	key string
	dst any
}

// member decodes the member of an object into the field of its key, if
// any, its index marked in seen; it reports false when json.Unmarshal
// would do otherwise: the key given twice, or matching a field's only
// when case is ignored (as encoding/json matches keys).
func member(key, value []byte, fields []field, seen *uint) bool {
	for i, f := range fields {
		if string(key) == f.key {
			return once(seen, 1<<i) && decodeValue(value, f.dst)
		}
	}
	for _, f := range fields {
		if bytes.EqualFold(key, []byte(f.key)) {
			return false
		}
	}
	return true
}

// once adds bit to seen, and reports whether it was not there.
func once(seen *uint, bit uint) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// decodeValue decodes the valid JSON value into dst as json.Unmarshal
// does, reporting whether it could: plain strings, integers and lists of
// strings by hand, anything else by json.Unmarshal.
func decodeValue(value []byte, dst any) bool {
	switch d := dst.(type) {
	case *Code:
		return decodeValue(value, (*string)(d))
	case *string:
		if s, ok := plainString(value); ok {
			*d = s
			return true
		}
	case *int:
		if n, err := strconv.Atoi(string(value)); err == nil {
			*d = n
			return true
		}
	case *[]string:
		if list, ok := plainStrings(value); ok {
			*d = list
			return true
		}
	case *bool:
		switch string(value) {
		case "true", "false":
			*d = value[0] == 't'
			return true
		}
	case *time.Time:
		// As json.Unmarshal does, null included (which leaves d as it is).
		return d.UnmarshalJSON(value) == nil
	case *Status:
		return decodeValue(value, (*string)(d))
	case *GameInfo:
		if value[0] == '{' {
			return d.decodeBrief(value)
		}
	case *[]SeatInfo:
		if value[0] == '[' {
			return decodeSeats(value, d)
		}
	}
	return json.Unmarshal(value, dst) == nil
}

// decodeBrief decodes the game's information (an object) as
// json.Unmarshal does, its plain members by hand, and reports whether it
// could. Every state carries one, with its seats: the load generator
// reads thousands a second.
func (g *GameInfo) decodeBrief(value []byte) bool {
	var seen uint
	fields := []field{{"id", &g.ID}, {"status", &g.Status}, {"players", &g.Players}, {"seats", &g.Seats},
		{"moves", &g.Moves}, {"created", &g.Created}, {"updated", &g.Updated}, {"winners", &g.Winners},
		{"invite", &g.Invite}, {"expires", &g.Expires}, {"rated", &g.Rated}, {"pace", &g.Pace},
		{"toMove", &g.ToMove}, {"rematchOf", &g.RematchOf}, {"rematch", &g.Rematch}, {"rematchOffer", &g.RematchOffer}}
	return members(value, func(key, value []byte) bool { return member(key, value, fields, &seen) })
}

// decodeSeats decodes a list of seats (value, valid JSON, is a list) as
// json.Unmarshal does, and reports whether it could.
func decodeSeats(value []byte, seats *[]SeatInfo) bool {
	list := []SeatInfo{}
	i := skipSpace(value, 1)
	for value[i] != ']' {
		end := valueEnd(value, i, 2)
		if end < 0 || value[i] != '{' {
			return false
		}
		var s SeatInfo
		var seen uint
		fields := []field{{"name", &s.Name}, {"bot", &s.Bot}, {"open", &s.Open}, {"standIn", &s.StandIn}, {"account", &s.Account}}
		if !members(value[i:end], func(key, value []byte) bool { return member(key, value, fields, &seen) }) {
			return false
		}
		list = append(list, s)
		if i = skipSpace(value, end); value[i] == ',' {
			i = skipSpace(value, i+1)
		}
	}
	*seats = list
	return true
}

// plainString returns the string that value, valid JSON, is, when it is
// one without escapes, in UTF-8 (json.Unmarshal replaces bad bytes).
func plainString(value []byte) (string, bool) {
	if len(value) < 2 || value[0] != '"' {
		return "", false
	}
	s := value[1 : len(value)-1]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return "", false
	}
	return string(s), true
}

// plainStrings returns the list that value, valid JSON, is, when it is a
// list of plain strings (never nil, as json.Unmarshal makes [] an empty list).
func plainStrings(value []byte) ([]string, bool) {
	if len(value) < 2 || value[0] != '[' {
		return nil, false
	}
	list := []string{}
	i := skipSpace(value, 1)
	if value[i] == ']' {
		return list, true
	}
	for {
		end := stringEnd(value, i)
		if end < 0 {
			return nil, false
		}
		s, ok := plainString(value[i:end])
		if !ok {
			return nil, false
		}
		list = append(list, s)
		if i = skipSpace(value, end); value[i] == ']' {
			return list, true
		}
		i = skipSpace(value, i+1) // past the comma
	}
}

// members calls f with the key and the value of each member of the
// object that data is, and reports whether data is one valid JSON object
// (with nothing but spaces around it) whose keys have no escapes, and f
// returned true for every member. It is as strict as encoding/json.
func members(data []byte, f func(key, value []byte) bool) bool {
	end := object(data, skipSpace(data, 0), 0, f)
	return end >= 0 && skipSpace(data, end) == len(data)
}

// maxDepth is encoding/json's limit on nesting.
const maxDepth = 10000

// object returns the index just past the object at i, or -1 when there is
// none (or f returned false, or a key has escapes when f is not nil);
// depth is its nesting.
func object(data []byte, i, depth int, f func(key, value []byte) bool) int {
	if i >= len(data) || data[i] != '{' || depth >= maxDepth {
		return -1
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1
	}
	for {
		kend := stringEnd(data, i)
		if kend < 0 {
			return -1
		}
		key := data[i+1 : kend-1]
		i = skipSpace(data, kend)
		if i >= len(data) || data[i] != ':' {
			return -1
		}
		start := skipSpace(data, i+1)
		if i = valueEnd(data, start, depth+1); i < 0 {
			return -1
		}
		if f != nil && (bytes.IndexByte(key, '\\') >= 0 || !f(key, data[start:i])) {
			return -1
		}
		if i = skipSpace(data, i); i >= len(data) {
			return -1
		}
		switch data[i] {
		case '}':
			return i + 1
		case ',':
			i = skipSpace(data, i+1)
		default:
			return -1
		}
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the index just past the JSON value at i, or -1 when
// there is none; depth is its nesting.
func valueEnd(data []byte, i, depth int) int {
	if i >= len(data) {
		return -1
	}
	switch c := data[i]; {
	case c == '"':
		return stringEnd(data, i)
	case c == '{':
		return object(data, i, depth, nil)
	case c == '[':
		if depth >= maxDepth {
			return -1
		}
		if i = skipSpace(data, i+1); i < len(data) && data[i] == ']' {
			return i + 1
		}
		for {
			if i = valueEnd(data, i, depth+1); i < 0 {
				return -1
			}
			if i = skipSpace(data, i); i >= len(data) {
				return -1
			}
			switch data[i] {
			case ']':
				return i + 1
			case ',':
				i = skipSpace(data, i+1)
			default:
				return -1
			}
		}
	case c == 't':
		return literalEnd(data, i, "true")
	case c == 'f':
		return literalEnd(data, i, "false")
	case c == 'n':
		return literalEnd(data, i, "null")
	case c == '-' || '0' <= c && c <= '9':
		return numberEnd(data, i)
	}
	return -1
}

// stringEnd returns the index just past the string at i, or -1.
func stringEnd(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			if i++; i >= len(data) {
				return -1
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(data) {
					return -1
				}
				for _, h := range data[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func literalEnd(data []byte, i int, lit string) int {
	if !bytes.HasPrefix(data[i:], []byte(lit)) {
		return -1
	}
	return i + len(lit)
}

// numberEnd returns the index just past the number at i, or -1.
func numberEnd(data []byte, i int) int {
	digits := func(i int) int {
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
		return i
	}
	if data[i] == '-' {
		i++
	}
	switch {
	case i >= len(data) || data[i] < '0' || data[i] > '9':
		return -1
	case data[i] == '0':
		i++
	default:
		i = digits(i)
	}
	if i < len(data) && data[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}
