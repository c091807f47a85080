package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/razziagame/razzia"
)

// checkFits fails unless the screen fits the terminal: at most height
// lines of at most width cells.
func checkFits(t *testing.T, m *Model, when string) {
	t.Helper()
	s := m.Render()
	lines := strings.Split(s, "\n")
	if len(lines) > m.height {
		t.Fatalf("%s: %d lines on a terminal of %d:\n%s", when, len(lines), m.height, ansi.Strip(s))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > m.width {
			t.Fatalf("%s: line %d is %d cells wide on a terminal of %d: %q", when, i+1, w, m.width, ansi.Strip(l))
		}
	}
}

func contains(t *testing.T, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("the screen lacks %q:\n%s", w, s)
		}
	}
}

func lacks(t *testing.T, s string, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(s, w) {
			t.Errorf("the screen shows %q:\n%s", w, s)
		}
	}
}

// TestRenderTable checks that the 80×24 screen shows what the browser
// table shows: round, police track, centre cheque, deck, the row, every
// player's cheques face up and face down, holdings by family with their
// symbols, scores, the running auction (kind, who started it, the highest
// bid, every seat's part), the log and the choices.
func TestRenderTable(t *testing.T) {
	m := scripted(t, "en", auctionMoves...)
	checkFits(t, m, "auction")
	s := screen(m)
	contains(t, s,
		"Razzia!", "Round 1 of 3", "Police ☆☆☆☆☆☆☆ 0/7", "Centre cheque [5]", "Deck 117:",
		"Auction row (1/7): ✦ thief",
		"⚑ Forced auction (Bert)", "Highest bid: 7 by Cleo",
		"▶ Ann (you)", "[2][8][13] (1)", // face up, then face down
		"▲ 1 car", "♦ ring", // holdings by family, with symbols
		"Bert", "[3][6][9][12]", "… to decide", "Cleo", "✓ bid 7",
		"Σ 0",
		"· Cleo bids 7.", // the log
		"Your turn, Ann:", "Pass", "Bid 8", "Bid 13",
		"?: help", "q: quit",
	)
	if got := strings.Count(s, "\n") + 1; got != 24 {
		t.Errorf("the screen has %d lines, want 24", got)
	}
}

