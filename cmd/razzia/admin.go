package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

const adminSynopsis = `
usage: razzia admin [--db DB] grant|revoke NAME
       razzia admin [--db DB] list

Admin gives the operator role to the account called NAME (grant) or
takes it back (revoke), on a server's database, whether its servers run
or not: the role holds at the account's next request, on every node;
list prints the operators, one a line, by when they got the role. An
operator reads the players' reports on the page /operator and mutes,
suspends or bans accounts, and removes chat lines (docs/players.md).
The first account made on a new server is an operator already.

Names are compared as accounts are: without regard to case ("ANN" is
"Ann"). The exit status is 0 when the account has the role asked for
(granted or revoked now, or before), 1 when there is no such account or
the database fails, 2 for a usage error.
`

// adminName is how the command's PostgreSQL sessions show in
// pg_stat_activity.
const adminName = "razzia admin"

// runAdmin is the admin command.
func runAdmin(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := newFlags("admin")
	db := fl.String("db", envOr("RAZZIA_DB", "razzia.db"), "the server's database: an existing SQLite `file` or a postgres:// URL")
	wait := fl.Duration("wait", 30*time.Second, "how long to wait for PostgreSQL to answer")
	rest, status, done := parseFlags(fl, adminSynopsis, args, stdout, stderr)
	switch {
	case done:
		return status
	case len(rest) == 0:
		return usageError(stderr, fl, adminSynopsis, "want grant NAME, revoke NAME or list")
	case rest[0] != "grant" && rest[0] != "revoke" && rest[0] != "list":
		return usageError(stderr, fl, adminSynopsis, "unknown action %q: want grant, revoke or list", rest[0])
	case rest[0] == "list" && len(rest) != 1:
		return usageError(stderr, fl, adminSynopsis, "list takes no NAME")
	case rest[0] != "list" && len(rest) != 2:
		return usageError(stderr, fl, adminSynopsis, "%s takes one NAME", rest[0])
	case *wait <= 0:
		return usageError(stderr, fl, adminSynopsis, "--wait %v: want a positive duration", *wait)
	}
	ctx, stop := signalContext(nil)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, err := openAdmin(ctx, *db, *wait, log)
	if err != nil {
		fmt.Fprintf(stderr, "razzia admin: %s: %v\n", redact(*db), err)
		return 1
	}
	defer st.Close()
	var msg string
	if rest[0] == "list" {
		msg, err = operators(ctx, st)
	} else {
		msg, err = setRole(ctx, st, rest[1], rest[0] == "grant")
	}
	if err != nil {
		fmt.Fprintf(stderr, "razzia admin: %s: %v\n", redact(*db), err)
		return 1
	}
	fmt.Fprint(stdout, msg)
	return 0
}

// openAdmin opens a server's existing database, beside its servers.
func openAdmin(ctx context.Context, dsn string, wait time.Duration, log *slog.Logger) (store.Store, error) {
	if !isPostgres(dsn) {
		return sqlite.OpenOptions(ctx, dsn, sqlite.Options{Existing: true})
	}
	octx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	s, err := postgres.Open(octx, dsn, postgres.Options{Logger: log, ApplicationName: adminName, Existing: true})
	if err != nil {
		return nil, unreachable(dsn, wait, err)
	}
	return s, nil
}

// setRole gives (on) or takes back the operator role of the account
// called name, and says what it did.
func setRole(ctx context.Context, st store.Store, name string, on bool) (string, error) {
	a, err := st.AccountByKey(ctx, playername.Key(name))
	if errors.Is(err, store.ErrNoAccount) {
		return "", fmt.Errorf("there is no account called %q (razzia admin names an account registered on the server)", name)
	}
	if err != nil {
		return "", err
	}
	changed, err := st.SetOperator(ctx, a.ID, on, time.Now())
	if err != nil {
		return "", err
	}
	switch {
	case on && changed:
		return fmt.Sprintf("%s is an operator now.\n", a.Name), nil
	case on:
		return fmt.Sprintf("%s was an operator already.\n", a.Name), nil
	case changed:
		return fmt.Sprintf("%s is no longer an operator.\n", a.Name), nil
	}
	return fmt.Sprintf("%s was not an operator.\n", a.Name), nil
}

// operators lists the operators' names, one a line.
func operators(ctx context.Context, st store.Store) (string, error) {
	ids, err := st.Operators(ctx)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, id := range ids {
		a, err := st.Account(ctx, id)
		if err != nil {
			return "", err
		}
		fmt.Fprintln(&b, a.Name)
	}
	return b.String(), nil
}
