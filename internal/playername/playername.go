// Package playername is the server's rule for the names people give
// themselves at a table (and, later, for account names): what the engine
// accepts (razzia.CheckName: 1 to 64 bytes, no control characters), and
// nothing that hides, reorders or impersonates. It also names the
// server's bots, and gives the key under which two names are the same.
//
// The rule lives here, beside the protocol rather than in the engine: the
// engine needs only a name it can print, while a server open to strangers
// must keep one player from looking like another or like a bot. The
// engine's own check stays in package razzia and is part of this one.
package playername

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
)

// ErrBotName is the error of a name that looks like one of the server's
// bots (see Bot).
var ErrBotName = errors.New(`the name looks like a server bot's: names such as "Bot 2 (hard)" are the server's`)

// MaxLen is the most characters a name may have: long enough for a first
// and a last name, short enough to fit a player's strip, the log and the
// score tables on a phone. The page's name fields take this many.
const MaxLen = 20

// ErrTooLong is the error of a name longer than MaxLen characters.
var ErrTooLong = fmt.Errorf("the name is longer than %d characters", MaxLen)

// maxMarks is the most combining marks one character may carry: enough
// for any script, too few to smear a name over its neighbours.
const maxMarks = 4

// Check reports why name cannot be a player's name, if it cannot: the
// engine's rule (razzia.CheckName); at most MaxLen characters; then no invisible or
// direction-changing character (format characters such as bidi overrides,
// zero-width spaces and joiners, fillers, variation selectors, any space
// but U+0020), no private or unassigned character, at most four combining
// marks on a character, at least one letter, digit, punctuation or symbol
// that shows, and nothing that looks like a server bot's name. A
// zero-width joiner or a variation selector is allowed inside an emoji
// sequence, where it shows no gap of its own.
func Check(name string) error {
	if err := CheckShown(name); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(name); n > MaxLen {
		return fmt.Errorf("%w: %q has %d", ErrTooLong, name, n)
	}
	if LooksLikeBot(name) {
		return ErrBotName
	}
	if looksLikeFormer(name) {
		return ErrReserved
	}
	return nil
}

// CheckShown is the part of Check that a name must pass to be shown at
// all, such as a name read from a record, where the server's own names
// ("Bot 2 (hard)", "Former player 3") and the arena's bot specs, longer
// than a person may choose, are right: the engine's rule and
// no invisible, direction-changing, private or unknown character.
func CheckShown(name string) error {
	if err := razzia.CheckName(name); err != nil {
		return err
	}
	runes := []rune(name)
	visible, marks := false, 0
	for i, r := range runes {
		switch {
		case r == ' ':
		case r == '\u200d' && i > 0 && i+1 < len(runes) && emoji(runes[i-1]) && emoji(runes[i+1]):
			// A joiner inside an emoji sequence (👩‍💻).
		case (r == '\ufe0e' || r == '\ufe0f') && i > 0 && unicode.Is(unicode.So, runes[i-1]):
			// Text or emoji presentation of a symbol (❤️).
		case invisible(r):
			return fmt.Errorf("the name %q holds the invisible or direction-changing character %U", name, r)
		case unicode.In(r, unicode.Mn, unicode.Me):
			if marks++; marks > maxMarks {
				return fmt.Errorf("the name %q stacks more than %d marks on one character", name, maxMarks)
			}
			continue
		case !unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S, unicode.Mc):
			return fmt.Errorf("the name %q holds the character %U, which is private or unknown", name, r)
		default:
			visible = true
		}
		marks = 0
	}
	if !visible {
		return fmt.Errorf("the name %q shows nothing: it needs a letter, digit or sign", name)
	}
	return nil
}

// emoji reports whether r can stand on either side of a joiner in an
// emoji sequence: a symbol, or the emoji variation selector.
func emoji(r rune) bool { return unicode.Is(unicode.So, r) || r == '\ufe0f' }

// invisible reports whether r shows nothing of its own or changes the
// direction of what follows: format characters (bidi controls, zero-width
// characters, soft hyphen, tags), default-ignorable fillers, variation
// selectors, and every space but U+0020. The Braille blank, which shows
// nothing, counts too.
func invisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Zs, unicode.Zl, unicode.Zp,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) ||
		r == '\u2800' || r == '\u3164' || r == '\uffa0' || r == '\u115f' || r == '\u1160'
}

// Key returns the form under which two names count as the same: Unicode
// compatibility forms folded (NFKC: "Ａｎｎ" is "Ann"), case folded ("ANN"
// is "ann"), default-ignorable characters dropped, and runs of spaces made
// one. Two players at a table may not have names with the same key, and
// account names will be unique by it.
func Key(name string) string {
	s := norm.NFKC.String(cases.Fold().String(norm.NFKC.String(name)))
	s = strings.Map(func(r rune) rune {
		if unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) {
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// Bot returns the name of the server's bot of the level at seat (from
// 0): "Bot 2 (hard)" at seat 1. Players cannot take such a name (Check).
func Bot(seat int, level string) string { return fmt.Sprintf("Bot %d (%s)", seat+1, level) }

// Former returns the name a seat (from 0) takes when the account that
// held it is deleted: "Former player 3" at seat 2. Players cannot take
// such a name (Check), so it names nobody.
func Former(seat int) string { return fmt.Sprintf("Former player %d", seat+1) }

// ErrReserved is the error of a name of the form Former gives.
var ErrReserved = errors.New(`the name looks like a deleted account's: names such as "Former player 3" are the server's`)

// looksLikeFormer reports whether name could be taken for Former's.
func looksLikeFormer(name string) bool {
	rest, ok := strings.CutPrefix(Key(name), "former player")
	if !ok {
		return false
	}
	r := []rune(strings.TrimLeft(rest, " "))
	return len(r) > 0 && unicode.IsDigit(r[0])
}

// LooksLikeBot reports whether name could be taken for a server bot's:
// its key starts with "bot" and a number ("Bot 2"), or ends with a bot
// level in brackets ("Ann (hard)"). "Bot" alone, "Botond" or "Bot Ann"
// claim no seat or level and are names like others.
func LooksLikeBot(name string) bool {
	k := Key(name)
	if rest, ok := strings.CutPrefix(k, "bot"); ok {
		if r := []rune(strings.TrimLeft(rest, " ")); len(r) > 0 && unicode.IsDigit(r[0]) {
			return true
		}
	}
	for _, level := range bot.LevelNames() {
		if strings.HasSuffix(strings.ReplaceAll(k, " ", ""), "("+level+")") {
			return true
		}
	}
	return false
}
