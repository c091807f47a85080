-- Moderation: the operators (and the mark that the first was made, so
-- that only a new server's first account becomes one by itself), the
-- reports people file about others, and the log of the operators'
-- actions, from which a person's standing is read. Reports and actions
-- keep names and name keys as they were: a ban outlives its account.
-- A chat line an operator removed keeps its text, marked removed.
-- Times are Unix nanoseconds (UTC).

-- +goose Up
CREATE TABLE operators (
	account_id TEXT    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
	granted    INTEGER NOT NULL
) STRICT;
CREATE TABLE operators_made (
	one INTEGER NOT NULL PRIMARY KEY CHECK (one = 1),
	at  INTEGER NOT NULL
) STRICT;
CREATE TABLE mod_reports (
	id            TEXT    NOT NULL PRIMARY KEY,
	reporter      TEXT    REFERENCES accounts (id) ON DELETE SET NULL,
	reporter_name TEXT    NOT NULL,
	target        TEXT    REFERENCES accounts (id) ON DELETE SET NULL,
	target_name   TEXT    NOT NULL,
	target_key    TEXT    NOT NULL,
	game_id       TEXT    NOT NULL,
	kind          TEXT    NOT NULL,
	reason        TEXT    NOT NULL,
	lines         TEXT    NOT NULL,
	at            INTEGER NOT NULL,
	closed        INTEGER,
	action_id     TEXT
) STRICT;
CREATE INDEX mod_reports_open ON mod_reports (closed, at);
CREATE INDEX mod_reports_by_reporter ON mod_reports (reporter, at);
CREATE TABLE mod_actions (
	id            TEXT    NOT NULL PRIMARY KEY,
	kind          TEXT    NOT NULL,
	target        TEXT    REFERENCES accounts (id) ON DELETE SET NULL,
	target_name   TEXT    NOT NULL,
	target_key    TEXT    NOT NULL,
	operator      TEXT    REFERENCES accounts (id) ON DELETE SET NULL,
	operator_name TEXT    NOT NULL,
	reason        TEXT    NOT NULL,
	game_id       TEXT    NOT NULL,
	line          INTEGER NOT NULL CHECK (line >= -1),
	until         INTEGER,
	at            INTEGER NOT NULL,
	report_id     TEXT
) STRICT;
CREATE INDEX mod_actions_by_target ON mod_actions (target_key, at);
CREATE INDEX mod_actions_sanctions ON mod_actions (kind, at);
ALTER TABLE chat_lines ADD COLUMN removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1));

-- +goose Down
ALTER TABLE chat_lines DROP COLUMN removed;
DROP TABLE mod_actions;
DROP TABLE mod_reports;
DROP TABLE operators_made;
DROP TABLE operators;
