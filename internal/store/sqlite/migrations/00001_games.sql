-- The first schema: games, their seats and their moves. Times are Unix
-- nanoseconds (UTC); cheques are a JSON array of arrays, in seat order.

-- +goose Up
CREATE TABLE games (
	id      TEXT    NOT NULL PRIMARY KEY,
	status  TEXT    NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'archived')),
	cheques TEXT    NOT NULL,
	seed    BLOB,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL
) STRICT;

-- List: the games with a status, most recently updated first.
CREATE INDEX games_by_status ON games (status, updated DESC, id);

CREATE TABLE seats (
	game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	idx        INTEGER NOT NULL CHECK (idx >= 0),
	name       TEXT    NOT NULL,
	bot        TEXT    NOT NULL,
	token_hash BLOB,
	PRIMARY KEY (game_id, idx)
) STRICT, WITHOUT ROWID;

-- The primary key makes a second move with the same index a conflict.
CREATE TABLE moves (
	game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	idx     INTEGER NOT NULL CHECK (idx >= 0),
	token   TEXT    NOT NULL CHECK (token <> ''),
	PRIMARY KEY (game_id, idx)
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE moves;
DROP TABLE seats;
DROP TABLE games;
