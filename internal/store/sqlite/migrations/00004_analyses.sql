-- The analyses of finished games, made in the background: a row is a
-- claim (claim_node, claim_expires) until the analysis is stored (done,
-- with its report or why it failed). Times are Unix nanoseconds (UTC).

-- +goose Up
CREATE TABLE analyses (
	game_id       TEXT    NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	report        BLOB,
	failed        TEXT,
	created       INTEGER,
	claim_node    TEXT,
	claim_expires INTEGER,
	CHECK ((report IS NULL) OR (failed IS NULL)),
	CHECK ((created IS NULL) = (report IS NULL AND failed IS NULL))
) STRICT;

-- +goose Down
DROP TABLE analyses;
