-- People around the tables: the WebSockets connected to each
-- node (presence, one row each) and each node's liveness (presence_nodes:
-- a node whose beat expired is dead, its rows gone with it); when each
-- account and each seat was last seen; follows and blocks between
-- accounts; and how each account's games ended for it (finishes, its
-- finish rate). Times are Unix nanoseconds (UTC).

-- +goose Up
CREATE TABLE presence_nodes (
	node    text    NOT NULL PRIMARY KEY,
	expires bigint  NOT NULL
);
CREATE TABLE presence (
	node       text    NOT NULL,
	conn       bigint  NOT NULL CHECK (conn >= 0),
	person     text    NOT NULL,
	account_id text,
	name       text    NOT NULL,
	game_id    text    NOT NULL,
	seat       integer NOT NULL CHECK (seat >= -1),
	away       boolean NOT NULL,
	since      bigint  NOT NULL,
	PRIMARY KEY (node, conn)
);
CREATE TABLE last_seen (
	account_id text    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
	at         bigint  NOT NULL
);
CREATE TABLE seats_seen (
	game_id text    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	idx     integer NOT NULL CHECK (idx >= 0),
	at      bigint  NOT NULL,
	PRIMARY KEY (game_id, idx)
);
CREATE TABLE follows (
	follower text    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	followed text    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created  bigint  NOT NULL,
	PRIMARY KEY (follower, followed),
	CHECK (follower <> followed)
);
CREATE INDEX follows_by_followed ON follows (followed);
CREATE TABLE blocks (
	blocker text    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	blocked text    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created bigint  NOT NULL,
	PRIMARY KEY (blocker, blocked),
	CHECK (blocker <> blocked)
);
CREATE INDEX blocks_by_blocked ON blocks (blocked);
CREATE TABLE finishes (
	account_id text    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	game_id    text    NOT NULL,
	at         bigint  NOT NULL,
	left_game  boolean NOT NULL,
	PRIMARY KEY (account_id, game_id)
);
CREATE INDEX finishes_by_time ON finishes (account_id, at DESC);

-- +goose Down
DROP TABLE finishes;
DROP TABLE blocks;
DROP TABLE follows;
DROP TABLE seats_seen;
DROP TABLE last_seen;
DROP TABLE presence;
DROP TABLE presence_nodes;
