package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/botrating"
)

const calibrateSynopsis = `
usage: razzia calibrate [--games N] [--seed S] [--workers W] [--out FILE]

Calibrate measures the strength of the bot levels on the scale of player
ratings, so that a rated game against bots means something from a
player's first game. It plays --games games between the levels (tables of
2 to 5 seats drawn from --seed, each played once per seat so that every
level sits in every position, never one level alone), feeds their
finishing orders in turn to the Weng–Lin model that rates players (Tau 0:
the bots do not change), and shifts the ratings so that the default level
has a new player's Mu. The same fit is made on the games of each table
size alone; when a difference between two levels differs between two
sizes by more than twice its uncertainty, "groups" is true and ratings per
table size are called for.

Each level plays its spec without a time limit, so that the games are the
same on a busy machine as on an idle one: the same --seed gives the same
ratings. The result is written as JSON to --out (the file the server
embeds, internal/botrating/levels.json, when run from the repository's
root; rebuild razzia to use it) and summed up on standard output. Run it
again whenever a level is added or changed.

Example:
  nice -n 19 razzia calibrate --games 400 --out internal/botrating/levels.json
`

// calibrate is the "calibrate" command.
func calibrate(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("calibrate")
	games := fs.Int("games", 400, "how many `games` to play at least")
	seed := fs.Uint64("seed", 1, "the `seed` of the tables and games")
	workers := fs.Int("workers", 0, "games played at once (0: one per CPU)")
	out := fs.String("out", "internal/botrating/levels.json", "the `file` to write the calibration to")
	pos, status, done := parseFlags(fs, calibrateSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	if len(pos) > 0 {
		return usageError(stderr, fs, calibrateSynopsis, "unexpected argument %q", pos[0])
	}
	if *games < 1 || *workers < 0 {
		return usageError(stderr, fs, calibrateSynopsis, "--games must be at least 1 and --workers not negative")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	last := -1
	c, err := botrating.Calibrate(ctx, botrating.Config{Games: *games, Seed: *seed, Workers: *workers,
		Progress: func(done, total int) {
			if pct := done * 100 / total; pct/10 != last {
				last = pct / 10
				fmt.Fprintf(stderr, "razzia calibrate: %d of %d games\n", done, total)
			}
		}})
	if err != nil {
		fmt.Fprintf(stderr, "razzia calibrate: %v\n", err)
		return 1
	}
	c.Command = fmt.Sprintf("razzia calibrate --games %d --seed %d", *games, *seed)
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "razzia calibrate: %v\n", err)
		return 1
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		fmt.Fprintf(stderr, "razzia calibrate: %v\n", err)
		return 1
	}
	writeCalibration(stdout, c)
	fmt.Fprintf(stdout, "written to %s\n", *out)
	return 0
}

// writeCalibration sums a calibration up for people.
func writeCalibration(w io.Writer, c *botrating.Calibration) {
	fmt.Fprintf(w, "%d games, seed %d\n\n", c.Games, c.Seed)
	sizes := []string{"2", "3", "4", "5"}
	fmt.Fprintf(w, "%-8s %16s", "level", "all tables")
	for _, n := range sizes {
		fmt.Fprintf(w, " %16s", n+" players")
	}
	fmt.Fprintln(w)
	for _, l := range bot.LevelNames() {
		r, ok := c.Levels[l]
		if !ok {
			continue
		}
		fmt.Fprintf(w, "%-8s %16s", l, fmt.Sprintf("%.2f ± %.2f", r.Mu, r.Sigma))
		for _, n := range sizes {
			s := ""
			if g, ok := c.ByPlayers[n][l]; ok {
				s = fmt.Sprintf("%.2f ± %.2f", g.Mu, g.Sigma)
			}
			fmt.Fprintf(w, " %16s", s)
		}
		fmt.Fprintln(w)
	}
	verdict := "the levels' differences agree across table sizes: one rating for all sizes"
	if c.Groups {
		verdict = "some difference between levels depends on the table size (more than twice its uncertainty): ratings per table size are called for"
	}
	fmt.Fprintf(w, "\nMu ± Sigma; %s.\n", strings.TrimSpace(verdict))
	// A level bounded by time alone plays another bot here (mcts without
	// iters= runs its default iterations): say so.
	for _, l := range bot.LevelNames() {
		lv, _ := bot.LookupLevel(l)
		if spec, ok := c.Specs[l]; ok && spec != lv.Spec {
			fmt.Fprintf(w, "%s was played as %q, its spec %q without the time limit.\n", l, spec, lv.Spec)
		}
	}
}
