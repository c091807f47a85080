-- People around the tables: the WebSockets connected to each
-- node (presence, one row each) and each node's liveness (presence_nodes:
-- a node whose beat expired is dead, its rows gone with it); when each
-- account and each seat was last seen; follows and blocks between
-- accounts; and how each account's games ended for it (finishes, its
-- finish rate). Times are Unix nanoseconds (UTC).

-- +goose Up
CREATE TABLE presence_nodes (
	node    TEXT    NOT NULL PRIMARY KEY,
	expires INTEGER NOT NULL
) STRICT;
CREATE TABLE presence (
	node       TEXT    NOT NULL,
	conn       INTEGER NOT NULL CHECK (conn >= 0),
	person     TEXT    NOT NULL,
	account_id TEXT,
	name       TEXT    NOT NULL,
	game_id    TEXT    NOT NULL,
	seat       INTEGER NOT NULL CHECK (seat >= -1),
	away       INTEGER NOT NULL CHECK (away IN (0, 1)),
	since      INTEGER NOT NULL,
	PRIMARY KEY (node, conn)
) STRICT;
CREATE TABLE last_seen (
	account_id TEXT    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
	at         INTEGER NOT NULL
) STRICT;
CREATE TABLE seats_seen (
	game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	idx     INTEGER NOT NULL CHECK (idx >= 0),
	at      INTEGER NOT NULL,
	PRIMARY KEY (game_id, idx)
) STRICT;
CREATE TABLE follows (
	follower TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	followed TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created  INTEGER NOT NULL,
	PRIMARY KEY (follower, followed),
	CHECK (follower <> followed)
) STRICT;
CREATE INDEX follows_by_followed ON follows (followed);
CREATE TABLE blocks (
	blocker TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	blocked TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created INTEGER NOT NULL,
	PRIMARY KEY (blocker, blocked),
	CHECK (blocker <> blocked)
) STRICT;
CREATE INDEX blocks_by_blocked ON blocks (blocked);
CREATE TABLE finishes (
	account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	game_id    TEXT    NOT NULL,
	at         INTEGER NOT NULL,
	left_game  INTEGER NOT NULL CHECK (left_game IN (0, 1)),
	PRIMARY KEY (account_id, game_id)
) STRICT;
CREATE INDEX finishes_by_time ON finishes (account_id, at DESC);

-- +goose Down
DROP TABLE finishes;
DROP TABLE blocks;
DROP TABLE follows;
DROP TABLE seats_seen;
DROP TABLE last_seen;
DROP TABLE presence;
DROP TABLE presence_nodes;
