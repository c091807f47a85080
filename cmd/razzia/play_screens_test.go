package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hinshun/vt10x"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/table"
	"github.com/razziagame/razzia/internal/testclock"
)

// A screenCase is one case of TestPlayScreens in a terminal of one size
// and language, with the server the cases share.
type screenCase struct {
	srv *servertest.Server
	clk *testclock.Clock // the server's tables' clocks
	// timing holds the clock still for others from one case's advance
	// until its seat is taken back, which another's advance would time
	// out again.
	timing *sync.Mutex
	// quick is a server the rematch cases share: its bots move at once,
	// and no case moves its clock.
	quick *servertest.Server
	c     *client.Client
	term  *terminal
	lang  string
	cat   *i18n.Catalogue
}

// T is the text of key in the case's language.
func (sc *screenCase) T(key string, args ...any) string { return sc.cat.T(key, args...) }

// shows waits until the screen shows every text whole, wherever the
// terminal or the program wrapped it, and returns the screen's words.
func (sc *screenCase) shows(t *testing.T, texts ...string) string {
	t.Helper()
	var s string
	sc.term.waitUntil(10*time.Second, "", fmt.Sprintf("%q", texts), func(screen string) bool {
		s = words(screen, sc.term.cols)
		for _, x := range texts {
			if !strings.Contains(s, words(x, 0)) {
				return false
			}
		}
		return true
	})
	return s
}

// quit types q, waits for the question (the key of its text) whole, types
// the answer and waits for the program to end with status 0.
func (sc *screenCase) quit(t *testing.T, status <-chan exit, question, answer string) {
	t.Helper()
	sc.term.send("q")
	sc.shows(t, sc.T(question))
	sc.term.send(answer)
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
}

