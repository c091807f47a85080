package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// viewModel returns a spectator's model, sized w×h, showing the view.
func viewModel(t *testing.T, v protocol.View, w, h int, lang string) *Model {
	t.Helper()
	m := NewRemote(t.Context(), nil, -1, "", Options{Lang: lang})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.received(stateMsg{state: &client.State{Game: protocol.GameInfo{Status: protocol.StatusPlaying}, Seat: -1, View: &v}})
	if m.over != noOverlay {
		press(m, "esc")
	}
	return m
}

// TestFivePlayersHoldingsCut: five players with many cards each at 80×24
// see their holdings cut with an ellipsis, never silently.
func TestFivePlayersHoldingsCut(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Cy", "Dee", "Eve"}})
	if err != nil {
		t.Fatal(err)
	}
	v := protocol.NewView(g.View(-1))
	kinds := slices.Concat(razzia.Jewels[:], razzia.Businesses[:], []razzia.Kind{razzia.Thief, razzia.Bodyguard, razzia.Car, razzia.Driver, razzia.Gold})
	for i := range v.Seats {
		h := map[string]int{}
		for j, k := range kinds {
			h[k.String()] = 1 + (i+j)%2 // "2 real estates" as well as "real estate"
		}
		v.Seats[i].Holdings = h
	}
	for _, lang := range []string{"en", "de", "hu"} {
		t.Run(lang, func(t *testing.T) {
			m := viewModel(t, v, 80, 24, lang)
			var names []string // every holding, as the screen may end with it
			for _, k := range kinds {
				names = append(names, m.cat.T("card."+k.String()), m.cat.Card(k.String(), 2))
			}
			s := screen(m)
			cut := 0
			for l := range strings.SplitSeq(s, "\n") {
				l = strings.TrimRight(l, " ")
				before, ok := strings.CutSuffix(l, " …")
				before = strings.TrimSuffix(before, ",") // a list that goes on
				if !strings.HasPrefix(l, "    ") || !ok {
					continue
				}
				cut++
				if !slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(before, n) }) {
					t.Errorf("the holdings are cut inside a holding: %q", l)
				}
			}
			if cut < len(v.Seats) {
				t.Errorf("%d of %d holdings show their cut:\n%s", cut, len(v.Seats), s)
			}
			checkFits(t, m, lang)
		})
	}
}

// TestHoldingsBeforeTheLog: five players at 80×24 squeezed by chat and a
// notice of two lines keep a line of holdings each, at the cost of the
// log's last line and of the older chat line, rather than lose them all.
func TestHoldingsBeforeTheLog(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Cy", "Dee", "Eve"}})
	if err != nil {
		t.Fatal(err)
	}
	v := protocol.NewView(g.View(-1))
	for i := range v.Seats {
		v.Seats[i].Holdings = map[string]int{"casino": 1, "ring": 2}
	}
	v.Row = []string{"car", "ring", "casino", "transport", "cinema", "necklace", "diamond"}
	v.Auction = &protocol.AuctionView{Kind: "seventh", HighBidder: -1, Bids: []string{"undecided", "undecided", "undecided", "undecided", "undecided"}}
	// Ann's own view, her turn: her stake and her choices take lines too.
	v.Seat, v.ToMove = 0, 0
	v.Legal = []string{"pass", "bid 2", "bid 7", "bid 16"}
	m := NewRemote(t.Context(), nil, 0, "", Options{Lang: "en"})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.received(stateMsg{state: &client.State{Game: protocol.GameInfo{Status: protocol.StatusPlaying}, Seat: 0, View: &v}})
	m.remote.chat = []protocol.ChatLine{{Name: "Bob", Text: "Good luck!"}}
	m.notice = strings.Repeat("An auction is on: bid or pass. ", 3)
	s := screen(m)
	if n := strings.Count(s, "    ♦ 2 rings  ♣ casino"); n != 5 {
		t.Errorf("the holdings of %d players of 5 show:\n%s", n, s)
	}
	checkFits(t, m, "squeezed")
	// Two chat lines: the older gives way to the holdings, the newest
	// stays.
	m.remote.chat = append(m.remote.chat, protocol.ChatLine{Name: "Cy", Text: "Thanks!"})
	s = screen(m)
	if n := strings.Count(s, "    ♦ 2 rings  ♣ casino"); n != 5 || !strings.Contains(s, "Cy: Thanks!") {
		t.Errorf("with two chat lines the holdings of %d players of 5 show, and the newest line %v:\n%s", n, strings.Contains(s, "Cy: Thanks!"), s)
	}
	checkFits(t, m, "squeezed by two chat lines")
}

