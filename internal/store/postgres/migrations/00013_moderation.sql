-- Moderation: the operators (and the mark that the first was made, so
-- that only a new server's first account becomes one by itself), the
-- reports people file about others, and the log of the operators'
-- actions, from which a person's standing is read. Reports and actions
-- keep names and name keys as they were: a ban outlives its account.
-- A chat line an operator removed keeps its text, marked removed.
-- Times are Unix nanoseconds (UTC).

-- +goose Up
CREATE TABLE operators (
	account_id text    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
	granted    bigint NOT NULL
);
CREATE TABLE operators_made (
	one bigint NOT NULL PRIMARY KEY CHECK (one = 1),
	at  bigint NOT NULL
);
CREATE TABLE mod_reports (
	id            text    NOT NULL PRIMARY KEY,
	reporter      text    REFERENCES accounts (id) ON DELETE SET NULL,
	reporter_name text    NOT NULL,
	target        text    REFERENCES accounts (id) ON DELETE SET NULL,
	target_name   text    NOT NULL,
	target_key    text    NOT NULL,
	game_id       text    NOT NULL,
	kind          text    NOT NULL,
	reason        text    NOT NULL,
	lines         text    NOT NULL,
	at            bigint NOT NULL,
	closed        bigint,
	action_id     text
);
CREATE INDEX mod_reports_open ON mod_reports (closed, at);
CREATE INDEX mod_reports_by_reporter ON mod_reports (reporter, at);
CREATE TABLE mod_actions (
	id            text    NOT NULL PRIMARY KEY,
	kind          text    NOT NULL,
	target        text    REFERENCES accounts (id) ON DELETE SET NULL,
	target_name   text    NOT NULL,
	target_key    text    NOT NULL,
	operator      text    REFERENCES accounts (id) ON DELETE SET NULL,
	operator_name text    NOT NULL,
	reason        text    NOT NULL,
	game_id       text    NOT NULL,
	line          bigint NOT NULL CHECK (line >= -1),
	until         bigint,
	at            bigint NOT NULL,
	report_id     text
);
CREATE INDEX mod_actions_by_target ON mod_actions (target_key, at);
CREATE INDEX mod_actions_sanctions ON mod_actions (kind, at);
ALTER TABLE chat_lines ADD COLUMN removed boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE chat_lines DROP COLUMN removed;
DROP TABLE mod_actions;
DROP TABLE mod_reports;
DROP TABLE operators_made;
DROP TABLE operators;