// words returns the screen's text as it reads, its words separated by
// single spaces: a line the terminal wrapped at its width (a full line)
// goes on without a space, as a link cut in two does.
func words(screen string, width int) string {
	var b strings.Builder
	for l := range strings.SplitSeq(screen, "\n") {
		l = strings.TrimRight(l, " ")
		b.WriteString(l)
		if width == 0 || utf8.RuneCountInString(l) < width {
			b.WriteString(" ")
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// TestPlayScreens checks, in a pseudo-terminal at 80×24 and 120×40 in
// English, German and Hungarian, what a person sees where razzia play
// once failed them: "connecting to" while the server has not answered;
// the table; no turn offered and the offline sign while the server is
// out of reach, and the turn back after; L and q at a started game, which
// say that a bot plays until you come back, with their keys, and the seat
// kept after q; q in the waiting room of one's own table, which offers to
// close it, and of another's, which offers to keep the seat; a hot-seat
// hand-over, then the choices with the safe one selected; a local game's
// rounds' ends: the score page at its top, the latest round's heading
// first, the log's scores and the next round's heading, and the summary
// razzia play prints at the game's end, its totals in one column; the
// time run out at a blitz table: said as such (not "you left"), no turn
// offered, the row in its place, B to take the seat back; the seat's turn again while a bot plays it: said so, no turn
// offered; low time at a blitz table: the clock bright red with its
// hourglass, and the bell once; a rematch's table without the old game's
// chat; five players' holdings cut with "…" between whole holdings; a
// game watched, with no seat and no turn. Every text is checked whole,
// wherever it wraps. One server serves the cases, but for those that
// move a clock of their own, and the rematches, which share a server
// whose bots move at once.
func TestPlayScreens(t *testing.T) {
	t.Parallel() // terminals and programs of their own, mostly waiting
	// The tables' clocks run only when a case advances them; the leases,
	// read by the same clock, outlast every advance.
	clk := testclock.New()
	srv := servertest.New(t, servertest.Options{LevelBots: true, API: httpapi.Options{MessageRate: 1000, MessageBurst: 20},
		Hub: table.Options{Now: clk.Now, AfterFunc: clk.AfterFunc, LeaseTTL: 24 * time.Hour}})
	c := srv.Client()
	quick, _ := ownServer(t)
	var timing sync.Mutex
	narrow := [][2]int{{80, 24}}
	for _, tc := range []struct {
		name string
		play func(t *testing.T, sc *screenCase)
		// sizes narrows a case whose faults are the narrow screen's
		// alone: each case holds one of the few parallel places while it
		// waits.
		sizes [][2]int
	}{
		{name: "seat kept through a lost connection and q", play: playSeatKept},
		{name: "own waiting room closed", play: playOwnWaitingRoom},
		{name: "another's waiting room kept", play: playOthersWaitingRoom},
		{name: "hot-seat hand-over", play: playHandOver},
		{name: "time run out", play: playTimeOut},
		{name: "a bot's turn for the person", play: playStandInTurn},
		{name: "low time", play: playLowTime},
		{name: "rematch without the old chat", play: playRematch},
		{name: "five players' holdings cut", play: playFiveHoldings, sizes: narrow},
		{name: "rounds' ends and the summary", play: playRoundEnd},
		{name: "watched", play: playWatched},
	} {
		if tc.sizes == nil {
			tc.sizes = [][2]int{{80, 24}, {120, 40}}
		}
		for _, lang := range []string{"en", "de", "hu"} {
			cat, ok := i18n.Lookup(lang)
			if !ok {
				t.Fatalf("no catalogue %s", lang)
			}
			for _, size := range tc.sizes {
				t.Run(fmt.Sprintf("%s/%s/%dx%d", tc.name, lang, size[0], size[1]), func(t *testing.T) {
					t.Parallel()
					sc := &screenCase{srv: srv, clk: clk, timing: &timing, quick: quick, c: c, term: newTerminal(t, size[0], size[1]), lang: lang, cat: cat}
					tc.play(t, sc)
				})
			}
		}
	}
}

// playSeatKept: Ann creates a table with two bots through a gate that
// holds her first connection, then cuts her off and lets her in again,
// and quits with q.
func playSeatKept(t *testing.T, sc *screenCase) {
	g := newGate(t, sc.srv.Listener.Addr().String())
	status := playCommand(t, sc.term, "--server", g.url, "--name", "Ann", "--bots", "easy,easy", "--lang", sc.lang)
	sc.shows(t, sc.T("tui.server.connectingto", "server", g.url))
	g.open()
	yourTurn, _, _ := strings.Cut(sc.T("tui.yourturn", "player", "Ann"), "Ann")
	sc.shows(t, "Ann ("+sc.T("term.you")+")", sc.T("term.row"), yourTurn+"Ann")

	g.cut()
	offline := reconnecting(sc.cat)
	sc.term.waitUntil(20*time.Second, "", "the offline sign and no turn", func(s string) bool {
		s = words(s, sc.term.cols)
		return offline.MatchString(s) && !strings.Contains(s, yourTurn)
	})
	g.open()
	sc.term.waitUntil(30*time.Second, "", "the turn back", func(s string) bool {
		s = words(s, sc.term.cols)
		return !offline.MatchString(s) && strings.Contains(s, yourTurn+"Ann")
	})

	sc.term.send("d") // a card in the row: what it is worth shows
	sc.term.waitUntil(10*time.Second, "", "the worth of the row to Ann and the others", func(s string) bool {
		return strings.Contains(words(s, sc.term.cols), yourTurn+"Ann") && sc.worthShown(s, true)
	})

	sc.term.send("L")
	sc.shows(t, sc.T("tui.leave.confirm"))
	sc.term.send("n")
	sc.quit(t, status, "tui.quit.standin", "y")
	kept := pattern(sc.cat, "tui.seat.kept", "command", "razzia play "+regexp.QuoteMeta(g.url)+`/g/([a-z2-7]{10})`)
	var m []string
	sc.term.waitUntil(10*time.Second, "", "the seat kept and its link", func(s string) bool {
		m = kept.FindStringSubmatch(words(s, sc.term.cols))
		return m != nil
	})
	standIn(t, sc.c, m[1], "Ann")
}

// reconnecting matches the offline sign in the screen's words, whatever
// the seconds it counts.
func reconnecting(cat *i18n.Catalogue) *regexp.Regexp {
	return pattern(cat, "tui.server.reconnecting", "seconds", `\d+`)
}

// pattern matches the text of key in the screen's words, each
// placeholder named in pairs (name, re, ...) matching its re.
func pattern(cat *i18n.Catalogue, key string, pairs ...string) *regexp.Regexp {
	var args []any
	for i := 0; i < len(pairs); i += 2 {
		args = append(args, pairs[i], "\x00"+pairs[i]+"\x00")
	}
	parts := strings.Split(words(cat.T(key, args...), 0), "\x00")
	for i := range parts {
		if i%2 == 0 {
			parts[i] = regexp.QuoteMeta(parts[i])
		} else {
			parts[i] = pairs[slices.Index(pairs, parts[i])+1]
		}
	}
	return regexp.MustCompile(strings.Join(parts, ""))
}

// standIn waits until a server bot plays for the person's seat in game
// id: the seat is kept, not lost.
func standIn(t *testing.T, c *client.Client, id, person string) {
	t.Helper()
	follow(t, c, id, "", "no bot plays for "+person+"'s seat", func(_ *client.Conn, st *client.State) bool {
		return slices.ContainsFunc(st.Game.Seats, func(seat protocol.SeatInfo) bool { return seat.Name == person && seat.StandIn != "" })
	})
}

// follow reads the states of game id, for the seat of token or as a
// spectator, until done holds for one; what names the wait in a failure.
func follow(t *testing.T, c *client.Client, id, token, what string, done func(*client.Conn, *client.State) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	conn, err := c.Dial(ctx, id, token)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for {
		st, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if done(conn, st) {
			return
		}
	}
}

// playOwnWaitingRoom: Ann's table waits for a third player; q offers to
// close it, y closes it on the server.
func playOwnWaitingRoom(t *testing.T, sc *screenCase) {
	status := playCommand(t, sc.term, "--server", sc.srv.URL, "--name", "Ann", "--bots", "easy", "--players", "3", "--lang", sc.lang)
	s := sc.shows(t, sc.T("tui.server.invite"), "Ann ("+sc.T("term.you")+")")
	m := regexp.MustCompile(`/g/([a-z2-7]{10})`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no link in the waiting room: %s", s)
	}
	sc.quit(t, status, "tui.quit.open", "y")
	sc.shows(t, sc.T("cli.table.closed", "link", sc.srv.URL+m[0]))
	if _, _, err := sc.c.Game(t.Context(), m[1], ""); !isRefusal(err, protocol.TableCancelled) {
		t.Fatalf("the table on the server: %v; want it cancelled", err)
	}
}

// playOthersWaitingRoom: Gus joins a table that waits for another
// player; q offers to keep the seat or give it up, k keeps it.
func playOthersWaitingRoom(t *testing.T, sc *screenCase) {
	info, _, err := sc.c.Create(t.Context(), []string{"", "", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	link := sc.srv.URL + "/g/" + info.ID
	status := playCommand(t, sc.term, "--name", "Gus", "--lang", sc.lang, link)
	sc.shows(t, "Gus ("+sc.T("term.you")+")", sc.T("tui.server.waiting"))
	sc.quit(t, status, "waitroom.quit.ask", "k")
	sc.shows(t, sc.T("tui.seat.kept", "command", "razzia play "+link))
	got, _, err := sc.c.Game(t.Context(), info.ID, "")
	if err != nil || got.Seats[0].Name != "Gus" {
		t.Fatalf("the seat on the server: %+v, %v; want Gus's", got.Seats, err)
	}
}

// playHandOver: a hot-seat game of two people names whose turn it is
// before it shows their choices; enter shows them with the safe move
// selected, → selects the next, and q asks whether to quit, with its
// keys.
func playHandOver(t *testing.T, sc *screenCase) {
	status := playCommand(t, sc.term, "--players", "Ann,Bob", "--seed", "7", "--delay", "0", "--lang", sc.lang)
	enter := words(sc.T("tui.curtain.enter"), 0)
	player := ""
	sc.term.waitUntil(10*time.Second, "", "the hand-over", func(s string) bool {
		s = words(s, sc.term.cols)
		for _, p := range []string{"Ann", "Bob"} {
			if strings.Contains(s, words(sc.T("tui.curtain", "player", p), 0)) && strings.Contains(s, enter) {
				player = p
			}
		}
		return player != ""
	})
	sc.term.send("\r")
	sc.shows(t, sc.T("tui.yourturn", "player", player), "▶ "+sc.T("action.draw"))
	sc.term.send("\x1b[C") // → selects the next choice, not the first
	sc.shows(t, "▶ "+sc.T("action.call"))
	sc.quit(t, status, "tui.quit.confirm", "y")
}

// playRoundEnd: a local game to its end. At the end of each round but
// the last the score page opens at its top, the latest round's heading
// right under the page's head (at 80×24 the second round's page is taller
// than the screen); the log tells each player's points and heads the next
// round; the summary razzia play prints as it ends ends every player's
// total in one column, the person's name with letters of more than one
// byte.
func playRoundEnd(t *testing.T, sc *screenCase) {
	const name = "Ádám Szőllősi"
	status := playCommand(t, sc.term, "--players", name, "--bots", "random,random", "--seed", "7", "--delay", "0", "--lang", sc.lang)
	var parted symbolParted
	sc.scoresAtTop(t, name, 1, func(s string) { parted.look(t, s) })
	if parted.rows == 0 {
		t.Errorf("no row of cards seen on the way to the scores")
	}
	sc.shows(t, "Σ "+sc.T("tui.scores.total"))
	sc.term.send("\x1b") // alone: escape and a key at once are alt and the key
	sc.shows(t, sc.T("term.row"))
	sc.term.send("l")
	scored := pattern(sc.cat, "tui.log.scored", "player", name, "points", `-?\d+`, "total", `-?\d+`)
	sc.term.waitUntil(10*time.Second, "", "the log's scores and heading", func(s string) bool {
		w := words(s, sc.term.cols)
		return strings.Contains(w, "» "+sc.T("tui.log.title")) && scored.MatchString(w) && strings.Contains(w, sc.T("tui.log.round", "round", 2))
	})
	sc.term.send("\x1b")
	sc.shows(t, sc.T("term.row"))
	if s := sc.scoresAtTop(t, name, 2, nil); sc.term.cols == 80 && !strings.Contains(s, "↑↓ 0%") {
		t.Errorf("the second round's score page fits the screen: the case no longer tests where it opens:\n%s", s)
	}
	sc.term.send("\x1b")
	sc.shows(t, sc.T("term.row"))
	sc.term.waitUntil(30*time.Second, "dp", "the game's end", func(s string) bool {
		return strings.Contains(s, sc.T("tui.result.hint", "round", 3))
	})
	sc.term.send("q")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
	sc.summaryAligns(t, name, 3, "7")
}

// scoresAtTop plays on for the person until the score page a round's end
// opens and checks that it opens at its top: the round's heading, the
// latest, right under the page's head. look, if any, sees each screen on
// the way, every decision of the person's among them (see answer). It
// returns the screen.
func (sc *screenCase) scoresAtTop(t *testing.T, name string, round int, look func(string)) string {
	t.Helper()
	head := "» " + sc.T("tui.scores.title")
	var headings []string // of the rounds scored, one at least on the page wherever it opens
	for r := range round {
		headings = append(headings, sc.T("term.round.n", "round", r+1))
	}
	var lines []string
	at := -1
	s := sc.answer(t, name, fmt.Sprintf("the scores of round %d", round), func(s string) bool {
		if look != nil {
			look(s)
		}
		lines = strings.Split(s, "\n")
		at = slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, head) })
		// A heading drawn: so is the line above it (the screen is drawn
		// from the top).
		return at >= 0 && slices.ContainsFunc(lines[at+1:], func(l string) bool {
			return slices.ContainsFunc(headings, func(h string) bool { return strings.HasPrefix(l, h) })
		})
	})
	if want := headings[round-1]; !strings.HasPrefix(lines[at+1], want) {
		t.Errorf("the score page of round %d does not open at its top, %q under its head:\n%s", round, want, s)
	}
	return s
}

// answer plays the person's decisions until the screen satisfies done
// (terminal.answerUntil).
func (sc *screenCase) answer(t *testing.T, name, what string, done func(string) bool) string {
	t.Helper()
	return sc.term.answerUntil(30*time.Second, what, done, words(sc.T("tui.yourturn", "player", name), 0))
}

// summaryAligns waits for the summary razzia play prints as it ends, a
// line for each of the seats and the seed's line last, and checks that
// their totals end in one column, the person's line among them.
func (sc *screenCase) summaryAligns(t *testing.T, person string, seats int, seed string) {
	t.Helper()
	total := regexp.MustCompile(`^  \S.* +-?\d+$`)
	var lines []string
	s := sc.term.waitUntil(10*time.Second, "", "the summary", func(s string) bool {
		all := strings.Split(s, "\n")
		for i := range all {
			all[i] = strings.TrimRight(all[i], " ")
		}
		i := slices.Index(all, "seed "+seed)
		if i < seats {
			return false
		}
		lines = all[i-seats : i]
		return true
	})
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "  "+person+" ") }) {
		t.Errorf("the summary lacks %s's line:\n%s", person, s)
	}
	for _, l := range lines {
		if !total.MatchString(l) {
			t.Errorf("the summary's line %q is no player's total:\n%s", l, s)
		}
		if a, b := utf8.RuneCountInString(lines[0]), utf8.RuneCountInString(l); a != b {
			t.Errorf("the summary's totals end in columns %d and %d:\n%s", a, b, s)
			return
		}
	}
}