// TestStakesFivePlayers: with five players at 80 columns, the line of
// stakes names every player, in each language, even with long names.
func TestStakesFivePlayers(t *testing.T) {
	names := []string{"Árpád Szentgyörgyiné", "Maximiliane Wolkenst", "Bot 1 (medium)", "Bot 2 (medium)", "Bot 3 (medium)"}
	g, err := razzia.NewGame(razzia.Setup{Players: names})
	if err != nil {
		t.Fatal(err)
	}
	for len(protocol.NewView(g.View(-1)).Row) < 2 {
		if err := g.PlayToken("draw car"); err != nil {
			t.Fatal(err)
		}
	}
	v := protocol.NewView(g.View(-1))
	for _, lang := range []string{"en", "de", "hu"} {
		t.Run(lang, func(t *testing.T) {
			m := viewModel(t, v, 80, 24, lang)
			s := screen(m)
			line := ""
			for l := range strings.SplitSeq(s, "\n") {
				if strings.HasPrefix(l, m.cat.T("tui.stake.all")) {
					line = l
				}
			}
			for i, n := range names {
				short := []rune(n)[:3]
				if !strings.Contains(line, string(short)) || strings.Count(line, "+")+strings.Count(line, "-") < len(names) {
					t.Errorf("the stakes lack player %d, %s: %q", i+1, n, line)
				}
			}
			// The bots' names keep their numbers.
			for _, n := range []string{"Bot 1", "Bot 2", "Bot 3"} {
				if !strings.Contains(line, n) {
					t.Errorf("the stakes lack %s: %q", n, line)
				}
			}
			checkFits(t, m, lang)
		})
	}
}

// TestBidsFit: a seat's part in an auction that does not fit at 80
// columns leaves out its words in brackets rather than be cut inside
// them: "passed over", not "passed over (no che…".
func TestBidsFit(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Cy", "Dee", "Eve"}})
	if err != nil {
		t.Fatal(err)
	}
	v := protocol.NewView(g.View(-1))
	v.Auction = &protocol.AuctionView{Kind: "police", HighBidder: -1, Bids: []string{"passed over", "undecided", "bid 13", "pass", "undecided"}}
	for _, lang := range []string{"en", "de", "hu"} {
		m := viewModel(t, v, 80, 24, lang)
		over := "– " + m.cat.T("bids.passedover")
		over = over[:strings.Index(over, " (")]
		line := playerLine(t, screen(m), "Ann")
		if !strings.HasSuffix(strings.TrimRight(line, " "), over) {
			t.Errorf("%s: the seat passed over reads %q; want it to end %q", lang, line, over)
		}
		checkFits(t, m, lang)
		if m = viewModel(t, v, 120, 40, lang); !strings.Contains(screen(m), m.cat.T("bids.passedover")) {
			t.Errorf("%s: at 120 columns the whole reason lacks:\n%s", lang, screen(m))
		}
	}
}

// TestLongNamesKeepColumns: a long name gives way to the cheques, which
// start in the same column on every line, at 80×24 and 120×40.
func TestLongNamesKeepColumns(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Maximiliane Wolkenstein", "Bob", "Árpád Szentgyörgyi"}})
	if err != nil {
		t.Fatal(err)
	}
	v := protocol.NewView(g.View(-1))
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m := viewModel(t, v, size[0], size[1], "hu")
		col := -1
		for l := range strings.SplitSeq(screen(m), "\n") {
			i := strings.Index(l, "[")
			if i < 0 || !strings.Contains(l, "$") {
				continue
			}
			c := ansi.StringWidth(l[:i])
			if col >= 0 && c != col {
				t.Errorf("%d×%d: cheques start in column %d and %d:\n%s", size[0], size[1], col, c, screen(m))
			}
			col = c
			if l[i-1] != ' ' {
				t.Errorf("the name runs into the cheques: %q", l)
			}
		}
	}
}

