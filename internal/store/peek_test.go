package store

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzPeekChange: the game and kind read from a payload's start are those
// ParseChange decodes, for every payload both read; and a payload Payload
// wrote is read so whenever its game has nothing to escape; and
// AskerText finds the asker (UTF-8, as node names are) in the payload,
// and no other node.
func FuzzPeekChange(f *testing.F) {
	f.Add("k3x9q2m7ab", "move", "bid 9", `{"left":[1,2]}`, "node-a")
	f.Add("g", "lease", "", "", "")
	f.Add(`a"b`, "clock", `"`, `\`, `é<>&`)
	f.Add("x", "nonsense", "", "", "\x00")
	f.Fuzz(func(t *testing.T, game, kind, token, clock, asker string) {
		c := Change{Game: game, Kind: ChangeKind(kind), Moves: 3, Status: StatusPlaying, Token: token, Clock: clock, Asker: asker, Ask: 1}
		p := c.Payload()
		g, k, ok := PeekChange(p)
		parsed, err := ParseChange(p)
		if ok && (err != nil || g != parsed.Game || k != parsed.Kind) {
			t.Fatalf("%q: peeked %q, %q; parsed %+v, %v", p, g, k, parsed, err)
		}
		plain := game != "" && utf8.ValidString(game) && !strings.ContainsAny(game, "\"\\<>&\u2028\u2029") && strings.IndexFunc(game, func(r rune) bool { return r < 0x20 }) < 0
		if _, known := words[kind]; known && plain && !ok {
			t.Errorf("%q: not peeked", p)
		}
		if asker != "" && utf8.ValidString(asker) && !strings.Contains(p, AskerText(asker)) {
			t.Errorf("%q: does not contain %q", p, AskerText(asker))
		}
		if other := asker + "x"; strings.Contains(p, AskerText(other)) && !strings.Contains(token+clock, other) {
			t.Errorf("%q names %q as its asker", p, other)
		}
	})
}