// playWatched: razzia watch shows a game of others without a seat of
// its own and without choices; q quits without asking.
func playWatched(t *testing.T, sc *screenCase) {
	info, _, err := sc.c.Create(t.Context(), []string{"", "easy", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := sc.c.Join(t.Context(), info.ID, "Ann", -1)
	if err != nil {
		t.Fatal(err)
	}
	drawUntilRow(t, sc.c, info.ID, token) // then Ann never moves: the game waits for her
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"watch", "--lang", sc.lang, sc.srv.URL + "/g/" + info.ID}, sc.term.tty, sc.term.tty, io.Discard)
	}()
	yourTurn, _, _ := strings.Cut(sc.T("tui.yourturn", "player", "Ann"), "Ann")
	s := sc.shows(t, sc.T("term.row"), "Bot 2 (easy)", "Ann")
	if strings.Contains(s, "("+sc.T("term.you")+")") || strings.Contains(s, yourTurn) {
		t.Errorf("a spectator is offered a seat or a turn: %s", s)
	}
	sc.term.waitUntil(10*time.Second, "", "the worth of the row to every player", func(s string) bool { return sc.worthShown(s, false) })
	sc.term.send("q")
	select {
	case status := <-done:
		if status != 0 {
			t.Errorf("razzia watch exited with %d", status)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("razzia watch did not end")
	}
}

