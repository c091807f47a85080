-- Tournaments: each one's header, settings and state (the director's
-- JSON), the version every change compares and bumps, and its lease, as
-- a game's; the people who joined; the tables of its rounds, one game
-- each, with the result once it is over. Times are Unix nanoseconds (UTC).

-- +goose Up
CREATE TABLE tournaments (
	id            TEXT    PRIMARY KEY,
	name          TEXT    NOT NULL,
	format        TEXT    NOT NULL,
	organiser     TEXT    NOT NULL,
	status        TEXT    NOT NULL,
	starts        INTEGER,
	private       BLOB,
	seed          BLOB    NOT NULL,
	settings      BLOB    NOT NULL,
	state         BLOB    NOT NULL,
	created       INTEGER NOT NULL,
	updated       INTEGER NOT NULL,
	version       INTEGER NOT NULL CHECK (version > 0),
	lease_node    TEXT,
	lease_fence   INTEGER NOT NULL DEFAULT 0,
	lease_expires INTEGER
) STRICT;
CREATE INDEX tournaments_status ON tournaments (status, starts);
CREATE TABLE tournament_players (
	tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	account_id    TEXT    NOT NULL,
	name          TEXT    NOT NULL,
	rating        INTEGER NOT NULL,
	joined        INTEGER NOT NULL,
	status        TEXT    NOT NULL,
	rank          INTEGER NOT NULL,
	points        INTEGER NOT NULL,
	PRIMARY KEY (tournament_id, account_id)
) STRICT;
CREATE INDEX tournament_players_account ON tournament_players (account_id);
CREATE TABLE tournament_tables (
	tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	round         INTEGER NOT NULL CHECK (round >= 0),
	idx           INTEGER NOT NULL CHECK (idx > 0),
	game_id       TEXT    NOT NULL UNIQUE,
	deal          INTEGER NOT NULL,
	seats         TEXT    NOT NULL,
	created       INTEGER NOT NULL,
	result        BLOB,
	finished      INTEGER,
	PRIMARY KEY (tournament_id, round, idx)
) STRICT;

-- +goose Down
DROP TABLE tournament_tables;
DROP TABLE tournament_players;
DROP TABLE tournaments;