// TestKeys drives the model with the keys of the help page.
func TestKeys(t *testing.T) {
	t.Run("digits select a bid, enter plays it", func(t *testing.T) {
		m := scripted(t, "en", auctionMoves...)
		press(m, "1", "3")
		if s := screen(m); !strings.Contains(s, "▶ Bid 13") {
			t.Fatalf("1 3 did not select Bid 13:\n%s", s)
		}
		n := m.game.Len()
		press(m, "enter")
		if got := m.game.Moves()[n].String(); got != "bid 13" {
			t.Errorf("played %q, want bid 13", got)
		}
	})
	t.Run("a digit no bid starts with is refused", func(t *testing.T) {
		m := scripted(t, "en", auctionMoves...)
		n := m.game.Len()
		press(m, "4")
		contains(t, screen(m), "You cannot bid a cheque starting with 4")
		if m.game.Len() != n {
			t.Error("a move was played")
		}
	})
	t.Run("arrows and tab move the selection", func(t *testing.T) {
		m := scripted(t, "en", auctionMoves...)
		press(m, "right", "tab")
		contains(t, screen(m), "▶ Bid 13")
		press(m, "left")
		contains(t, screen(m), "▶ Bid 8")
		n := m.game.Len()
		press(m, "enter")
		if got := m.game.Moves()[n].String(); got != "bid 8" {
			t.Errorf("played %q, want bid 8", got)
		}
	})
	t.Run("p passes", func(t *testing.T) {
		m := scripted(t, "en", auctionMoves...)
		n := m.game.Len()
		press(m, "p")
		if got := m.game.Moves()[n].String(); got != "pass" {
			t.Errorf("played %q, want pass", got)
		}
	})
	t.Run("d in an auction is refused and changes nothing", func(t *testing.T) {
		m := scripted(t, "en", auctionMoves...)
		n := m.game.Len()
		press(m, "d")
		contains(t, screen(m), "✗ An auction is running: bid or pass.")
		if m.game.Len() != n {
			t.Error("a move was played")
		}
	})
	t.Run("d draws", func(t *testing.T) {
		m := scripted(t, "en")
		press(m, "d")
		if got := m.game.Moves()[0]; got.Action != razzia.ActionDraw || got.Card == razzia.NoKind {
			t.Errorf("played %v, want a draw with its card", got)
		}
	})
	t.Run("c calls", func(t *testing.T) {
		m := scripted(t, "en")
		press(m, "c")
		if got := m.game.Moves()[0].String(); got != "call" {
			t.Errorf("played %q, want call", got)
		}
	})
	t.Run("t picks row cards for thieves", func(t *testing.T) {
		// Ann wins the thief, then the row gets a car, a watch, ...
		m := scripted(t, "en", append(slices.Clone(auctionMoves), "bid 8", "pass", // Ann wins the thief
			"draw car", "draw watch", "draw diamond", "draw brooch")...) // Cleo, Ann, Bert, Cleo
		if !m.mine() {
			t.Fatalf("Ann is not to move:\n%s", screen(m))
		}
		press(m, "t")
		s := screen(m)
		contains(t, s, "Take row cards with your thieves (you have 1)", "1[ ] ▲ car", "2[ ] ♦ watch")
		press(m, "1", "2", "enter") // two cards with one thief: refused
		contains(t, screen(m), "Choose 1 row card")
		press(m, "1", "enter") // the watch alone
		if !slices.Contains(tokens(m.game.Moves()), "thief watch") {
			t.Errorf("played %q, want thief watch", tokens(m.game.Moves()))
		}
	})
	t.Run("esc leaves the picker", func(t *testing.T) {
		m := scripted(t, "en", append(slices.Clone(auctionMoves), "bid 8", "pass", "draw car", "draw watch", "draw diamond", "draw brooch")...)
		press(m, "t", "esc")
		s := screen(m)
		contains(t, s, "▶ Use thieves…")
		lacks(t, s, "Take row cards")
	})
	t.Run("q asks first, n goes on, y quits", func(t *testing.T) {
		m := scripted(t, "en", auctionMoves...)
		press(m, "q")
		contains(t, screen(m), "Quit this game? y: yes, n: no")
		press(m, "n")
		lacks(t, screen(m), "Quit this game?")
		m.key(keyMsg("q"))
		if cmd := m.key(keyMsg("y")); cmd == nil || cmd() != tea.Quit() {
			t.Error("y did not quit")
		}
	})
	t.Run("ctrl+c quits at once", func(t *testing.T) {
		m := scripted(t, "en", auctionMoves...)
		if cmd := m.key(keyMsg("ctrl+c")); cmd == nil || cmd() != tea.Quit() {
			t.Error("ctrl+c did not quit")
		}
	})
	t.Run("ctrl+z suspends, without quitting", func(t *testing.T) {
		m := scripted(t, "en", auctionMoves...)
		if cmd := m.key(keyMsg("ctrl+z")); cmd == nil || cmd() != tea.Suspend() {
			t.Error("ctrl+z did not suspend")
		}
		if m.quit {
			t.Error("ctrl+z quit")
		}
	})
}

func tokens(moves []razzia.Move) []string {
	var ts []string
	for _, m := range moves {
		ts = append(ts, m.String())
	}
	return ts
}

// TestPages opens and closes the pages over the table.
func TestPages(t *testing.T) {
	for _, tc := range []struct {
		key   string
		wants []string
	}{
		{"?", []string{"» Help", "Keys", "draw a card", "Symbols", "✦ thief", "▲ car, driver"}},
		{"? G", []string{"» Help", "★ police", "[9]", "(9)", "✓ ✗ … –"}},
		{"r", []string{"» Razzia! in brief", "Goal", "Cards"}},
		{"l", []string{"» Game log", "Ann draws a car.", "Cleo bids 7."}},
		{"s", []string{"» Score tables", "No round has been scored yet."}},
	} {
		t.Run(tc.key, func(t *testing.T) {
			m := scripted(t, "en", auctionMoves...)
			press(m, strings.Fields(tc.key)...)
			checkFits(t, m, tc.key)
			contains(t, screen(m), tc.wants...)
			press(m, "esc")
			contains(t, screen(m), "Your turn, Ann:")
		})
	}
}