// playTimeOut: Ann's time runs out at a blitz table; the screen says so,
// and that a bot plays for her until B, offers no turn, and keeps her
// row where it was; B takes the seat back.
func playTimeOut(t *testing.T, sc *screenCase) {
	status := playCommand(t, sc.term, "--server", sc.srv.URL, "--name", "Ann", "--bots", "easy,easy", "--pace", "blitz", "--lang", sc.lang)
	yourTurn, _, _ := strings.Cut(sc.T("tui.yourturn", "player", "Ann"), "Ann")
	timedOut := words(sc.T("tui.timeout.standin"), 0)
	var before string
	sc.term.waitUntil(10*time.Second, "", "Ann's turn", func(s string) bool {
		before = s
		w := words(s, sc.term.cols)
		// Another case's advance may have timed Ann out already.
		return strings.Contains(w, yourTurn+"Ann") || strings.Contains(w, timedOut)
	})
	sc.timing.Lock()
	held := true
	defer func() { // after a failure
		if held {
			sc.timing.Unlock()
		}
	}()
	sc.clk.Advance(2 * time.Minute) // blitz: 10 s a decision and a minute's reserve
	after := sc.term.waitUntil(10*time.Second, "", "the time-out", func(s string) bool {
		w := words(s, sc.term.cols)
		return strings.Contains(w, timedOut) && !strings.Contains(w, yourTurn+"Ann")
	})
	if strings.Contains(words(after, sc.term.cols), words(sc.T("tui.leave.done"), 0)) {
		t.Errorf("the time-out says that Ann left:\n%s", after)
	}
	if b, a := rowColumn(before, "Ann ("), rowColumn(after, "Ann ("); b != a {
		t.Errorf("Ann's row moved from column %d to %d:\n%s\n%s", b, a, before, after)
	}
	sc.term.send("B")
	sc.term.waitUntil(10*time.Second, "", "the seat taken back", func(s string) bool {
		return !strings.Contains(words(s, sc.term.cols), timedOut)
	})
	sc.timing.Unlock()
	held = false
	sc.quit(t, status, "tui.quit.standin", "y")
}

