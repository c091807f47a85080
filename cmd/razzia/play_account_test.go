package main

import (
	"strings"
	"testing"
	"time"
)

// TestPlayTerminalAccount: razzia play --server --account signs in with
// the password typed at the terminal (not echoed) and sits at a rated
// table under the account, which the account sees among its games.
func TestPlayTerminalAccount(t *testing.T) {
	t.Parallel() // a terminal and a program of its own, mostly waiting
	srv, c := testServer(t, 1000)
	const password = "correct horse battery staple"
	if _, err := c.Register(t.Context(), "Ann", password); err != nil {
		t.Fatal(err)
	}
	term := newTerminal(t, 80, 24)
	status := playCommand(t, term, "--server", srv.URL, "--account", "ann", "--rated", "--bots", "easy", "--lang", "en")
	prompt := term.waitFor(10*time.Second, "", "Password for ann:")
	term.send(password + "\r")
	screen := term.waitFor(10*time.Second, "", "Ann (you)")
	if strings.Contains(prompt+screen, password) {
		t.Errorf("the password was echoed:\n%s", screen)
	}
	games, err := c.MyGames(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || !games[0].Game.Rated || games[0].Seat != 0 || !games[0].Game.Seats[0].Account {
		t.Errorf("the account's games: %+v; want the rated table, seat 0", games)
	}
	term.send("q")
	term.send("y")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
	// The seat is kept under the account's name, as the table shows it.
	term = newTerminal(t, 80, 24)
	status = playCommand(t, term, "--server", srv.URL, "--lang", "en")
	term.waitFor(10*time.Second, "", "Your games on", "  Ann: a bot plays for you")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play --server exited with %d", got)
	}
}

// TestPlayAccountUsage: --account and --rated need a server; --rated
// needs an account; a wrong password is a clear failure.
func TestPlayAccountUsage(t *testing.T) {
	srv, _ := testServer(t, 1000)
	t.Setenv("RAZZIA_PASSWORD", "not the password")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"account without a server", []string{"--account", "Ann"}, "need --server"},
		{"rated without an account", []string{"--server", srv.URL, "--rated"}, "--rated needs --account"},
		{"name and account", []string{"--server", srv.URL, "--account", "Ann", "--name", "Bo"}, "--name and --account"},
		{"wrong password", []string{"--server", srv.URL, "--account", "Nobody"}, "wrong name or password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A terminal, checked before signing in.
			term := newTerminal(t, 80, 24)
			var errOut strings.Builder
			status := run(append([]string{"play"}, tc.args...), term.tty, term.tty, &errOut)
			if status == 0 || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("status %d, stderr %q; want a failure saying %q", status, errOut.String(), tc.want)
			}
		})
	}
}
