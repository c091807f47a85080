package main

import (
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// TestPlayTerminalTournament: razzia play --tournament joins a tournament
// as the account, shows it while it waits, plays the account's table when
// the round is seated (the keys typed play Ann's seat), and at the end
// shows the final standings until q.
func TestPlayTerminalTournament(t *testing.T) {
	t.Parallel() // a terminal and a program of its own, mostly waiting
	srv, ann := testServer(t, 1000)
	const password = "correct horse battery staple"
	if _, err := ann.Register(t.Context(), "Ann", password); err != nil {
		t.Fatal(err)
	}
	bea, err := client.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bea.Register(t.Context(), "Bea", password); err != nil {
		t.Fatal(err)
	}
	tr, err := ann.CreateTournament(t.Context(), protocol.TournamentSettings{Name: "Terminal cup", Format: protocol.FormatSwiss,
		TableSize: 2, Rounds: 1, BreakSeconds: new(int)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bea.JoinTournament(t.Context(), tr.ID, ""); err != nil {
		t.Fatal(err)
	}
	term := newTerminal(t, 80, 24)
	status := playCommand(t, term, "--server", srv.URL, "--account", "ann", "--tournament", tr.ID, "--lang", "en")
	term.waitFor(10*time.Second, "", "Password for ann:")
	term.send(password + "\r")
	term.waitFor(10*time.Second, "", "Terminal cup", "Starts when the organiser says", "You are in.", "q leave this screen")
	// Bea's runner says what it does and why it stopped, if it did:
	// a test that fails shows it.
	runner := make(chan struct{})
	t.Cleanup(func() { <-runner }) // t.Context is done by then
	go func() {
		defer close(runner)
		_, err := runnerPlays(t.Context(), bea, tr.ID, "random", 1, func(format string, args ...any) { t.Logf("Bea's runner: "+format, args...) })
		if err != nil && t.Context().Err() == nil {
			t.Logf("Bea's runner: %v", err)
		}
	}()
	if _, err := ann.Organise(t.Context(), tr.ID, protocol.ActionStart, ""); err != nil {
		t.Fatal(err)
	}
	term.waitFor(10*time.Second, "", "Ann (you)")
	// Enter for each of Ann's decisions and to close the score page at a
	// round's end; none at the end, whose screen a stray key would change.
	over := term.answerUntil(60*time.Second, `"Game over"`, func(s string) bool { return strings.Contains(s, "Game over") },
		"Your turn, Ann:", "» Score tables")
	// No rematch offered, which the server refuses at a tournament's table.
	if words := strings.Join(strings.Fields(over), " "); !strings.Contains(words, "the tournament seats you at your next game") ||
		strings.Contains(over, "a: rematch") {
		t.Errorf("the end of a tournament's game:\n%s", over)
	}
	// A link to the table is found to be a tournament's too (razzia play
	// LINK asks), and a table of no tournament is not.
	played, err := ann.Tournament(t.Context(), tr.ID)
	if err != nil || len(played.RoundsPlayed) == 0 || len(played.RoundsPlayed[0].Tables) == 0 {
		t.Fatalf("the tournament's tables: %+v, %v", played.RoundsPlayed, err)
	}
	if of, err := ann.GameTournament(t.Context(), played.RoundsPlayed[0].Tables[0].Game); err != nil || of == nil || of.ID != tr.ID {
		t.Errorf("the table's tournament: %+v, %v; want %s", of, err, tr.ID)
	}
	other, _, err := ann.Create(t.Context(), []string{"", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	if of, err := ann.GameTournament(t.Context(), other.ID); err != nil || of != nil {
		t.Errorf("a table of no tournament: %+v, %v", of, err)
	}
	term.send("q")
	final := term.waitFor(10*time.Second, "", "Terminal cup", "Finished", "Standings")
	t.Logf("the final screen:\n%s", final)
	for _, name := range []string{"Ann", "Bea"} {
		if !strings.Contains(final, name) {
			t.Errorf("the final standings lack %s:\n%s", name, final)
		}
	}
	term.send("q")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
}
