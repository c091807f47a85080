package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/razziagame/razzia/internal/store"
)

const migrateSynopsis = `
usage: razzia migrate --from SOURCE --to TARGET

Migrate copies every game (tables, seats, cheques, seeds, moves, times and
statuses) from one database to another: from an SQLite file to PostgreSQL
to move a server to several nodes, or back. Each database is an SQLite
file or a postgres:// URL, as razzia serve's --db.

Stop the servers on the source first, so that no game changes during the
copy. The copy is idempotent: a game already in the target, identical, is
left as it is, so an interrupted copy can be run again; a game that is in
the target but differs is reported and the copy stops, changing nothing of
that game.
`

// migrate is the "migrate" command.
func migrate(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fs := newFlags("migrate")
	from := fs.String("from", "", "the source database: "+dbHelp)
	to := fs.String("to", "", "the target database: "+dbHelp)
	positional, status, done := parseFlags(fs, migrateSynopsis, args, stdout, stderr)
	switch {
	case done:
		return status
	case len(positional) > 0:
		return usageError(stderr, fs, migrateSynopsis, "unexpected argument %q", positional[0])
	case *from == "" || *to == "":
		return usageError(stderr, fs, migrateSynopsis, "want both --from and --to")
	case *from == *to:
		return usageError(stderr, fs, migrateSynopsis, "--from and --to name the same database")
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	src, err := openStore(ctx, *from, log, false)
	if err != nil {
		fmt.Fprintf(stderr, "razzia migrate: the source: %v\n", err)
		return 1
	}
	defer src.Close()
	dst, err := openStore(ctx, *to, log, false)
	if err != nil {
		fmt.Fprintf(stderr, "razzia migrate: the target: %v\n", err)
		return 1
	}
	defer dst.Close()
	copied, kept, err := copyGames(ctx, src, dst)
	fmt.Fprintf(stdout, "%d games copied, %d already in the target\n", copied, kept)
	if err != nil {
		fmt.Fprintf(stderr, "razzia migrate: %v\n", err)
		return 1
	}
	if err := dst.Close(); err != nil {
		fmt.Fprintf(stderr, "razzia migrate: the target: %v\n", err)
		return 1
	}
	return 0
}

// statuses are every status, in the order migrate copies them.
var statuses = []store.Status{store.StatusArchived, store.StatusFinished, store.StatusPlaying, store.StatusOpen}

// copyGames copies every game of src that dst lacks, and checks that the
// ones dst has are the same.
func copyGames(ctx context.Context, src, dst store.Store) (copied, kept int, err error) {
	for _, st := range statuses {
		sums, err := src.List(ctx, st, 0)
		if err != nil {
			return copied, kept, fmt.Errorf("list the %s games of the source: %w", st, err)
		}
		for _, sum := range sums {
			g, err := src.Game(ctx, sum.ID)
			if err != nil {
				return copied, kept, fmt.Errorf("read game %s from the source: %w", sum.ID, err)
			}
			err = dst.CreateGame(ctx, g.Clone())
			switch {
			case err == nil:
				copied++
				continue
			case !errors.Is(err, store.ErrConflict):
				return copied, kept, fmt.Errorf("write game %s to the target: %w", g.ID, err)
			}
			have, err := dst.Game(ctx, g.ID)
			if err != nil {
				return copied, kept, fmt.Errorf("read game %s from the target: %w", g.ID, err)
			}
			if !have.Equal(g) {
				return copied, kept, fmt.Errorf("game %s is in the target already, and differs from the source's (%s with %d moves there, %s with %d here): resolve it by hand, or migrate to an empty target",
					g.ID, have.Status, len(have.Moves), g.Status, len(g.Moves))
			}
			kept++
		}
	}
	return copied, kept, nil
}
