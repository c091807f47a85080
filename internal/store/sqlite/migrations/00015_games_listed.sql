-- A move rewrites its game's row (the move count, the clock and the time
-- updated) and nothing indexed: the lists of games by status are ordered
-- by listed, which is the time updated except while a game is played
-- (0), so that the index of the lists no longer holds the time a move
-- sets, and a move's commit writes two pages (its game's row and its
-- own) where it wrote four or five. Unlike PostgreSQL, SQLite rewrites
-- an index entry whenever its update sets a column the entry is made of
-- (or one a generated column is made of), changed or not, so listed is a
-- column of its own, which the statements that change a game's status or
-- the time of a game not being played set, and a move of a game that
-- stays in play leaves; its CHECK holds them to it. The games being
-- played, a few thousand at most, are sorted by their time updated when
-- listed; every other status keeps its order in the index. A CHECK
-- needs the table rebuilt, as in 00006 (foreign keys off while the old
-- table is dropped).

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
	clock         BLOB,
	rematch_of    TEXT,
	rematch       BLOB,
	listed        INTEGER NOT NULL CHECK (listed = CASE WHEN status = 'playing' THEN 0 ELSE updated END)
) STRICT;
INSERT INTO games_new (id, status, cheques, seed, created, updated, move_count, lease_node, lease_fence, lease_expires,
		creator_hash, rated, clock, rematch_of, rematch, listed)
	SELECT id, status, cheques, seed, created, updated, move_count, lease_node, lease_fence, lease_expires,
		creator_hash, rated, clock, rematch_of, rematch, CASE WHEN status = 'playing' THEN 0 ELSE updated END FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE INDEX games_by_listed ON games (status, listed DESC, id);
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE games_old (
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
	clock         BLOB,
	rematch_of    TEXT,
	rematch       BLOB
) STRICT;
INSERT INTO games_old (id, status, cheques, seed, created, updated, move_count, lease_node, lease_fence, lease_expires,
		creator_hash, rated, clock, rematch_of, rematch)
	SELECT id, status, cheques, seed, created, updated, move_count, lease_node, lease_fence, lease_expires,
		creator_hash, rated, clock, rematch_of, rematch FROM games;
DROP TABLE games;
ALTER TABLE games_old RENAME TO games;
CREATE INDEX games_by_status ON games (status, updated DESC, id);
COMMIT;
PRAGMA foreign_keys = ON;
