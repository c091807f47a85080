-- Table chat (issue 12): each game's messages in the order sent (seq),
-- and who muted whom for the game. at is Unix nanoseconds, as the games'
-- times.

-- +goose Up
CREATE TABLE chat_lines (
	game_id text    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seq     integer NOT NULL CHECK (seq >= 0),
	channel text    NOT NULL,
	sender  text    NOT NULL,
	seat    integer NOT NULL,
	name    text    NOT NULL,
	phrase  text,
	text    text,
	move    integer NOT NULL CHECK (move >= 0),
	at      bigint  NOT NULL,
	PRIMARY KEY (game_id, seq),
	CHECK ((phrase IS NULL) <> (text IS NULL))
);
CREATE TABLE chat_mutes (
	game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	muter   text NOT NULL,
	muted   text NOT NULL,
	PRIMARY KEY (game_id, muter, muted)
);

-- +goose Down
DROP TABLE chat_mutes;
DROP TABLE chat_lines;
