-- A move of a game that stays in play writes its own row and nothing
-- else: its game's time updated and clock, as the move left them, go
-- with the move's row (NULL where the game's row holds the latest: a
-- move that changed its game's status, or stored before this version),
-- so that a move's commit writes one page of the log where it wrote two.
-- A game's time updated, clock and count of moves are then the latest
-- of its row and its last move's. Undone, each game's row takes its
-- last move's first.

-- +goose Up
ALTER TABLE moves ADD COLUMN updated INTEGER;
ALTER TABLE moves ADD COLUMN clock BLOB;

-- +goose Down
UPDATE games SET
	updated = m.updated,
	clock = m.clock,
	move_count = m.idx + 1,
	listed = CASE WHEN games.status = 'playing' THEN 0 ELSE m.updated END
FROM (SELECT game_id, max(idx) AS idx, updated, clock FROM moves GROUP BY game_id) AS m
WHERE m.game_id = games.id AND m.updated > games.updated;
UPDATE games SET move_count = (SELECT max(idx) + 1 FROM moves WHERE moves.game_id = games.id)
WHERE move_count < (SELECT coalesce(max(idx) + 1, 0) FROM moves WHERE moves.game_id = games.id);
ALTER TABLE moves DROP COLUMN clock;
ALTER TABLE moves DROP COLUMN updated;
