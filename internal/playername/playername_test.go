package playername_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/razziagame/razzia/internal/playername"
)

func TestCheck(t *testing.T) {
	cases := []struct {
		name, give string
		ok         bool
	}{
		{"plain", "Ann", true},
		{"two words", "Ann Marie", true},
		{"accents", "Zoë Ödön", true},
		{"decomposed accents", "Zoe\u0308", true},
		{"Hungarian name starting with Bot", "Botond", true},
		{"Cyrillic", "Анна", true},
		{"Japanese", "さくら", true},
		{"Arabic", "علي", true},
		{"Hindi with marks", "हिन्दी", true},
		{"emoji", "Ann 🎲", true},
		{"emoji with presentation selector", "❤️ Bo", true},
		{"emoji ZWJ sequence", "👩‍💻 Cy", true},
		{"brackets", "Ann (Amsterdam)", true},
		{"former alone", "Former", true},
		{"former player with no number", "Former player Ann", true},
		{"a deleted account's name", "Former player 3", false},
		{"a deleted account's name in capitals and wide forms", "ＦＯＲＭＥＲ PLAYER 2", false},
		{"empty", "", false},
		{"spaces only", "   ", false},
		{"control", "Ann\x07", false},
		{"too long for the engine", strings.Repeat("a", 65), false},
		{"twenty characters", strings.Repeat("a", 20), true},
		{"twenty accented characters", strings.Repeat("ő", 20), true},
		{"twenty-one characters", strings.Repeat("a", 21), false},
		{"a first and last name too long", "Maximilian Alexander von Habsburg", false},
		{"right-to-left override", "\u202eevil", false},
		{"left-to-right mark", "Ann\u200e", false},
		{"bidi isolate", "\u2066Ann\u2069", false},
		{"Arabic letter mark", "Ann\u061c", false},
		{"zero-width space", "A\u200bnn", false},
		{"zero-width non-joiner", "A\u200cnn", false},
		{"zero-width joiner between letters", "A\u200dnn", false},
		{"word joiner", "A\u2060nn", false},
		{"byte order mark", "\ufeffAnn", false},
		{"soft hyphen", "An\u00adn", false},
		{"Hangul filler alone", "\u3164", false},
		{"Hangul choseong filler", "Ann\u115f", false},
		{"halfwidth Hangul filler", "\uffa0", false},
		{"Braille blank", "\u2800\u2800", false},
		{"combining grapheme joiner", "An\u034fn", false},
		{"ideographic space", "Ann\u3000Bo", false},
		{"no-break space", "Ann\u00a0Bo", false},
		{"em space", "Ann\u2003Bo", false},
		{"line separator", "Ann\u2028Bo", false},
		{"tag character", "Ann\U000e0041", false},
		{"variation selector on a letter", "A\ufe0fnn", false},
		{"private use", "Ann\ue000", false},
		{"zalgo", "A" + strings.Repeat("\u0301", 5), false},
		{"only marks", "\u0301\u0301", false},
		{"bot name", "Bot 2 (hard)", false},
		{"bot name in lower case", "bot 3 (easy)", false},
		{"bot name without spaces", "Bot2(medium)", false},
		{"bot name in fullwidth letters", "Ｂｏｔ ２ (hard)", false},
		{"Bot alone", "Bot", true},
		{"a person as a bot", "Ann (hard)", false},
		{"Bot and a name", "Bot Ann", true},
		{"a bot of no level", "Bot (hard)", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := playername.Check(c.give)
			if (err == nil) != c.ok {
				t.Fatalf("Check(%q) = %v, want ok %v", c.give, err, c.ok)
			}
			if err != nil && err.Error() == "" {
				t.Errorf("Check(%q): an error without a message", c.give)
			}
		})
	}
	if err := playername.Check(strings.Repeat("a", 21)); !errors.Is(err, playername.ErrTooLong) || !strings.Contains(err.Error(), "longer than 20 characters") {
		t.Errorf("Check of 21 characters = %v, want ErrTooLong saying the limit", err)
	}
	if err := playername.Check("Bot 2 (hard)"); !errors.Is(err, playername.ErrBotName) {
		t.Errorf("Check of a bot's name = %v, want ErrBotName", err)
	}
}

func TestKey(t *testing.T) {
	same := [][]string{
		{"Ann", "ann", "ANN", "Ａｎｎ", " Ann ", "Ann"},
		{"Ann Marie", "ann  marie"},
		{"Straße", "STRASSE", "strasse"},
		{"Zoë", "Zoe\u0308", "ZOË"},
		{"ﬁona", "Fiona"}, // the ligature is a compatibility form
	}
	for _, group := range same {
		for _, n := range group[1:] {
			if a, b := playername.Key(group[0]), playername.Key(n); a != b {
				t.Errorf("Key(%q) = %q, Key(%q) = %q: want the same", group[0], a, n, b)
			}
		}
	}
	for _, pair := range [][2]string{{"Ann", "Anna"}, {"Ann", "Bob"}, {"Zoe", "Zoë"}} {
		if playername.Key(pair[0]) == playername.Key(pair[1]) {
			t.Errorf("Key(%q) = Key(%q): want them different", pair[0], pair[1])
		}
	}
}

func TestBot(t *testing.T) {
	for seat, level := range []string{"easy", "medium", "hard"} {
		n := playername.Bot(seat, level)
		if !playername.LooksLikeBot(n) || playername.Check(n) == nil {
			t.Errorf("the bot name %q is not refused to a person", n)
		}
	}
}

func TestFormer(t *testing.T) {
	for seat := range 5 {
		n := playername.Former(seat)
		if !errors.Is(playername.Check(n), playername.ErrReserved) {
			t.Errorf("the deleted account's name %q is not refused to a person: %v", n, playername.Check(n))
		}
	}
}

// FuzzCheck: whatever Check accepts is a name the engine accepts, shows
// something, and has a key no longer than a few times the name.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"Ann", "\u202eevil", "👩‍💻 Cy", "Bot 2 (hard)", "Zoe\u0308"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if playername.Check(s) != nil {
			return
		}
		if !utf8.ValidString(s) || strings.TrimSpace(s) == "" {
			t.Fatalf("Check(%q) accepted an invalid or empty name", s)
		}
		if k := playername.Key(s); k == "" {
			t.Fatalf("Key(%q) is empty", s)
		}
	})
}

func ExampleKey() {
	fmt.Println(playername.Key("Ａｎｎ") == playername.Key("ann"))
	fmt.Println(playername.Check("A\u200bnn"))
	// Output:
	// true
	// the name "A\u200bnn" holds the invisible or direction-changing character U+200B
}
