-- A table's creator may act for it (remove a player before the start):
-- the hash of the creator's token is kept with the game. An open table
-- nobody fills in time is closed with the status 'expired'.

-- +goose Up
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
	CHECK (status IN ('open', 'playing', 'finished', 'archived', 'expired'));
ALTER TABLE games ADD COLUMN creator_hash bytea;

-- +goose Down
ALTER TABLE games DROP COLUMN creator_hash;
UPDATE games SET status = 'open' WHERE status = 'expired';
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
	CHECK (status IN ('open', 'playing', 'finished', 'archived'));
