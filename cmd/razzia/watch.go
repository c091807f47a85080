package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"syscall"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/tui"
)

const watchSynopsis = `
usage: razzia watch [--server URL] [--lang TAG] LINK|ID

Watch watches a game on a Razzia server in the terminal (80×24 or larger),
as a spectator: every seat's cheques, the row, the clocks and the log, as
the players see the table but without anyone's choices. Give the table's
link (http://host:8080/g/ID) or its id with --server. l shows the log, s
the score tables, i the undrawn cards, r the rules, ? the help, q quits.

Examples:
  razzia watch http://localhost:8080/g/k3x7q2m5ab
  razzia watch --server http://localhost:8080 --lang de k3x7q2m5ab
`

// runWatch is the watch command.
func runWatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("watch")
	server := fs.String("server", "", "the Razzia server at `URL` (default: the link's)")
	lang := fs.String("lang", "", "language `TAG`: "+langTags()+" (default: from $LANG)")
	rest, status, done := parseFlags(fs, watchSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	if len(rest) != 1 {
		return usageError(stderr, fs, watchSynopsis, "want one link or game id, got %d arguments", len(rest))
	}
	linkServer, id, err := client.ParseInvite(rest[0])
	if err != nil {
		return usageError(stderr, fs, watchSynopsis, "%v", err)
	}
	if *server == "" {
		*server = linkServer
	}
	if *server == "" {
		return usageError(stderr, fs, watchSynopsis, "a game id needs --server URL")
	}
	c, err := client.New(*server)
	if err != nil {
		return usageError(stderr, fs, watchSynopsis, "--server: %v", err)
	}
	tag, cat, err := pickLang(*lang)
	if err != nil {
		return usageError(stderr, fs, watchSynopsis, "%v", err)
	}
	if err := needTerminal("watch", stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "razzia watch: %v\n", err)
		return 1
	}
	opt := tui.Options{Lang: tag}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The game is looked up first, so that a wrong link is an error here
	// rather than a screen that waits; a server slow to answer is said.
	fmt.Fprintln(stdout, cat.T("tui.server.connectingto", "server", c.URL()))
	setup, setupDone := context.WithTimeout(ctx, connectTimeout)
	_, _, err = c.Game(setup, id, "")
	setupDone()
	if err != nil {
		fmt.Fprintf(stderr, "razzia watch: game %s on %s: %v\n", id, c.URL(), connectError(err, c.URL()))
		return 1
	}
	c.Chat = true
	s := c.Session(id, "")
	defer s.Close()
	link := strings.TrimSuffix(c.URL(), "/") + "/g/" + id
	m := tui.NewRemote(ctx, s, -1, link, opt)
	sig, err := runProgram(m, stdin, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "razzia watch: %v\n", err)
		return 1
	}
	if sig != syscall.SIGHUP {
		summary(stdout, m, 0)
		fmt.Fprintln(stdout, link)
	}
	return exitStatus(sig, m)
}
