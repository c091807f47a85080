-- Timed tables (issue 12): the state of a table's clocks is kept with the
-- game, as internal/table encodes it (NULL for an untimed game). A table
-- its creator cancels is closed with the status 'cancelled'. SQLite
-- cannot change a CHECK constraint in place, so the games table is
-- rebuilt as in 00003 (foreign keys off while the old table is dropped),
-- keeping the rated column of 00005.

-- +goose NO TRANSACTION
-- +goose Up
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE games_new (
	id            TEXT    NOT NULL PRIMARY KEY,
	status        TEXT    NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'archived', 'expired', 'cancelled')),
	cheques       TEXT    NOT NULL,
	seed          BLOB,
	created       INTEGER NOT NULL,
	updated       INTEGER NOT NULL,
	move_count    INTEGER NOT NULL DEFAULT 0 CHECK (move_count >= 0),
	lease_node    TEXT,
	lease_fence   INTEGER NOT NULL DEFAULT 0,
	lease_expires INTEGER,
	creator_hash  BLOB,
	rated         INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
	clock         BLOB
) STRICT;
INSERT INTO games_new (id, status, cheques, seed, created, updated, move_count, lease_node, lease_fence, lease_expires, creator_hash, rated)
	SELECT id, status, cheques, seed, created, updated, move_count, lease_node, lease_fence, lease_expires, creator_hash, rated FROM games;
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
	status        TEXT    NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'archived', 'expired')),
	cheques       TEXT    NOT NULL,
	seed          BLOB,
	created       INTEGER NOT NULL,
	updated       INTEGER NOT NULL,
	move_count    INTEGER NOT NULL DEFAULT 0 CHECK (move_count >= 0),
	lease_node    TEXT,
	lease_fence   INTEGER NOT NULL DEFAULT 0,
	lease_expires INTEGER,
	creator_hash  BLOB,
	rated         INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1))
) STRICT;
-- A cancelled table never played; an older razzia knows it as expired.
INSERT INTO games_old (id, status, cheques, seed, created, updated, move_count, lease_node, lease_fence, lease_expires, creator_hash, rated)
	SELECT id, CASE status WHEN 'cancelled' THEN 'expired' ELSE status END, cheques, seed, created, updated,
		move_count, lease_node, lease_fence, lease_expires, creator_hash, rated FROM games;
DROP TABLE games;
ALTER TABLE games_old RENAME TO games;
CREATE INDEX games_by_status ON games (status, updated DESC, id);
COMMIT;
PRAGMA foreign_keys = ON;
