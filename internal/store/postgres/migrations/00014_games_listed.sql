-- A move rewrites its game's row (the move count, the clock and the time
-- updated) and nothing indexed, so that PostgreSQL updates the row in
-- place (a HOT update: no new index entry, no index to vacuum), as it
-- does a lease's renewal. The lists of games by status are ordered by
-- listed, which is the time updated except while a game is played (0):
-- the games being played, a few thousand at most, are sorted by their
-- time updated when listed; every other status keeps its order in the
-- index. Each page keeps room for the rows' new versions.
--
-- A move's row is inserted by the statement that holds its game's row
-- locked (appendMove), and games are never deleted: the foreign key of
-- moves checked again, by a query of its own, the row that statement had
-- just locked, which cost a move a third of the buffers it touches.

-- +goose Up
ALTER TABLE games ADD COLUMN listed bigint NOT NULL
	GENERATED ALWAYS AS (CASE WHEN status = 'playing' THEN 0 ELSE updated END) STORED;
CREATE INDEX games_by_listed ON games (status, listed DESC, id);
DROP INDEX games_by_status;
ALTER TABLE games SET (fillfactor = 75);
ALTER TABLE moves DROP CONSTRAINT moves_game_id_fkey;

-- +goose Down
ALTER TABLE moves ADD CONSTRAINT moves_game_id_fkey FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE;
ALTER TABLE games RESET (fillfactor);
CREATE INDEX games_by_status ON games (status, updated DESC, id);
DROP INDEX games_by_listed;
ALTER TABLE games DROP COLUMN listed;
