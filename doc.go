// Package razzia is the rules engine of Reiner Knizia's card game Razzia!:
// two to five players bid cheques in auctions for loot, and every police
// card brings the raid that ends the round a step closer. The engine is
// exact (each rule, R1 to R18 of docs/RULES.md, is named in its tests),
// pure (no I/O, no goroutines) and deterministic given a seed. The
// server, the bots, the arena and the terminal client are built on it.
//
// # Game and State
//
// There are two ways in. A [Game] is the checked API for callers: it names
// the players in its errors, checks every move, resolves chance from its
// seed, and keeps the moves (its record) and a log of events. Start one
// with [NewGame]; [Game.Play] plays a move, [Game.Check] tells whether a
// move is legal without playing it, and [Game.Len], [Game.ToMove],
// [Game.Over] and [Game.Winners] answer where the game stands.
// [Game.Events] and [Game.EventsSince] say what happened, for logs and
// narration.
//
// A [State] is the fast path for bots and simulations: a plain value that
// assignment clones, whose [State.LegalMoves] appends to a reused buffer
// and whose [State.Apply] allocates nothing. State expects legal moves;
// [State.Check] tells why one is not. [Game.State] returns a Game's state.
// Results come one entry per player ([State.Totals], [State.Scores]);
// [State.Total] answers one seat without allocating. [State.Stakes] says
// what the lot in the row is worth to each seat if the round ended now,
// exactly and by category, and [State.RaidRisk] how close the raid is.
//
// # Moves and tokens
//
// A [Move] is a small comparable value built by [Draw], [Thieves], [Call],
// [Bid] and [Pass]. Each has a record token, such as "draw police",
// "thief car driver" or "bid 9": [Move.String] writes it and [ParseMove]
// reads it. A draw that names no card, Draw(NoKind) or the token "draw",
// is the decision to draw before chance reveals the card: LegalMoves
// offers the draw that way, and a Game with a seed names the card. Cards
// are [Kind] values (Police, Ring, ...); cheques are their value in
// thousands, and a seat's cheques a [Cheques] bit set.
//
// # Views and secrecy
//
// [Game.View] is what one seat, or a spectator, may see: the public state
// and, for the seat to move, its legal moves. Razzia has one secret, the
// order of the undrawn cards, and a View never holds it: a State knows only
// how many cards of each kind are left. Bots choose from a View.
//
// # Records
//
// A [Record] is a game as a small JSON file (docs/RECORD.md): the players,
// the cheque sets and every move as a token, draws naming their cards, so
// that it replays exactly. [Game.Record] makes one, [Record.WriteTo] writes
// it, [ReadRecord] reads one and [Record.Game] replays it.
//
// # Chance and seeds
//
// A game's chance is its seed: [NewSetup] deals the cheque sets from the
// seed (R4) and keeps it in [Setup.Seed], from which the Game draws each
// card. The same seed and moves always give the same game, so a server
// that stores the seed and the moves can replay its games, and must keep
// the seed secret, since it is the order of the deck. [SeededRand] gives
// other uses of a seed, such as a bot's, streams of their own that reveal
// nothing of the deck. A State has no seed: its caller resolves draws, for
// example with [State.RandomCard].
//
// # Errors
//
// The errors wrap sentinels ([ErrNotHeld], [ErrBidTooLow], ...) for
// [errors.Is], inside typed errors for [errors.As]: a [*MoveError] for an
// illegal move, naming the seat and the player; a [*SyntaxError] for a
// token that is not a move; a [*RecordError] for a malformed record or an
// illegal move in one, with its index. Messages are written for players.
// An illegal move changes nothing.
//
// # Examples
//
// The examples run as tests: [NewGame] starts a game, [Game.PlayToken]
// plays tokens, [Game.Over] plays to the end, [Game.Check] and
// [Game.EventsSince] follow a game as a server does, [NewSetup] deals one
// from a seed, [State] plays at bot speed, [MoveError] and [Record.Game]
// show the errors, [Game.Record] writes a record, [ScoreRound] scores
// holdings that might be, and [State.Stakes] values the lot.
package razzia
