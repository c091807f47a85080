-- Web Push (issue 12): the server's VAPID key pair (one row, made at
-- first start by whichever node comes first), the push subscriptions of
-- accounts (an endpoint is one browser's) and what each account wants
-- pushed. Times are Unix nanoseconds (bigint), as in the games table.

-- +goose Up
CREATE TABLE vapid_keys (
	one         integer NOT NULL PRIMARY KEY CHECK (one = 1),
	public_key  text NOT NULL,
	private_key text NOT NULL
);

CREATE TABLE push_subscriptions (
	endpoint   text NOT NULL PRIMARY KEY,
	account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	p256dh     text NOT NULL,
	auth       text NOT NULL,
	lang       text NOT NULL,
	created    bigint NOT NULL
);
CREATE INDEX push_subscriptions_by_account ON push_subscriptions (account_id, created);

CREATE TABLE push_settings (
	account_id text NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
	turn       boolean NOT NULL,
	game_over  boolean NOT NULL,
	reminder   boolean NOT NULL
);

-- +goose Down
DROP TABLE push_settings;
DROP TABLE push_subscriptions;
DROP TABLE vapid_keys;
