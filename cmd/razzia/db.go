package main

import (
	"context"
	"log/slog"
	"net/url"
	"strings"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

// dbHelp says what --db (and migrate's --from and --to) accept.
const dbHelp = "an SQLite database `file` (created if missing) or a postgres:// URL"

// isPostgres reports whether dsn names a PostgreSQL database.
func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// openStore opens the store dsn names: a postgres:// or postgresql:// URL
// is PostgreSQL (waiting while it is unreachable, with a log line at each
// try, until ctx ends); anything else is the path of an SQLite file, which
// a server opens as its sole user (sqlite.Options.Sole).
func openStore(ctx context.Context, dsn string, log *slog.Logger, server bool) (store.Store, error) {
	if isPostgres(dsn) {
		return postgres.Open(ctx, dsn, postgres.Options{Logger: log})
	}
	return sqlite.OpenOptions(ctx, dsn, sqlite.Options{Sole: server})
}

// redact returns dsn fit for a log: a URL's password is hidden.
func redact(dsn string) string {
	if !isPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(unreadable URL)"
	}
	return u.Redacted()
}
