-- A move of a game that stays in play writes its own row and does not
-- rewrite its game's: its game's time updated and clock, as the move left
-- them, go with the move's row (NULL where the game's row holds the
-- latest: a move that changed its game's status, or stored before this
-- version), about half the log a move writes. A game's time updated,
-- clock and count of moves are then the latest of its row and its last
-- move's. Undone, each game's row takes its last move's first.

-- +goose Up
ALTER TABLE moves ADD COLUMN updated bigint, ADD COLUMN clock bytea;

-- +goose Down
UPDATE games SET updated = m.updated, clock = m.clock, move_count = m.idx + 1
FROM (SELECT DISTINCT ON (game_id) game_id, idx, updated, clock FROM moves ORDER BY game_id, idx DESC) AS m
WHERE m.game_id = games.id AND m.updated > games.updated;
UPDATE games SET move_count = m.n
FROM (SELECT game_id, max(idx) + 1 AS n FROM moves GROUP BY game_id) AS m
WHERE m.game_id = games.id AND games.move_count < m.n;
ALTER TABLE moves DROP COLUMN clock, DROP COLUMN updated;