// TestTooSmall checks that a small terminal is told so, that the bots
// wait, and that the game goes on once the terminal is large again.
func TestTooSmall(t *testing.T) {
	m := scripted(t, "en", auctionMoves...)
	_, cmd := m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	drain(m, cmd)
	checkFits(t, m, "small")
	s := screen(m)
	contains(t, s, "too small", "60×20", "80×24")
	lacks(t, s, "Auction row")
	n := m.game.Len()
	press(m, "p") // ignored while small
	if m.game.Len() != n {
		t.Fatal("a key played while the terminal was too small")
	}
	// A bot's move that arrives while the terminal is small waits.
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	cmd = m.key(keyMsg("p")) // Ann passes; Bert is asked
	if cmd == nil {
		t.Fatal("no bot was asked")
	}
	m.Update(tea.WindowSizeMsg{Width: 79, Height: 24})
	if _, next := m.Update(cmd()); next != nil { // Bert's move arrives
		t.Error("a bot was asked while the terminal was too small")
	}
	n = m.game.Len()
	_, cmd = m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	drain(m, cmd)
	if m.game.Len() <= n {
		t.Error("the game did not go on after the terminal grew")
	}
	checkFits(t, m, "100×30")
	contains(t, screen(m), "Auction row")
}

// TestLanguage checks the fallback to English with a notice, and that a
// language the program speaks is spoken.
func TestLanguage(t *testing.T) {
	t.Run("unknown", func(t *testing.T) {
		m := scripted(t, "xx", auctionMoves...)
		contains(t, screen(m), `! The language "xx" is not available: using English.`, "Your turn, Ann:")
	})
	for _, tc := range []struct{ lang, want string }{
		{"nl", "Ronde 1"},
		{"de", "Runde 1"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			m := scripted(t, tc.lang, auctionMoves...)
			s := screen(m)
			lacks(t, s, "not available", "Your turn")
			contains(t, s, tc.want)
			checkFits(t, m, tc.lang)
		})
	}
}

// TestHotSeat checks that, with several people at the keyboard, each turn
// is named before the choices show.
func TestHotSeat(t *testing.T) {
	m := newLocal(t, []string{"Ann", "Bob"}, nil, 3, "en")
	who := m.name(m.snap.ToMove)
	s := screen(m)
	contains(t, s, who+", it is your turn.", "Press enter to see your choices.")
	lacks(t, s, "Draw a card", "(you)")
	press(m, "d") // not yet
	if m.game.Len() != 0 {
		t.Fatal("a move was played behind the curtain")
	}
	press(m, "enter")
	contains(t, screen(m), "Your turn, "+who+":", "▶ Draw a card")
	press(m, "right")
	contains(t, screen(m), "▶ Call an auction")
	press(m, "left", "d")
	other := m.name(m.snap.ToMove)
	if other == who {
		t.Fatalf("%s is to move again", who)
	}
	contains(t, screen(m), other+", it is your turn.")
}

// TestWholeGame plays games to the end with keys only, checking after
// every key that the screen fits 80×24, that each round's score table
// shows, and that the end shows the result.
func TestWholeGame(t *testing.T) {
	for _, tc := range []struct {
		name   string
		people []string
		bots   []string
	}{
		{"five players", []string{"Ann"}, []string{"random", "easy", "random", "random"}},
		{"two players", []string{"Ann"}, []string{"easy"}},
		{"hot seat", []string{"Ann", "Bob", "Cy"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newLocal(t, tc.people, tc.bots, 11, "en")
			tables := map[int]bool{}
			keys := []string{"enter", "d", "p", "right", "enter"}
			for i := 0; !m.Over(); i++ {
				if i > 5000 {
					t.Fatalf("no end after %d keys:\n%s", i, screen(m))
				}
				if m.over == scoresOverlay && !tables[m.scored] {
					tables[m.scored] = true
					contains(t, screen(m), "Round "+string(rune('0'+m.scored))+" of 3", "Thieves", "Cheques")
				}
				press(m, keys[i%len(keys)])
				checkFits(t, m, "during the game")
			}
			if !tables[1] || !tables[2] || len(tables) != 2 {
				t.Errorf("the score table showed after rounds %v, want 1 and 2", tables)
			}
			s := screen(m)
			contains(t, s, "★ Game over:", "R1", "R2", "R3", "Σ")
			for _, p := range m.snap.Players {
				contains(t, s, p)
			}
			press(m, "s")
			contains(t, screen(m), "Round 3 of 3", "Total")
			press(m, "esc")
			if cmd := m.key(keyMsg("q")); cmd == nil || cmd() != tea.Quit() {
				t.Error("q did not quit a finished game at once")
			}
		})
	}
}
