-- Timed tables (issue 12): the state of a table's clocks is kept with the
-- game, as internal/table encodes it (NULL for an untimed game). A table
-- its creator cancels is closed with the status 'cancelled'.

-- +goose Up
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
	CHECK (status IN ('open', 'playing', 'finished', 'archived', 'expired', 'cancelled'));
ALTER TABLE games ADD COLUMN clock bytea;

-- +goose Down
ALTER TABLE games DROP COLUMN clock;
UPDATE games SET status = 'expired' WHERE status = 'cancelled';
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
	CHECK (status IN ('open', 'playing', 'finished', 'archived', 'expired'));
