-- The schema of games on PostgreSQL. Times of games are Unix nanoseconds
-- (bigint), as on SQLite, so that they round-trip exactly; lease expiry is
-- a timestamptz compared with the database's clock_timestamp(). Cheques
-- are a JSON array of arrays, in seat order.

-- +goose Up
CREATE TABLE games (
	id            text        NOT NULL PRIMARY KEY,
	status        text        NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'archived')),
	cheques       text        NOT NULL,
	seed          bytea,
	created       bigint      NOT NULL,
	updated       bigint      NOT NULL,
	move_count    integer     NOT NULL DEFAULT 0 CHECK (move_count >= 0),
	lease_node    text,
	lease_fence   bigint      NOT NULL DEFAULT 0,
	lease_expires timestamptz
);

-- List: the games with a status, most recently updated first.
CREATE INDEX games_by_status ON games (status, updated DESC, id);

CREATE TABLE seats (
	game_id    text    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	idx        integer NOT NULL CHECK (idx >= 0),
	name       text    NOT NULL,
	bot        text    NOT NULL,
	token_hash bytea,
	PRIMARY KEY (game_id, idx)
);

-- The primary key makes a second move with the same index a conflict.
CREATE TABLE moves (
	game_id text    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	idx     integer NOT NULL CHECK (idx >= 0),
	token   text    NOT NULL CHECK (token <> ''),
	PRIMARY KEY (game_id, idx)
);

-- Health: a commit that proves commits succeed.
CREATE TABLE health (
	id      integer     NOT NULL PRIMARY KEY CHECK (id = 1),
	checked timestamptz NOT NULL
);

-- +goose Down
DROP TABLE health;
DROP TABLE moves;
DROP TABLE seats;
DROP TABLE games;
