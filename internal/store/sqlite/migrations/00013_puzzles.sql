-- Puzzles found in finished games, in the background: a scan row is a
-- claim (claim_node, claim_expires) until the game's scan is stored
-- (created); its puzzles, each seat's luck and skill, the solvers'
-- puzzle ratings and their answers. A puzzle's themes are one text,
-- ",a,b,"; daily is the day (UTC, 2006-01-02) it was the puzzle of.
-- Times are Unix nanoseconds (UTC).

-- +goose Up
CREATE TABLE puzzle_scans (
	game_id       TEXT    NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	created       INTEGER,
	claim_node    TEXT,
	claim_expires INTEGER
) STRICT;

CREATE TABLE puzzles (
	id       TEXT    NOT NULL PRIMARY KEY,
	game_id  TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	move     INTEGER NOT NULL CHECK (move >= 0),
	seat     INTEGER NOT NULL CHECK (seat >= 0),
	themes   TEXT    NOT NULL CHECK (themes <> ''),
	best     TEXT    NOT NULL CHECK (best <> ''),
	margin   REAL    NOT NULL,
	eval     BLOB    NOT NULL,
	mu       REAL    NOT NULL,
	sigma    REAL    NOT NULL CHECK (sigma > 0),
	attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	solved   INTEGER NOT NULL DEFAULT 0 CHECK (solved >= 0),
	created  INTEGER NOT NULL,
	daily    TEXT    UNIQUE,
	UNIQUE (game_id, move)
) STRICT;
CREATE INDEX puzzles_by_mu ON puzzles (mu, id);

CREATE TABLE seat_luck (
	game_id  TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat     INTEGER NOT NULL CHECK (seat >= 0),
	start    REAL    NOT NULL,
	result   REAL    NOT NULL,
	luck     REAL    NOT NULL,
	skill    REAL    NOT NULL,
	adjusted REAL    NOT NULL,
	PRIMARY KEY (game_id, seat)
) STRICT;

CREATE TABLE puzzle_solvers (
	account_id TEXT    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
	mu         REAL    NOT NULL,
	sigma      REAL    NOT NULL CHECK (sigma > 0),
	attempts   INTEGER NOT NULL CHECK (attempts >= 0),
	solved     INTEGER NOT NULL CHECK (solved >= 0)
) STRICT;

CREATE TABLE puzzle_attempts (
	puzzle_id          TEXT    NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
	account_id         TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	answer             TEXT    NOT NULL,
	correct            INTEGER NOT NULL CHECK (correct IN (0, 1)),
	at                 INTEGER NOT NULL,
	solver_mu          REAL    NOT NULL,
	solver_sigma       REAL    NOT NULL,
	solver_mu_after    REAL    NOT NULL,
	solver_sigma_after REAL    NOT NULL,
	puzzle_mu          REAL    NOT NULL,
	puzzle_sigma       REAL    NOT NULL,
	puzzle_mu_after    REAL    NOT NULL,
	puzzle_sigma_after REAL    NOT NULL,
	PRIMARY KEY (puzzle_id, account_id)
) STRICT;
CREATE INDEX puzzle_attempts_by_account ON puzzle_attempts (account_id);

-- +goose Down
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_solvers;
DROP TABLE seat_luck;
DROP TABLE puzzles;
DROP TABLE puzzle_scans;
