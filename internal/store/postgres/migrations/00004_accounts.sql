-- Accounts (issue 11): players who register, their sessions (the hash
-- of the cookie's secret), passkeys and WebAuthn challenges under way; a
-- seat may belong to an account (at most one seat of a game each); a
-- table may be rated; the results of finished games with an account at
-- them, with the ratings before and after. Times are Unix nanoseconds
-- (bigint), as in the games table.

-- +goose Up
ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;
ALTER TABLE seats ADD COLUMN account_id text;
CREATE UNIQUE INDEX seats_by_account ON seats (account_id, game_id) WHERE account_id IS NOT NULL;

CREATE TABLE accounts (
	id          text NOT NULL PRIMARY KEY,
	name        text NOT NULL CHECK (name <> ''),
	name_key    text NOT NULL UNIQUE CHECK (name_key <> ''),
	password    text NOT NULL DEFAULT '',
	handle      bytea NOT NULL UNIQUE,
	seat_key    bytea NOT NULL,
	created     bigint NOT NULL,
	mu          double precision NOT NULL,
	sigma       double precision NOT NULL CHECK (sigma > 0),
	rated_games integer NOT NULL DEFAULT 0 CHECK (rated_games >= 0)
);

CREATE TABLE sessions (
	hash       bytea NOT NULL PRIMARY KEY,
	account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created    bigint NOT NULL,
	expires    bigint NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);

CREATE TABLE passkeys (
	id         bytea NOT NULL PRIMARY KEY,
	account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	name       text NOT NULL,
	credential bytea NOT NULL,
	created    bigint NOT NULL,
	used       bigint
);
CREATE INDEX passkeys_by_account ON passkeys (account_id, created);

CREATE TABLE challenges (
	hash       bytea NOT NULL PRIMARY KEY,
	account_id text NOT NULL,
	data       bytea NOT NULL,
	expires    bigint NOT NULL
);

CREATE TABLE results (
	game_id      text NOT NULL,
	idx          integer NOT NULL CHECK (idx >= 0),
	account_id   text,
	bot          text NOT NULL,
	name         text NOT NULL,
	players      integer NOT NULL,
	rated        boolean NOT NULL,
	finished     bigint NOT NULL,
	rank         integer NOT NULL,
	score        integer NOT NULL,
	scores       text NOT NULL,
	mu_before    double precision,
	sigma_before double precision,
	games_before integer,
	mu           double precision,
	sigma        double precision,
	games        integer,
	PRIMARY KEY (game_id, idx)
);
CREATE INDEX results_by_account ON results (account_id, finished DESC) WHERE account_id IS NOT NULL;

-- +goose Down
DROP TABLE results;
DROP TABLE challenges;
DROP TABLE passkeys;
DROP TABLE sessions;
DROP TABLE accounts;
ALTER TABLE seats DROP COLUMN account_id;
ALTER TABLE games DROP COLUMN rated;
