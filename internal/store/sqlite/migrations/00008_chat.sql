-- Table chat (issue 12): each game's messages in the order sent (seq),
-- and who muted whom for the game. Times are Unix nanoseconds (UTC).

-- +goose Up
CREATE TABLE chat_lines (
	game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL CHECK (seq >= 0),
	channel TEXT    NOT NULL,
	sender  TEXT    NOT NULL,
	seat    INTEGER NOT NULL,
	name    TEXT    NOT NULL,
	phrase  TEXT,
	text    TEXT,
	move    INTEGER NOT NULL CHECK (move >= 0),
	at      INTEGER NOT NULL,
	PRIMARY KEY (game_id, seq),
	CHECK ((phrase IS NULL) <> (text IS NULL))
) STRICT;
CREATE TABLE chat_mutes (
	game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	muter   TEXT NOT NULL,
	muted   TEXT NOT NULL,
	PRIMARY KEY (game_id, muter, muted)
) STRICT;

-- +goose Down
DROP TABLE chat_mutes;
DROP TABLE chat_lines;
