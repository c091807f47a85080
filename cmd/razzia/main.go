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
	"errors"
	"flag"
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

// commands lists the subcommands in the order usage shows them.
var commands = []command{
	{"replay", "replay a game record and report its scores", replay},
	{"analyze", "analyse a finished game's every move with the expert bot", analyze},
	{"arena", "play games between bots and report how each did", runArena},
	{"serve", "run the game server (the default command)", serve},
	{"play", "play a game in the terminal, against bots or on a server", runPlay},
	{"bot", "play a seat of a server game with a bot program", runBot},
	{"watch", "watch a game on a server in the terminal", runWatch},
	{"migrate", "copy every game from one database to another (SQLite, PostgreSQL)", migrate},
	{"load", "play many games against running servers and measure move latency", runLoad},
	{"calibrate", "rate the bot levels for player ratings (internal/botrating/levels.json)", calibrate},
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
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 && name == "help" {
			// "razzia help replay" is "razzia replay --help".
			if c, ok := lookup(rest[0]); ok {
				return c.run([]string{"--help"}, stdin, stdout, stderr)
			}
			fmt.Fprintf(stderr, "razzia: unknown command %q\n\n", rest[0])
			usage(stderr)
			return 2
		}
		usage(stdout)
		return 0
	}
	c, ok := lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "razzia: unknown command %q\n\n", name)
		usage(stderr)
		return 2
	}
	return c.run(rest, stdin, stdout, stderr)
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
	width := len("help")
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprintf(w, "  %-*s  %s\n", width, "help", "show this list, or a command's help")
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "razzia COMMAND --help" for a command's arguments.`)
}

// newFlags returns a flag set for a subcommand that prints nothing itself:
// parseFlags reports its errors and help.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("razzia "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses a subcommand's arguments, accepting flags before and
// after the positional arguments (razzia replay game.json --json); "--" ends
// the flags. It returns the positional arguments and, when parsing is over,
// the exit status: 0 after printing help to stdout for --help, 2 after
// printing the error and the help to stderr. Otherwise done is false.
func parseFlags(fs *flag.FlagSet, synopsis string, args []string, stdout, stderr io.Writer) (positional []string, status int, done bool) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			commandUsage(stdout, fs, synopsis)
			return nil, 0, true
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n\n", fs.Name(), err)
			commandUsage(stderr, fs, synopsis)
			return nil, 2, true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, 0, false
		}
		// The flag package stops at the first positional argument or
		// after "--"; only in the first case can more flags follow.
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), 0, false
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// commandUsage prints a subcommand's synopsis (its first line the usage
// line, the rest a description) and its flags.
func commandUsage(w io.Writer, fs *flag.FlagSet, synopsis string) {
	fmt.Fprintln(w, strings.TrimSpace(synopsis))
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Flags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}

// usageError reports a usage error of a subcommand and returns its status, 2.
func usageError(stderr io.Writer, fs *flag.FlagSet, synopsis, format string, args ...any) int {
	fmt.Fprintf(stderr, "%s: %s\n\n", fs.Name(), fmt.Sprintf(format, args...))
	commandUsage(stderr, fs, synopsis)
	return 2
}
