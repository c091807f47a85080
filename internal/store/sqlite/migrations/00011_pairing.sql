-- Play now and challenges: the open requests that internal/meet pairs into
-- tables, and the challenges of signed-in people with their answers.
-- Times are Unix nanoseconds, as in the games table; a request's
-- bots_after is in nanoseconds too.

-- +goose Up
CREATE TABLE seeks (
	id          TEXT NOT NULL PRIMARY KEY,
	person      TEXT NOT NULL,
	account_id  TEXT REFERENCES accounts (id) ON DELETE CASCADE,
	name        TEXT NOT NULL,
	min_players INTEGER NOT NULL,
	max_players INTEGER NOT NULL,
	pace        TEXT NOT NULL,
	rated       BOOLEAN NOT NULL,
	rating      INTEGER NOT NULL,
	rating_min  INTEGER NOT NULL,
	rating_max  INTEGER NOT NULL,
	finish      INTEGER NOT NULL,
	min_finish  INTEGER NOT NULL,
	bots_after  INTEGER NOT NULL,
	status      TEXT NOT NULL,
	game_id     TEXT NOT NULL,
	seat        INTEGER NOT NULL,
	token       TEXT NOT NULL,
	created     INTEGER NOT NULL,
	updated     INTEGER NOT NULL
);
CREATE INDEX seeks_open ON seeks (status, created);
CREATE INDEX seeks_by_person ON seeks (person, created);

CREATE TABLE invitations (
	id           TEXT NOT NULL PRIMARY KEY,
	from_account TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	from_name    TEXT NOT NULL,
	pace         TEXT NOT NULL,
	rated        BOOLEAN NOT NULL,
	status       TEXT NOT NULL,
	game_id      TEXT NOT NULL,
	created      INTEGER NOT NULL,
	expires      INTEGER NOT NULL,
	updated      INTEGER NOT NULL
);
CREATE INDEX invitations_by_status ON invitations (status, expires);
CREATE INDEX invitations_by_from ON invitations (from_account, created);

CREATE TABLE invitees (
	invitation_id TEXT NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
	idx          INTEGER NOT NULL,
	account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	name         TEXT NOT NULL,
	answered     BOOLEAN NOT NULL,
	accept       BOOLEAN NOT NULL,
	reason       TEXT NOT NULL,
	PRIMARY KEY (invitation_id, idx)
);
CREATE INDEX invitees_by_account ON invitees (account_id);

-- +goose Down
DROP TABLE invitees;
DROP TABLE invitations;
DROP TABLE seeks;
