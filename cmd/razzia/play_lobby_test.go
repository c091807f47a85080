package main

import (
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// TestPlayTerminalPlayNow: razzia play --server --play-now asks for a
// table of two and waits in the lobby; a browser's person joins it, and
// the terminal sits down at the table at once.
func TestPlayTerminalPlayNow(t *testing.T) {
	t.Parallel() // a terminal and a program of its own, mostly waiting
	srv, c := testServer(t, 1000)
	term := newTerminal(t, 100, 30)
	status := playCommand(t, term, "--server", srv.URL, "--name", "Ann", "--play-now", "2", "--pace", "blitz", "--lang", "en")
	term.waitFor(10*time.Second, "", "Your requests")
	list, err := c.Seeks(t.Context())
	if err != nil || len(list.Seeks) != 1 || list.Seeks[0].Name != "Ann" || list.Seeks[0].Pace != "blitz" {
		t.Fatalf("the open requests: %+v, %v", list, err)
	}
	if _, err := c.JoinSeek(t.Context(), list.Seeks[0].ID, "Bob"); err != nil {
		t.Fatal(err)
	}
	term.waitFor(10*time.Second, "", "Ann (you)")
	term.send("q")
	term.send("y")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
}

// TestPlayTerminalChallenge: razzia play --server --account --lobby shows
// a challenge to the account as it comes; a accepts it, and the terminal
// sits down at the challenge's table.
func TestPlayTerminalChallenge(t *testing.T) {
	t.Parallel()
	srv, c := testServer(t, 1000)
	const password = "correct horse battery staple"
	bob := srv.Client()
	if _, err := c.Register(t.Context(), "Ann", password); err != nil {
		t.Fatal(err)
	}
	if _, err := bob.Register(t.Context(), "Bob", password); err != nil {
		t.Fatal(err)
	}
	term := newTerminal(t, 100, 30)
	status := playCommand(t, term, "--server", srv.URL, "--account", "Bob", "--lobby", "--lang", "en")
	term.waitFor(10*time.Second, "", "Password for Bob:")
	term.send(password + "\r")
	term.waitFor(10*time.Second, "", "Open requests")
	ch, err := c.Challenge(t.Context(), protocol.ChallengeRequest{To: []string{"Bob"}, Pace: "rapid"})
	if err != nil {
		t.Fatal(err)
	}
	// The notice and the challenge's line come with the message.
	term.waitFor(10*time.Second, "", "Ann challenges you", "Rapid")
	term.send("a")
	term.waitFor(10*time.Second, "", "Bob (you)")
	got, err := c.Challenges(t.Context())
	if err != nil || len(got) != 1 || got[0].ID != ch.ID || got[0].Status != protocol.ChallengeAccepted {
		t.Errorf("Ann's challenges: %+v, %v", got, err)
	}
	term.send("q")
	term.send("y")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
}
