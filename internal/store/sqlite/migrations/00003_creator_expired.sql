-- A table's creator may act for it (remove a player before the start):
-- the hash of the creator's token is kept with the game. An open table
-- nobody fills in time is closed with the status 'expired'. SQLite
-- cannot change a CHECK constraint in place, so the games table is
-- rebuilt as its documentation says (https://sqlite.org/lang_altertable.html,
-- "other kinds of table schema changes"): foreign keys off, so that
-- dropping the old table does not delete the seats and moves, and checked
-- before the commit.

-- +goose NO TRANSACTION
-- +goose Up
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE games_new (
	id            TEXT    NOT NULL PRIMARY KEY,
	status        TEXT    NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'archived', 'expired')),
	cheques       TEXT    NOT NULL,
	seed          BLOB,
	created       INTEGER NOT NULL,
	updated       INTEGER NOT NULL,
	move_count    INTEGER NOT NULL DEFAULT 0 CHECK (move_count >= 0),
	lease_node    TEXT,
	lease_fence   INTEGER NOT NULL DEFAULT 0,
	lease_expires INTEGER,
	creator_hash  BLOB
) STRICT;
INSERT INTO games_new (id, status, cheques, seed, created, updated, move_count, lease_node, lease_fence, lease_expires)
	SELECT id, status, cheques, seed, created, updated, move_count, lease_node, lease_fence, lease_expires FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE INDEX games_by_status ON games (status, updated DESC, id);
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE games_old (
	id            TEXT    NOT NULL PRIMARY KEY,
	status        TEXT    NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'archived')),
	cheques       TEXT    NOT NULL,
	seed          BLOB,
	created       INTEGER NOT NULL,
	updated       INTEGER NOT NULL,
	move_count    INTEGER NOT NULL DEFAULT 0 CHECK (move_count >= 0),
	lease_node    TEXT,
	lease_fence   INTEGER NOT NULL DEFAULT 0,
	lease_expires INTEGER
) STRICT;
-- An expired table was open; an older razzia knows it as open.
INSERT INTO games_old (id, status, cheques, seed, created, updated, move_count, lease_node, lease_fence, lease_expires)
	SELECT id, CASE status WHEN 'expired' THEN 'open' ELSE status END, cheques, seed, created, updated,
		move_count, lease_node, lease_fence, lease_expires FROM games;
DROP TABLE games;
ALTER TABLE games_old RENAME TO games;
CREATE INDEX games_by_status ON games (status, updated DESC, id);
COMMIT;
PRAGMA foreign_keys = ON;
