-- Web Push (issue 12): the server's VAPID key pair (one row, made at
-- first start), the push subscriptions of accounts (an endpoint is one
-- browser's) and what each account wants pushed. Times are Unix
-- nanoseconds.

-- +goose Up
CREATE TABLE vapid_keys (
	one         INTEGER NOT NULL PRIMARY KEY CHECK (one = 1),
	public_key  TEXT    NOT NULL,
	private_key TEXT    NOT NULL
) STRICT;

CREATE TABLE push_subscriptions (
	endpoint   TEXT    NOT NULL PRIMARY KEY,
	account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	p256dh     TEXT    NOT NULL,
	auth       TEXT    NOT NULL,
	lang       TEXT    NOT NULL,
	created    INTEGER NOT NULL
) STRICT;
CREATE INDEX push_subscriptions_by_account ON push_subscriptions (account_id, created);

CREATE TABLE push_settings (
	account_id TEXT    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
	turn       INTEGER NOT NULL CHECK (turn IN (0, 1)),
	game_over  INTEGER NOT NULL CHECK (game_over IN (0, 1)),
	reminder   INTEGER NOT NULL CHECK (reminder IN (0, 1))
) STRICT;

-- +goose Down
DROP TABLE push_settings;
DROP TABLE push_subscriptions;
DROP TABLE vapid_keys;