// TestStakesForEveryone: while another player decides, the line under the
// table says what the lot is worth to each player; on one's own turn the
// others' stakes show too.
func TestStakesForEveryone(t *testing.T) {
	g, info := startedGame(t)
	for len(protocol.NewView(g.View(-1)).Row) == 0 {
		if err := g.PlayToken("draw car"); err != nil {
			t.Fatal(err)
		}
	}
	mover := g.ToMove()
	waiting := (mover + 1) % 3
	m, _ := onlineModel(t, g, waiting, info)
	s := screen(m)
	contains(t, s, "Worth now:")
	for _, n := range g.Players() {
		if !strings.Contains(s, n+" +") && !strings.Contains(s, n+" -") { // whole: there is room
			t.Errorf("the stakes lack %s:\n%s", n, s)
		}
	}
	m, _ = onlineModel(t, g, mover, info)
	s = screen(m)
	contains(t, s, "Worth to you now:", "Worth now:")
}

// TestCardKeepsItsSymbol: a row of seven cards wraps between cards,
// never between a card's symbol and its name, in every language and
// order of the cards.
func TestCardKeepsItsSymbol(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Cy"}})
	if err != nil {
		t.Fatal(err)
	}
	cards := []string{"realestate", "nightclub", "restaurant", "driver", "bodyguard", "necklace", "brooch", "diamond", "car", "gold"}
	for _, lang := range []string{"en", "de", "hu", "nl", "it", "es"} {
		for start := range cards {
			v := protocol.NewView(g.View(-1))
			for k := range razzia.RowSize {
				v.Row = append(v.Row, cards[(start+k)%len(cards)])
			}
			m := viewModel(t, v, 80, 24, lang)
			for l := range strings.SplitSeq(screen(m), "\n") {
				l = strings.TrimRight(l, " ")
				for _, f := range families {
					if strings.HasSuffix(l, f.symbol) {
						t.Errorf("%s: a line ends with a card's symbol: %q", lang, l)
					}
				}
			}
		}
	}
}

// playedOut returns a game between bots played to its end, at 80×24.
func playedOut(t *testing.T, lang string) *Model {
	t.Helper()
	return newLocal(t, nil, []string{"random", "random", "random"}, 11, lang)
}

// TestScorePageOpensAtTop: the score page shows the latest round first,
// its head at the top.
func TestScorePageOpensAtTop(t *testing.T) {
	m := playedOut(t, "en")
	press(m, "s")
	lines := strings.Split(screen(m), "\n")
	if !strings.Contains(lines[2], "Round 3 of 3") {
		t.Errorf("the score page does not open at the latest round's head:\n%s", strings.Join(lines, "\n"))
	}
}

// TestLogRounds: the log has a heading for each round and every player's
// points when a round is scored.
func TestLogRounds(t *testing.T) {
	m := playedOut(t, "de")
	m.over = logOverlay
	log := strings.Join(m.logLines(), "\n")
	for _, want := range []string{"— Runde 1 —", "— Runde 2 —", "— Runde 3 —", "Punkte in dieser Runde"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	if n := strings.Count(log, "Punkte in dieser Runde"); n != 3*len(m.snap.Seats) {
		t.Errorf("%d scoring lines, want %d", n, 3*len(m.snap.Seats))
	}
}

// TestLeavePromptWhole: the question whether to leave the table keeps its
// answer keys at 80×24 in every language.
func TestLeavePromptWhole(t *testing.T) {
	for _, lang := range []string{"en", "de", "hu"} {
		t.Run(lang, func(t *testing.T) {
			g, info := startedGame(t)
			m, _ := onlineModel(t, g, g.ToMove(), info)
			m.cat = langCat(t, lang)
			m.key(keyMsg("L"))
			flat := strings.Join(strings.Fields(screen(m)), " ")
			if want := strings.Join(strings.Fields(m.cat.T("tui.leave.confirm")), " "); !strings.Contains(flat, want) {
				t.Errorf("the question is cut:\n%s", screen(m))
			}
			checkFits(t, m, lang)
		})
	}
}

// TestRematchClearsChat: the chat of the game before does not follow the
// players to the rematch.
func TestRematchClearsChat(t *testing.T) {
	g, info := startedGame(t)
	m, _ := onlineModel(t, g, 0, info)
	m.heard(&protocol.ChatMessage{Lines: []protocol.ChatLine{{Name: "Bob", Text: "good game"}}})
	contains(t, screen(m), "good game")
	m.snap.Phase = "over"
	m.takeOffer(&protocol.RematchOffer{State: protocol.RematchStarted, Game: "abcdefgh22", Answers: []string{protocol.RematchYes, protocol.RematchYes, protocol.RematchYes}})
	lacks(t, screen(m), "good game")
}
