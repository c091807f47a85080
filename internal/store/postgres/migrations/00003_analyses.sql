-- The analyses of finished games, made in the background: a row is a
-- claim (claim_node, claim_expires by the database's clock) until the
-- analysis is stored (created, with its report or why it failed).
-- created is Unix nanoseconds, as the games' times.

-- +goose Up
CREATE TABLE analyses (
	game_id       text        NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
	report        bytea,
	failed        text,
	created       bigint,
	claim_node    text,
	claim_expires timestamptz,
	CHECK (report IS NULL OR failed IS NULL),
	CHECK ((created IS NULL) = (report IS NULL AND failed IS NULL))
);

-- +goose Down
DROP TABLE analyses;
