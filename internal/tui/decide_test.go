package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/i18n"
)

// flat joins the screen's words with single spaces, so that a text wrapped
// over two lines is found as one.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestTableShowsDeckRiskAndCheques: the table shows the undrawn cards by
// family, the raid risk, every player's cheque sum for the final majority
// (R17) and what the row is worth to the player deciding.
func TestTableShowsDeckRiskAndCheques(t *testing.T) {
	m := scripted(t, "en", auctionMoves...)
	checkFits(t, m, "auction")
	s := screen(m)
	contains(t, s,
		// car, ring and thief drawn: 117 left, 21 of them police.
		"Deck 117: ★ 21  ✦ 5  ■ 16  ▲ 15+10  ♦ 19  ● 3  ♣ 28",
		"Next card police: 18% · 7 more police cards end the round.",
		// Ann: 2 8 13 face up and 1 face down; Bert 3 6 9 12; Cleo's 7
		// is bid but still hers until the auction ends (R11).
		"$24", "$30", "$32",
		// The thief in the row: 2 points (R16).
		"Worth to you now: ✦ +2",
	)
}

// roundThree leads to round 3, where the cheques score (R17): Bert has
// sold his 12 for the centre 1 (sum 19), Cleo her 4 for the 12 (sum 40),
// Ann keeps 2 5 8 13 (28); the centre cheque is 4. Each round ends by the
// raid. In round 3 Ann draws a bodyguard, Bert a gold coin, and Cleo calls:
// Ann decides first.
var roundThree = slices.Concat(
	[]string{
		"draw police", "bid 12", "pass", // Ann draws; Bert wins the 1 (Cleo has nothing above 12)
		"draw police", "bid 4", "pass", "pass", // Bert draws; Cleo wins the 12
	},
	// Cleo, Ann, Bert, Cleo draw police; Ann's is the raid.
	slices.Repeat([]string{"draw police", "pass", "pass", "pass"}, 4), []string{"draw police"},
	policeRounds(1), // round 2: Ann holds the 13 and starts (R6)
	[]string{"draw bodyguard", "draw gold", "call"},
)

// TestStakeFollowsTheBid: in round 3 what the row is worth depends on the
// cheque paid, and the line follows the bid selected (R17): for 2, Ann's
// sum becomes 28 − 2 + 4 = 30, between Bert's 19 and Cleo's 40, no change;
// for 13 it becomes 19 and ties Bert for the lowest, −5. The bodyguard is
// +5 (the most, R16) and the gold coin +3.
func TestStakeFollowsTheBid(t *testing.T) {
	m := scripted(t, "en", roundThree...)
	if m.over != noOverlay {
		press(m, "esc") // round 2's score table
	}
	contains(t, screen(m), "Round 3 of 3", "▶ Pass", "Worth to you now, for 2: ■ +5  ● +3  = +8", "$28", "$19", "$40")
	press(m, "1", "3")
	contains(t, screen(m), "▶ Bid 13", "Worth to you now, for 13: ■ +5  ● +3  $ -5  = +3")
	checkFits(t, m, "round 3")
}

// TestGameOverTable: after the game the table shows round 3 by category,
// the rounds and the total for every player, and the title no longer shows
// the police track of a round that is over. Every round ends by the raid
// with nothing won: jewels −5 each round (R16); in round 3 the cheque sums
// 28, 30, 32 score −5 for Ann and +5 for Cleo (R17), who wins (R18).
func TestGameOverTable(t *testing.T) {
	m := scripted(t, "en", policeRounds(3)...)
	if !m.Over() {
		t.Fatalf("the game is not over:\n%s", screen(m))
	}
	checkFits(t, m, "game over")
	s := screen(m)
	title := strings.Split(s, "\n")[0]
	contains(t, title, "Round 3 of 3", "Game over")
	lacks(t, title, "Police", "0/7", "cards left")
	contains(t, s,
		"★ Game over: Cleo wins the game.",
		"✦   ■   ▲   ♦   ●   ♣   $    R1   R2   R3     Σ",
		"Ann                0   0   0  -5   0   0  -5    -5   -5  -10   -20",
		"Bert               0   0   0  -5   0   0   0    -5   -5   -5   -15",
		"★ Cleo               0   0   0  -5   0   0   5    -5   -5    0   -10",
		"Round 3 by category (s: score tables)",
	)
}

// TestGameOverTableHeadings: the rounds' headings of the table after the
// game stand apart in every language (Hungarian's "1. f." is five
// letters), each above its column.
func TestGameOverTableHeadings(t *testing.T) {
	for _, l := range i18n.Languages() {
		t.Run(l.Tag, func(t *testing.T) {
			m := scripted(t, l.Tag, policeRounds(3)...)
			s := screen(m)
			checkFits(t, m, l.Tag)
			var head, ann string
			for line := range strings.SplitSeq(s, "\n") {
				switch {
				case strings.Contains(line, "Σ") && strings.Contains(line, "♣"):
					head = line
				case strings.Contains(line, "Ann "):
					ann = line
				}
			}
			for r := 1; r <= razzia.Rounds; r++ {
				h := m.cat.T("tui.round.short", "round", r)
				i := strings.Index(head, " "+h)
				if i < 0 {
					t.Fatalf("the heading %q does not stand apart: %q", h, head)
				}
				// The round's total ends where its heading ends.
				end := len([]rune(head[:i+1+len(h)]))
				if a := []rune(ann); len(a) < end || a[end-1] == ' ' {
					t.Errorf("the total of round %d does not end under its heading:\n%s\n%s", r, head, ann)
				}
			}
		})
	}
}

// TestMustBidShownWhole: the caller's obligation (R9) is never cut off,
// in any language, however long the names.
func TestMustBidShownWhole(t *testing.T) {
	for _, l := range i18n.Languages() {
		t.Run(l.Tag, func(t *testing.T) {
			m := scripted(t, l.Tag, "call", "pass", "pass") // Ann calls, Bert and Cleo pass
			checkFits(t, m, "must bid")
			want := m.cat.T("auction.mustbid", "player", "Ann")
			if s := screen(m); !strings.Contains(flat(s), flat(want)) {
				t.Errorf("the screen lacks %q:\n%s", want, s)
			}
		})
	}
}
