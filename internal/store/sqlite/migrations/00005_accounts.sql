-- Accounts (issue 11): players who register, their sessions (the hash
-- of the cookie's secret), passkeys and WebAuthn challenges under way; a
-- seat may belong to an account (at most one seat of a game each); a
-- table may be rated; the results of finished games with an account at
-- them, with the ratings before and after. Times are Unix nanoseconds.

-- +goose Up
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE seats ADD COLUMN account_id TEXT;
CREATE UNIQUE INDEX seats_by_account ON seats (account_id, game_id) WHERE account_id IS NOT NULL;

CREATE TABLE accounts (
	id          TEXT    NOT NULL PRIMARY KEY,
	name        TEXT    NOT NULL CHECK (name <> ''),
	name_key    TEXT    NOT NULL UNIQUE CHECK (name_key <> ''),
	password    TEXT    NOT NULL DEFAULT '',
	handle      BLOB    NOT NULL UNIQUE,
	seat_key    BLOB    NOT NULL,
	created     INTEGER NOT NULL,
	mu          REAL    NOT NULL,
	sigma       REAL    NOT NULL CHECK (sigma > 0),
	rated_games INTEGER NOT NULL DEFAULT 0 CHECK (rated_games >= 0)
) STRICT;

CREATE TABLE sessions (
	hash       BLOB    NOT NULL PRIMARY KEY,
	account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created    INTEGER NOT NULL,
	expires    INTEGER NOT NULL
) STRICT;
CREATE INDEX sessions_by_account ON sessions (account_id);

CREATE TABLE passkeys (
	id         BLOB    NOT NULL PRIMARY KEY,
	account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	name       TEXT    NOT NULL,
	credential BLOB    NOT NULL,
	created    INTEGER NOT NULL,
	used       INTEGER
) STRICT;
CREATE INDEX passkeys_by_account ON passkeys (account_id, created);

CREATE TABLE challenges (
	hash       BLOB    NOT NULL PRIMARY KEY,
	account_id TEXT    NOT NULL,
	data       BLOB    NOT NULL,
	expires    INTEGER NOT NULL
) STRICT;

CREATE TABLE results (
	game_id      TEXT    NOT NULL,
	idx          INTEGER NOT NULL CHECK (idx >= 0),
	account_id   TEXT,
	bot          TEXT    NOT NULL,
	name         TEXT    NOT NULL,
	players      INTEGER NOT NULL,
	rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
	finished     INTEGER NOT NULL,
	rank         INTEGER NOT NULL,
	score        INTEGER NOT NULL,
	scores       TEXT    NOT NULL,
	mu_before    REAL,
	sigma_before REAL,
	games_before INTEGER,
	mu           REAL,
	sigma        REAL,
	games        INTEGER,
	PRIMARY KEY (game_id, idx)
) STRICT, WITHOUT ROWID;
CREATE INDEX results_by_account ON results (account_id, finished DESC) WHERE account_id IS NOT NULL;

-- +goose Down
DROP TABLE results;
DROP TABLE challenges;
DROP TABLE passkeys;
DROP TABLE sessions;
DROP TABLE accounts;
DROP INDEX seats_by_account;
ALTER TABLE seats DROP COLUMN account_id;
ALTER TABLE games DROP COLUMN rated;