// playStandInTurn: once Ann's time has run out, a bot plays her seat;
// the bots pause before their moves on the case's own clock, so the
// screen is looked at while the server has her seat to move and its bot
// has not yet moved (right after the time-out, or a round later): it says that the bot plays
// for her and offers no turn, her row in its columns.
func playStandInTurn(t *testing.T, sc *screenCase) {
	clk := testclock.New()
	srv := servertest.New(t, servertest.Options{API: httpapi.Options{MessageRate: 1000, MessageBurst: 200},
		Hub: table.Options{Now: clk.Now, AfterFunc: clk.AfterFunc, LeaseTTL: 24 * time.Hour, BotDelay: time.Second}})
	name := fmt.Sprintf("Ann %s %d", sc.lang, sc.term.cols) // the seat store is shared, and ports are reused
	status := playCommand(t, sc.term, "--server", srv.URL, "--name", name, "--bots", "easy,easy", "--pace", "blitz", "--lang", sc.lang)
	yourTurn, _, _ := strings.Cut(sc.T("tui.yourturn", "player", "Ann"), "Ann")
	before := sc.term.waitUntil(10*time.Second, "", "Ann's turn", func(s string) bool {
		return strings.Contains(words(s, sc.term.cols), yourTurn+name)
	})
	seat := savedSeat(t, srv.URL, name)
	clk.Advance(2 * time.Minute) // blitz: 10 s a decision and a minute's reserve
	// Each state read lets the next bot move, a second later, until the
	// bot playing for Ann has her seat to move.
	follow(t, srv.Client(), seat.Game, "", "the bot's turn for "+name, func(_ *client.Conn, st *client.State) bool {
		if st.View != nil && st.View.ToMove == seat.Seat && st.Game.Seats[seat.Seat].StandIn != "" {
			return true
		}
		clk.Advance(time.Second)
		return false
	})
	playing := words(sc.T("tui.standin.playing", "player", name), 0)
	s := sc.term.waitUntil(10*time.Second, "", "the bot playing for "+name, func(s string) bool {
		return strings.Contains(words(s, sc.term.cols), playing)
	})
	if strings.Contains(words(s, sc.term.cols), yourTurn+name) {
		t.Errorf("the turn is offered while a bot plays the seat:\n%s", s)
	}
	// Her name and its marks give way: the row keeps its columns.
	if b, a := rowColumn(before, "Ann "), rowColumn(s, "Ann "); b != a {
		t.Errorf("Ann's row moved from column %d to %d:\n%s\n%s", b, a, before, s)
	}
	sc.quit(t, status, "tui.quit.standin", "y")
}

