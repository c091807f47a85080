// Command razzia plays, replays and studies games of Razzia!, Reiner
// Knizia's card game of mafia auctions.
//
// Usage:
//
//	razzia COMMAND [ARGUMENTS]
//
// Run "razzia help" for the list of commands and "razzia COMMAND --help"
// for one command's arguments.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// A command is one subcommand of razzia. Its run function gets the
// arguments after the command's name and returns the exit status: 0 for
// success, 1 for a failure, 2 for a usage error.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order usage shows them. It is
// set in init because help and completion read it.
var commands []command

func init() {
	commands = []command{
		{"replay", "replay a game record and report its scores", replay},
		{"analyze", "analyse a finished game's every move with the expert bot", analyze},
		{"arena", "play games between bots and report how each did", runArena},
		{"serve", "run the game server (the default command)", serve},
		{"play", "play a game in the terminal, against bots or on a server", runPlay},
		{"bot", "play a seat of a server game with a bot program", runBot},
		{"watch", "watch a game on a server in the terminal", runWatch},
		{"tournament", "run a tournament of bots through a server", runTournament},
		{"migrate", "copy a database to another (SQLite, PostgreSQL)", migrate},
		{"puzzles", "find puzzles in a database's finished games at once", puzzlesCommand},
		{"load", "play many games against running servers, measure move latency", runLoad},
		{"calibrate", "rate the bot levels for player ratings", calibrate},
		{"version", "print razzia's version and build", runVersion},
		{"completion", "print a shell's completion script (bash, zsh, fish)", runCompletion},
		{"help", "show this list, or a command's help", runHelp},
	}
}

func main() {
	args := os.Args[1:]
	if len(args) == 0 {
		// A club runs "razzia" (or "go run ./cmd/razzia") to get a server.
		args = []string{"serve"}
	}
	os.Exit(run(args, os.Stdin, os.Stdout, os.Stderr))
}

// run runs the razzia command line and returns the exit status, so that
// tests can run it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if strings.HasPrefix(args[0], "-") && !isHelpFlag(args[0]) && !isVersionFlag(args[0]) {
		// Flags without a command are the default command's: "razzia
		// --addr :80" is "razzia serve --addr :80".
		return serve(args, stdin, stdout, stderr)
	}
	name, rest := args[0], args[1:]
	switch {
	case isHelpFlag(name):
		usage(stdout)
		return 0
	case isVersionFlag(name):
		return runVersion(rest, stdin, stdout, stderr)
	}
	c, ok := lookup(name)
	if !ok {
		return unknownCommand(stderr, name)
	}
	return c.run(rest, stdin, stdout, stderr)
}

func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}

func isVersionFlag(arg string) bool {
	return arg == "-version" || arg == "--version"
}

// unknownCommand reports a command razzia does not have in one line, with
// the nearest one when the name looks like a typo, and returns 2.
func unknownCommand(stderr io.Writer, name string) int {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	msg := fmt.Sprintf("razzia: unknown command %q", name)
	if near, ok := nearest(name, names); ok {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	fmt.Fprintf(stderr, "%s (see \"razzia help\")\n", msg)
	return 2
}

const helpSynopsis = `
usage: razzia help [COMMAND]

Help lists razzia's commands, or prints the help of one: "razzia help
replay" is "razzia replay --help".
`

// runHelp is the help command.
func runHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("help")
	rest, status, done := parseFlags(fs, helpSynopsis, args, stdout, stderr)
	switch {
	case done:
		return status
	case len(rest) == 0:
		usage(stdout)
		return 0
	case len(rest) > 1:
		return usageError(stderr, fs, helpSynopsis, "want one COMMAND, got %d arguments", len(rest))
	}
	c, ok := lookup(rest[0])
	if !ok {
		return unknownCommand(stderr, rest[0])
	}
	return c.run([]string{"--help"}, stdin, stdout, stderr)
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// usage lists the subcommands.
func usage(w io.Writer) {
	fmt.Fprintln(w, "Razzia! is Reiner Knizia's card game of mafia auctions.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  razzia COMMAND [ARGUMENTS]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "razzia help COMMAND" for a command's arguments and "razzia`)
	fmt.Fprintln(w, `--version" for the version. Without a command, razzia serves.`)
}
