-- Play now and challenges: the open requests that internal/meet pairs into
-- tables, and the challenges of signed-in people with their answers.
-- Times are Unix nanoseconds (bigint), as in the games table; a request's
-- bots_after is in nanoseconds too.

-- +goose Up
CREATE TABLE seeks (
	id          text NOT NULL PRIMARY KEY,
	person      text NOT NULL,
	account_id  text REFERENCES accounts (id) ON DELETE CASCADE,
	name        text NOT NULL,
	min_players integer NOT NULL,
	max_players integer NOT NULL,
	pace        text NOT NULL,
	rated       boolean NOT NULL,
	rating      bigint NOT NULL,
	rating_min  bigint NOT NULL,
	rating_max  bigint NOT NULL,
	finish      bigint NOT NULL,
	min_finish  bigint NOT NULL,
	bots_after  bigint NOT NULL,
	status      text NOT NULL,
	game_id     text NOT NULL,
	seat        integer NOT NULL,
	token       text NOT NULL,
	created     bigint NOT NULL,
	updated     bigint NOT NULL
);
CREATE INDEX seeks_open ON seeks (status, created);
CREATE INDEX seeks_by_person ON seeks (person, created);

CREATE TABLE invitations (
	id           text NOT NULL PRIMARY KEY,
	from_account text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	from_name    text NOT NULL,
	pace         text NOT NULL,
	rated        boolean NOT NULL,
	status       text NOT NULL,
	game_id      text NOT NULL,
	created      bigint NOT NULL,
	expires      bigint NOT NULL,
	updated      bigint NOT NULL
);
CREATE INDEX invitations_by_status ON invitations (status, expires);
CREATE INDEX invitations_by_from ON invitations (from_account, created);

CREATE TABLE invitees (
	invitation_id text NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
	idx          integer NOT NULL,
	account_id   text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	name         text NOT NULL,
	answered     boolean NOT NULL,
	accept       boolean NOT NULL,
	reason       text NOT NULL,
	PRIMARY KEY (invitation_id, idx)
);
CREATE INDEX invitees_by_account ON invitees (account_id);

-- +goose Down
DROP TABLE invitees;
DROP TABLE invitations;
DROP TABLE seeks;