// ownServer starts a server of the case's own, on a clock of its own:
// its advances time out no other case's seat, and its bots, random ones
// whatever their level (a stand-in too), think at once and wait for no
// other case's stand-ins.
func ownServer(t *testing.T) (*servertest.Server, *testclock.Clock) {
	t.Helper()
	clk := testclock.New()
	return servertest.New(t, servertest.Options{API: httpapi.Options{MessageRate: 1000, MessageBurst: 200},
		Hub: table.Options{Now: clk.Now, AfterFunc: clk.AfterFunc, LeaseTTL: 24 * time.Hour}}), clk
}

// playLowTime: Ann's time runs low at a blitz table: once the terminal
// hears the server's time (a blip of the network makes it reconnect), her
// clock turns bright red with its hourglass and the bell rings, once,
// however the clock ticks on.
func playLowTime(t *testing.T, sc *screenCase) {
	srv, clk := ownServer(t)
	g := newGate(t, srv.Listener.Addr().String())
	g.open()
	status := playCommand(t, sc.term, "--server", g.url, "--name", "Ann", "--bots", "easy,easy", "--pace", "blitz", "--lang", sc.lang)
	yourTurn, _, _ := strings.Cut(sc.T("tui.yourturn", "player", "Ann"), "Ann")
	sc.shows(t, yourTurn+"Ann")
	if _, red := sc.term.cellAt('⌛'); red || sc.term.rang() != 0 {
		t.Fatalf("low time before it is low (bells %d):\n%s", sc.term.rang(), sc.term.screen())
	}
	clk.Advance(62 * time.Second) // blitz: 10 s a decision and a minute's reserve
	g.drop()
	low := regexp.MustCompile(`⌛0:0\d`)
	var seen []string // the low clock's texts: it ticks on
	sc.term.waitUntil(10*time.Second, "", "the low clock ticking, and the bell", func(s string) bool {
		if c := low.FindString(s); c != "" && !slices.Contains(seen, c) {
			seen = append(seen, c)
		}
		return len(seen) >= 2 && sc.term.rang() > 0
	})
	if cell, _ := sc.term.cellAt('⌛'); cell.FG != vt10x.Color(9) {
		t.Errorf("the low clock's colour is %d, want 9 (bright red)", cell.FG)
	}
	if n := sc.term.rang(); n != 1 {
		t.Errorf("the bell rang %d times, want once", n)
	}
	sc.quit(t, status, "tui.quit.standin", "y")
}

// playRematch: Ann says hello; her moves are played through another
// connection until the game is over; she offers a rematch, which the
// bots accept: the new table shows no chat of the old one.
func playRematch(t *testing.T, sc *screenCase) {
	srv := sc.quick
	name := fmt.Sprintf("Ann %s %d", sc.lang, sc.term.cols) // the seat store is shared, and ports are reused
	status := playCommand(t, sc.term, "--server", srv.URL, "--name", name, "--bots", "easy,easy", "--lang", sc.lang)
	yourTurn, _, _ := strings.Cut(sc.T("tui.yourturn", "player", "Ann"), "Ann")
	sc.shows(t, yourTurn+name)
	hello, pick := sc.T("chat.phrase.hello"), words(sc.T("tui.chat.pick", "phrase", sc.T("chat.phrase.hello")), 0)
	sc.term.send("m")
	sc.shows(t, pick)
	sc.term.send("M")
	sc.term.waitUntil(10*time.Second, "", "the chat line", func(s string) bool {
		w := words(s, sc.term.cols)
		return strings.Contains(w, hello) && !strings.Contains(w, pick)
	})
	seat := savedSeat(t, srv.URL, name)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second) // a game of some 200 moves on a busy machine
	defer cancel()
	conn, err := srv.Client().Dial(ctx, seat.Game, seat.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var last *client.State
	for over := false; !over; {
		st, err := conn.Read(ctx)
		if err != nil {
			if last != nil && last.View != nil {
				t.Logf("last: moves %d to move %d (seat %d) seats %+v clock %+v", last.View.Moves, last.View.ToMove, last.Seat, last.Game.Seats, last.Clock)
			}
			t.Fatalf("playing for %s: %v", name, err)
		}
		last = st
		over = st.Game.Status == protocol.StatusFinished
		if !over && st.View != nil && st.View.ToMove == st.Seat && len(st.View.Legal) > 0 {
			if err := conn.Move(ctx, st.View.Legal[0], st.View.Moves); err != nil {
				t.Fatal(err)
			}
		}
	}
	sc.shows(t, hello, sc.T("tui.rematch.offer"))
	sc.term.send("a")
	sc.term.waitUntil(20*time.Second, "", "the rematch's table without the old chat", func(s string) bool {
		w := words(s, sc.term.cols)
		return strings.Contains(w, sc.T("term.round.n", "round", 1)) && strings.Contains(w, name) && !strings.Contains(w, sc.T("phase.over")) &&
			!strings.Contains(w, sc.T("tui.rematch.offer")) && !strings.Contains(w, hello)
	})
	sc.quit(t, status, "tui.quit.standin", "y")
}

