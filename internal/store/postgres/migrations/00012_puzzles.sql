-- Puzzles found in finished games, in the background: a scan row is a
-- claim (claim_node, claim_expires) until the game's scan is stored
-- (created); its puzzles, each seat's luck and skill, the solvers'
-- puzzle ratings and their answers. A puzzle's themes are one text,
-- ",a,b,"; daily is the day (UTC, 2006-01-02) it was the puzzle of.
-- Times are Unix nanoseconds, as the games' times; claim_expires by the database's clock.

-- +goose Up
CREATE TABLE puzzle_scans (
	game_id       text    NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	created       bigint,
	claim_node    text,
	claim_expires timestamptz
);

CREATE TABLE puzzles (
	id       text    NOT NULL PRIMARY KEY,
	game_id  text    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	move     bigint NOT NULL CHECK (move >= 0),
	seat     bigint NOT NULL CHECK (seat >= 0),
	themes   text    NOT NULL CHECK (themes <> ''),
	best     text    NOT NULL CHECK (best <> ''),
	margin   double precision    NOT NULL,
	eval     bytea    NOT NULL,
	mu       double precision    NOT NULL,
	sigma    double precision    NOT NULL CHECK (sigma > 0),
	attempts bigint NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	solved   bigint NOT NULL DEFAULT 0 CHECK (solved >= 0),
	created  bigint NOT NULL,
	daily    text    UNIQUE,
	UNIQUE (game_id, move)
);
CREATE INDEX puzzles_by_mu ON puzzles (mu, id);

CREATE TABLE seat_luck (
	game_id  text    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat     bigint NOT NULL CHECK (seat >= 0),
	start    double precision    NOT NULL,
	result   double precision    NOT NULL,
	luck     double precision    NOT NULL,
	skill    double precision    NOT NULL,
	adjusted double precision    NOT NULL,
	PRIMARY KEY (game_id, seat)
);

CREATE TABLE puzzle_solvers (
	account_id text    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
	mu         double precision    NOT NULL,
	sigma      double precision    NOT NULL CHECK (sigma > 0),
	attempts   bigint NOT NULL CHECK (attempts >= 0),
	solved     bigint NOT NULL CHECK (solved >= 0)
);

CREATE TABLE puzzle_attempts (
	puzzle_id          text    NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
	account_id         text    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	answer             text    NOT NULL,
	correct            boolean NOT NULL,
	at                 bigint NOT NULL,
	solver_mu          double precision    NOT NULL,
	solver_sigma       double precision    NOT NULL,
	solver_mu_after    double precision    NOT NULL,
	solver_sigma_after double precision    NOT NULL,
	puzzle_mu          double precision    NOT NULL,
	puzzle_sigma       double precision    NOT NULL,
	puzzle_mu_after    double precision    NOT NULL,
	puzzle_sigma_after double precision    NOT NULL,
	PRIMARY KEY (puzzle_id, account_id)
);
CREATE INDEX puzzle_attempts_by_account ON puzzle_attempts (account_id);

-- +goose Down
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_solvers;
DROP TABLE seat_luck;
DROP TABLE puzzles;
DROP TABLE puzzle_scans;
