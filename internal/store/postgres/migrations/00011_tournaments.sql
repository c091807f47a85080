-- Tournaments: each one's header, settings and state (the director's
-- JSON), the version every change compares and bumps, and its lease, as
-- a game's; the people who joined; the tables of its rounds, one game
-- each, with the result once it is over. Times are Unix nanoseconds, as
-- the games' are, except the lease's expiry (the database's clock).

-- +goose Up
CREATE TABLE tournaments (
	id            text    PRIMARY KEY,
	name          text    NOT NULL,
	format        text    NOT NULL,
	organiser     text    NOT NULL,
	status        text    NOT NULL,
	starts        bigint,
	private       bytea,
	seed          bytea   NOT NULL,
	settings      bytea   NOT NULL,
	state         bytea   NOT NULL,
	created       bigint  NOT NULL,
	updated       bigint  NOT NULL,
	version       bigint  NOT NULL CHECK (version > 0),
	lease_node    text,
	lease_fence   bigint  NOT NULL DEFAULT 0,
	lease_expires timestamptz
);
CREATE INDEX tournaments_status ON tournaments (status, starts);
CREATE TABLE tournament_players (
	tournament_id text    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	account_id    text    NOT NULL,
	name          text    NOT NULL,
	rating        integer NOT NULL,
	joined        bigint  NOT NULL,
	status        text    NOT NULL,
	rank          integer NOT NULL,
	points        bigint  NOT NULL,
	PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX tournament_players_account ON tournament_players (account_id);
CREATE TABLE tournament_tables (
	tournament_id text    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
	round         integer NOT NULL CHECK (round >= 0),
	idx           integer NOT NULL CHECK (idx > 0),
	game_id       text    NOT NULL UNIQUE,
	deal          integer NOT NULL,
	seats         text    NOT NULL,
	created       bigint  NOT NULL,
	result        bytea,
	finished      bigint,
	PRIMARY KEY (tournament_id, round, idx)
);

-- +goose Down
DROP TABLE tournament_tables;
DROP TABLE tournament_players;
DROP TABLE tournaments;