// playFiveHoldings: five easy bots play a game to its end (seed 1: the
// first and fourth hold more than 80 columns show); every player's
// holdings line under their row shows each holding whole, and one that
// cannot show them all ends with "…" after a whole holding, never cut
// silently. The record says what each holds.
func playFiveHoldings(t *testing.T, sc *screenCase) {
	rec := filepath.Join(t.TempDir(), "game.json")
	status := playCommand(t, sc.term, "--players", "0", "--bots", "easy,easy,easy,easy,easy", "--seed", "1", "--delay", "0", "--lang", sc.lang, "--record", rec)
	final := sc.term.waitUntil(30*time.Second, "", "the game's end", func(s string) bool {
		return strings.Contains(s, sc.T("tui.result.hint", "round", 3))
	})
	g, err := readRecordFile(t, rec).Game()
	if err != nil || !g.Over() {
		t.Fatalf("the record: over %v, %v", err == nil && g.Over(), err)
	}
	seats, screen := protocol.NewView(g.View(-1)).Seats, strings.Split(final, "\n")
	var lines []string // the holdings, on the line under each player's row
	for _, name := range g.Players() {
		row := slices.IndexFunc(screen, func(l string) bool { return strings.Contains(l, name) })
		if row < 0 || row+1 == len(screen) || !strings.HasPrefix(screen[row+1], "    ") {
			t.Fatalf("no holdings under the row of %s:\n%s", name, final)
		}
		// A holding's count and name are held together by a no-break space.
		lines = append(lines, strings.ReplaceAll(strings.TrimRight(screen[row+1], " "), "\u00a0", " "))
	}
	cut := 0
	for i, l := range lines {
		before, ellipsis := strings.CutSuffix(l, " …")
		before = strings.TrimSuffix(before, ",") // a list that goes on
		var shown, names []string                // the kinds held that show; every holding's text
		for kind, n := range seats[i].Holdings {
			text := []string{sc.cat.Card(kind, n), sc.T("card." + kind)}
			names = append(names, text...)
			if slices.ContainsFunc(text, func(x string) bool { return strings.Contains(before, x) }) {
				shown = append(shown, kind)
			}
		}
		switch {
		case ellipsis:
			cut++
			if !slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(before, n) }) {
				t.Errorf("the holdings are cut inside a holding: %q", l)
			}
		case len(shown) < len(seats[i].Holdings):
			t.Errorf("the holdings of %s are cut silently: %q shows %v of %v", g.Players()[i], l, shown, seats[i].Holdings)
		}
		if utf8.RuneCountInString(l) > sc.term.cols {
			t.Errorf("a holdings line wider than the terminal: %q", l)
		}
	}
	if sc.term.cols == 80 && cut == 0 {
		t.Errorf("no holdings cut at 80 columns: the case no longer tests the cut:\n%s", final)
	}
	sc.term.send("q")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
}

// savedSeat returns the seat the terminal saved for name at server.
func savedSeat(t *testing.T, server, name string) client.SavedSeat {
	t.Helper()
	st, err := client.DefaultSeatStore()
	if err != nil {
		t.Fatal(err)
	}
	seats, err := st.Seats(server)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(seats, func(s client.SavedSeat) bool { return s.Name == name })
	if i < 0 {
		t.Fatalf("no seat saved for %s: %+v", name, seats)
	}
	return seats[i]
}

// rowColumn is the column where the screen's line with the name holds its
// cheques ("$"), -1 when there is none.
func rowColumn(screen, name string) int {
	for l := range strings.SplitSeq(screen, "\n") {
		if i := strings.Index(l, name); i >= 0 {
			if j := strings.Index(l[i:], "$"); j >= 0 {
				return utf8.RuneCountInString(l[:i+j])
			}
		}
	}
	return -1
}

// isRefusal reports whether err is the server's refusal with the code.
func isRefusal(err error, code protocol.Code) bool {
	var refused *client.Error
	return errors.As(err, &refused) && refused.Code == code
}

// A gate stands between razzia play and a server, as a network does: it
// holds the connections made while it is shut until it opens, and cut
// breaks those it carries and refuses new ones until it opens again.
type gate struct {
	t      *testing.T
	url    string
	target string
	mu     sync.Mutex
	state  gateState
	change chan struct{} // closed, and made anew, when the state changes
	conns  []net.Conn
}

type gateState uint8

