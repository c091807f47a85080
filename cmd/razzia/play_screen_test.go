package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestPlayTwoPeople plays a hot-seat game of two people at 80×24: two
// names and no --bots seat no bot; a double enter shows the choices and
// plays nothing; t explains why the thieves cannot be used; the caller's
// obligation to bid (R9) shows whole with a long name; the help's last line
// shows.
func TestPlayTwoPeople(t *testing.T) {
	t.Parallel() // a terminal and a program of its own, mostly waiting
	term := newTerminal(t, 80, 24)
	status := playCommand(t, term, "--players", "Annabella Rossini,Bob", "--seed", "7", "--delay", "0", "--lang", "en")
	s := term.waitFor(10*time.Second, "", "it is your turn.", "Press enter to see your choices.")
	if strings.Contains(s, "Bot") {
		t.Errorf("two people without --bots got bots:\n%s", s)
	}
	caller := "Bob"
	if strings.Contains(s, "Annabella Rossini, it is your turn.") {
		caller = "Annabella Rossini"
	}

	term.send("\r") // the safe move is selected at the hand-over
	s = term.waitFor(5*time.Second, "", "Your turn, "+caller+":", "▶ Draw a card")
	if !strings.Contains(s, "Deck 120:") || strings.Contains(s, " draws ") {
		t.Fatalf("the hand-over played a move:\n%s", s)
	}
	term.send("t")
	term.waitFor(5*time.Second, "", "You hold no thief: thieves are won in auctions.")

	term.send("c")                                               // the caller calls
	term.waitFor(5*time.Second, "", "it is your turn.")          // the other's curtain
	term.send("\r")                                              // shows the other's choices,
	term.waitFor(5*time.Second, "", "Your turn, ", "▶ Pass")     // the safe move again
	term.send("p")                                               // and the other passes
	term.waitFor(5*time.Second, "", caller+", it is your turn.") // back to the caller
	term.send("\r")
	mustBid := caller + " called the auction and must bid"
	// The notice may be wrapped: compare the words.
	term.waitUntil(5*time.Second, "", fmt.Sprintf("%q whole", mustBid), func(s string) bool {
		return strings.Contains(strings.Join(strings.Fields(s), " "), mustBid)
	})

	term.send("?G")
	term.waitFor(5*time.Second, "", "» Help", "100%", "Σ            points so far")
	term.send("\x1b")
	term.waitFor(5*time.Second, "", "Your turn, "+caller+":")
	term.send("q")
	term.waitFor(5*time.Second, "", "Quit this game?")
	term.send("y")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
}

// TestPlayTerminalDecisions plays a game against bots at 80×24 and checks
// what a decision needs: the undrawn cards, the raid risk, the cheque sums
// and what the row is worth to the player; after the game, round 3 by
// category, a title without the police track of a round that is over, and
// the score page down to its grand total.
func TestPlayTerminalDecisions(t *testing.T) {
	t.Parallel() // a terminal and a program of its own, mostly waiting
	term := newTerminal(t, 80, 24)
	status := playCommand(t, term, "--players", "Ann", "--bots", "random,easy,random",
		"--seed", "7", "--delay", "0", "--lang", "en")
	term.waitFor(10*time.Second, "", "Deck 1", "★ 21", "Next card police:", "$", "Worth to you now")

	final := term.waitFor(60*time.Second, "dp\r", "Game over", "Round 3 by category")
	title, _, _ := strings.Cut(final, "\n")
	if !strings.Contains(title, "Round 3 of 3") || strings.Contains(title, "Police") {
		t.Errorf("the title after the game: %q", title)
	}
	if !strings.Contains(final, "✦   ■   ▲   ♦   ●   ♣   $    R1   R2   R3     Σ") {
		t.Errorf("the final screen lacks round 3 by category:\n%s", final)
	}
	term.send("sG")
	term.waitFor(5*time.Second, "", "» Score tables", "100%", "Σ Total")
	term.send("\x1b") // alone: escape and a key at once are alt and the key
	term.waitFor(5*time.Second, "", "Round 3 by category")
	term.send("q")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
}

// TestPlayHelpSaysWhoPlays: the help says that several people play without
// bots and how to add them.
func TestPlayHelpSaysWhoPlays(t *testing.T) {
	var out, errOut bytes.Buffer
	if status := run([]string{"play", "--help"}, strings.NewReader(""), &out, &errOut); status != 0 {
		t.Fatalf("status %d: %s", status, errOut.String())
	}
	help := strings.Join(strings.Fields(out.String()), " ") // the words, not the line breaks
	for _, want := range []string{
		"One person plays against three medium bots.",
		"Several people (--players Ann,Bob or --players 2) play a game among themselves, without bots",
		"--players Ann,Bob --bots medium,hard seats two people and two bots",
		"i the undrawn cards",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("the help lacks %q:\n%s", want, out.String())
		}
	}
}
