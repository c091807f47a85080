-- Several nodes, one node fast: a game keeps its move count (so that a
-- move needs no count of the others), its lease (the node that runs it,
-- until when, by the writer's clock in Unix nanoseconds, and the fencing
-- number that grows at every new holder), and the database is marked as
-- Razzia's ('RZZA'), so that a file of another application is refused.

-- +goose Up
ALTER TABLE games ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0 CHECK (move_count >= 0);
UPDATE games SET move_count = (SELECT count(*) FROM moves WHERE game_id = games.id);
ALTER TABLE games ADD COLUMN lease_node TEXT;
ALTER TABLE games ADD COLUMN lease_fence INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN lease_expires INTEGER;

-- Health: a commit that proves commits succeed.
CREATE TABLE health (
	id      INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
	checked INTEGER NOT NULL
) STRICT;

PRAGMA application_id = 1381653057;

-- +goose Down
PRAGMA application_id = 0;
DROP TABLE health;
ALTER TABLE games DROP COLUMN lease_expires;
ALTER TABLE games DROP COLUMN lease_fence;
ALTER TABLE games DROP COLUMN lease_node;
ALTER TABLE games DROP COLUMN move_count;