const (
	gateShut gateState = iota
	gateOpen
	gateCut
)

// newGate listens on a free port of its own for the server at target
// (host:port), shut.
func newGate(t *testing.T, target string) *gate {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{t: t, url: "http://" + ln.Addr().String(), target: target, change: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { g.carry(conn) })
		}
	})
	t.Cleanup(func() {
		ln.Close()
		g.set(gateCut)
		wg.Wait()
	})
	return g
}

func (g *gate) open() { g.set(gateOpen) }

// drop breaks every connection and lets new ones through, as a blip of
// the network does.
func (g *gate) drop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, c := range g.conns {
		c.Close()
	}
	g.conns = nil
}

// cut breaks every connection and refuses new ones until open.
func (g *gate) cut() { g.set(gateCut) }

func (g *gate) set(s gateState) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.state = s
	close(g.change)
	g.change = make(chan struct{})
	if s == gateCut {
		for _, c := range g.conns {
			c.Close()
		}
		g.conns = nil
	}
}

// carry waits while the gate is shut, then carries the connection to
// the server and back until either end or a cut closes it.
func (g *gate) carry(conn net.Conn) {
	for {
		g.mu.Lock()
		s, change := g.state, g.change
		g.mu.Unlock()
		if s == gateCut {
			conn.Close()
			return
		}
		if s == gateOpen {
			break
		}
		<-change
	}
	server, err := net.Dial("tcp", g.target)
	if err != nil {
		conn.Close()
		return
	}
	g.mu.Lock()
	if g.state == gateCut {
		g.mu.Unlock()
		conn.Close()
		server.Close()
		return
	}
	g.conns = append(g.conns, conn, server)
	g.mu.Unlock()
	done := make(chan struct{})
	go func() {
		io.Copy(server, conn)
		server.Close()
		close(done)
	}()
	io.Copy(conn, server)
	conn.Close()
	<-done
}

// rowCards matches the row's count of cards in its line.
var rowCards = regexp.MustCompile(`\(([1-7])/7\):`)

// worthShown reports whether the screen shows the row and what the lot is worth now to each player on their line: to the
// three players while someone else decides, or to you (mine) and, on the
// next line, to the two others.
func (sc *screenCase) worthShown(screen string, mine bool) bool {
	lines := strings.Split(screen, "\n")
	row := slices.IndexFunc(lines, func(l string) bool {
		return strings.Contains(l, sc.T("term.row"))
	})
	if row < 0 {
		return false
	}
	all := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, sc.T("tui.stake.all")+" ") })
	if all < 0 {
		return false
	}
	others := 3
	if mine {
		if all == 0 || !strings.HasPrefix(strings.TrimSpace(lines[all-1]), sc.T("tui.stake")) {
			return false
		}
		others = 2
	}
	return len(signedPoints.FindAllString(lines[all], -1)) == others
}

var signedPoints = regexp.MustCompile(`[+-]\d+`)

// drawUntilRow draws for the seat of token in game id until, at its next
// turn, the row holds a card or an auction is on.
func drawUntilRow(t *testing.T, c *client.Client, id, token string) {
	t.Helper()
	follow(t, c, id, token, "drawing for the seat", func(conn *client.Conn, st *client.State) bool {
		if st.View == nil || st.View.ToMove != st.Seat {
			return false
		}
		if len(st.View.Row) > 0 || st.View.Auction != nil {
			return true
		}
		if i := slices.IndexFunc(st.View.Legal, func(m string) bool { return strings.HasPrefix(m, "draw") }); i >= 0 {
			if err := conn.Move(t.Context(), st.View.Legal[i], st.View.Moves); err != nil {
				t.Fatal(err)
			}
		}
		return false
	})
}

// cardSymbols are the symbols of the cards' families and the police's.
var cardSymbols = []string{"★", "✦", "■", "▲", "♦", "●", "♣"}

// symbolParted watches the screens for a line that ends with a card's
// symbol, its name on the next line. A line only half drawn when the
// screen was read is not one: the fault counts when the line is still
// there at the next look.
type symbolParted struct {
	rows    int    // screens seen with a card in the row
	suspect string // a line that ended with a symbol at the last look
}

func (p *symbolParted) look(t *testing.T, screen string) {
	t.Helper()
	if rowCards.MatchString(screen) {
		p.rows++
	}
	lines := strings.Split(screen, "\n")
	if p.suspect != "" && slices.Contains(lines, p.suspect) {
		t.Errorf("a card's symbol ends a line, its name on the next:\n%s", screen)
	}
	p.suspect = ""
	for _, l := range lines {
		trimmed := strings.TrimRight(l, " ")
		for _, sym := range cardSymbols {
			if strings.HasSuffix(trimmed, sym) {
				p.suspect = l
			}
		}
	}
}
