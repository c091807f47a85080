package protocol

import "net/http"

// A Code is an error code of the protocol. Clients program against codes;
// messages are for people. A Code is an error itself, so that
// errors.Is(err, protocol.Stale) tells a refusal by its code.
type Code string

func (c Code) Error() string { return string(c) }

// The error codes. Codes lists each with its HTTP status and meaning.
const (
	NotFound    Code = "not_found"
	SeatTaken   Code = "seat_taken"
	TableFull   Code = "table_full"
	BadName     Code = "bad_name"
	BadRequest  Code = "bad_request"
	BadRecord   Code = "bad_record"
	TooLarge    Code = "too_large"
	NotStarted  Code = "not_started"
	Forbidden   Code = "forbidden"
	RateLimited Code = "rate_limited"
	Internal    Code = "internal"
	Unavailable Code = "unavailable"
	Unsupported Code = "unsupported"
	IllegalMove Code = "illegal_move"
	NotYourTurn Code = "not_your_turn"
	NotYourSeat Code = "not_your_seat"
	Stale       Code = "stale"
	BadMessage  Code = "bad_message"
	GameOver    Code = "game_over"

	NameTaken          Code = "name_taken"
	TooManyGames       Code = "too_many_games"
	TooManyConnections Code = "too_many_connections"
	TableExpired       Code = "table_expired"
	NotCreator         Code = "not_creator"
	AlreadyStarted     Code = "already_started"
	TableCancelled     Code = "table_cancelled"
	TimedOut           Code = "timed_out"

	GameInProgress  Code = "game_in_progress"
	NotAnalysed     Code = "not_analysed"
	RatedTable      Code = "rated_table"
	WeakPassword    Code = "weak_password"
	SignInFailed    Code = "sign_in_failed"
	Unauthorized    Code = "unauthorized"
	PasskeyFailed   Code = "passkey_failed"
	AccountRequired Code = "account_required"
	AlreadySeated   Code = "already_seated"
	BadSubscription Code = "bad_subscription"

	ChatTooLong    Code = "chat_too_long"
	ChatTooFast    Code = "chat_too_fast"
	ChatBadChar    Code = "chat_bad_char"
	ChatSignIn     Code = "chat_sign_in"
	ChatNotAllowed Code = "chat_not_allowed"
	ChatClosed     Code = "chat_closed"

	RematchRefused Code = "rematch_refused"

	// Moderation: reports, operators' actions and their sanctions.
	NotOperator     Code = "not_operator"
	UnknownPlayer   Code = "unknown_player"
	BadReason       Code = "bad_reason"
	ReportSelf      Code = "report_self"
	NotAtGame       Code = "not_at_game"
	AlreadyReported Code = "already_reported"
	TooManyReports  Code = "too_many_reports"
	ReportClosed    Code = "report_closed"
	OperatorTarget  Code = "operator_target"
	ChatMuted       Code = "chat_muted"
	Suspended       Code = "suspended"
	Banned          Code = "banned"
	SeatRemoved     Code = "seat_removed"
	// Challenging a person an operator suspended or banned.
	PlayerUnavailable Code = "player_unavailable"

	// Tournaments.
	TournamentFull         Code = "tournament_full"
	TournamentStarted      Code = "tournament_started"
	TournamentPassword     Code = "tournament_password"
	TournamentJoined       Code = "tournament_joined"
	TournamentNotJoined    Code = "tournament_not_joined"
	TournamentLimits       Code = "tournament_limits"
	TournamentNotOrganiser Code = "tournament_not_organiser"
	TournamentTooFew       Code = "tournament_too_few"
	TournamentOver         Code = "tournament_over"
	TournamentBadSettings  Code = "tournament_settings"
	TournamentRemoved      Code = "tournament_removed"
	TournamentHidden       Code = "tournament_hidden"
	TournamentTooMany      Code = "tournament_too_many"
	TournamentRematch      Code = "tournament_rematch"

	// Play now and challenges.
	UnmetSettings     Code = "unmet_settings"
	ChallengeSelf     Code = "challenge_self"
	Blocked           Code = "blocked"
	TooManySeeks      Code = "too_many_seeks"
	TooManyChallenges Code = "too_many_challenges"
	ChallengeOver     Code = "challenge_over"
	SeekGone          Code = "seek_gone"
	SeekUnfit         Code = "seek_unfit"

	// People: follows, blocks, presence.
	SelfRelation     Code = "self_relation"
	TooManyRelations Code = "too_many_relations"

	// Puzzles.
	PuzzleNotFound Code = "puzzle_not_found"
	PuzzleAnswered Code = "puzzle_answered"
	BadAnswer      Code = "bad_answer"

	// The versions of the game's WebSocket protocol (live.go).
	UnsupportedVersion Code = "unsupported_version"
)

// A CodeInfo says what a code means where it is sent.
type CodeInfo struct {
	Code   Code
	Status int    // the HTTP status of an answer with the code
	Retry  bool   // the same request may succeed later, unchanged
	HTTP   string // when an HTTP request gets it; empty: never
	WS     string // when a WebSocket message gets it; empty: never
}

// codes is the one catalogue of codes: docs/protocol.md's tables of
// errors are generated from it, and the tests of internal/i18n check that
// every code has its text in each language.
var codes = []CodeInfo{
	{NotFound, http.StatusNotFound, false, "no game with that id (or no such API path)", ""},
	{SeatTaken, http.StatusConflict, false, "the seat asked for is not open", ""},
	{TableFull, http.StatusConflict, false, "no open seat left", ""},
	{BadName, http.StatusBadRequest, false, "the name is empty, longer than 64 bytes, holds control, invalid, invisible or direction-changing characters, or looks like a server bot's (\"Bot 2 (hard)\")", ""},
	{NameTaken, http.StatusConflict, false, "someone at the table has that name already, or (registering, or a guest asking to Play now) an account has it (compared without regard to case and Unicode compatibility forms: \"ANN\" is \"Ann\")", ""},
	{BadRequest, http.StatusBadRequest, false, "malformed JSON, wrong seats, unknown status, ...", ""},
	{BadRecord, http.StatusBadRequest, false, "an uploaded record is malformed or has an illegal move (`move`, `token`)", ""},
	{TooLarge, http.StatusRequestEntityTooLarge, false, "the body is too large (a record: over 1 MiB)",
		"the message is over 4 KiB; the connection is closed (status 1009); or a move or chat message too long to pass to the server that runs the game: nothing changed, the connection stays open"},
	{NotStarted, http.StatusConflict, false, "the record, replay or hints of a game that is still open",
		"the game is still waiting for players"},
	{Forbidden, http.StatusForbidden, false, "a browser's cross-origin request (another site's page posting to this server)", ""},
	{RateLimited, http.StatusTooManyRequests, true, "too many requests from your address (creating tables, joining) or hints for your seat: wait `retryAfter` seconds (also the `Retry-After` header) and retry",
		"too many messages from this connection, or moves for your seat from all its connections; the message was dropped: resend it after `retryAfter` seconds"},
	{TooManyGames, http.StatusTooManyRequests, true, "creating a table: you have too many open tables, the server has, or too many games of bots only are running; wait for one to fill, end or expire", ""},
	{TooManyConnections, http.StatusTooManyRequests, true, "",
		"sent before the server closes a new connection (status 1013): too many WebSockets from your address, or too many spectators at this game"},
	{TableExpired, http.StatusGone, false, "the table waited too long for players (see `expires`) and was closed; it cannot be joined or watched", "the same, on connecting; the connection is closed"},
	{NotCreator, http.StatusForbidden, false, "removing a player or cancelling a table: the request does not carry the table's creator token", ""},
	{AlreadyStarted, http.StatusConflict, false, "removing a player from a game that has started, or cancelling it: its seats are fixed", ""},
	{TableCancelled, http.StatusGone, false, "its creator cancelled the table before it started; it cannot be joined or watched", "the same, on connecting; the connection is closed"},
	{TimedOut, http.StatusConflict, false, "", "the move came at or after the decision's deadline: a bot plays for the seat until the player takes it back (`takeback`, or a move)"},
	{GameInProgress, http.StatusConflict, false, "the analysis of a game that is still open or being played: it would be advice to its players; ask once the game is over; or a rematch of a game not over",
		"a rematch of a game not over"},
	{RematchRefused, http.StatusConflict, false, "a rematch offer at a game that had one already (one offer per game), an answer given twice, or an answer to no offer", "a `rematch` message refused for the same reasons"},
	{NotAnalysed, http.StatusConflict, false, "the analysis of a game the server does not analyse: an uploaded record (run `razzia analyze` on it) or a table that expired unplayed", ""},
	{RatedTable, http.StatusForbidden, false, "hints at a rated table: a rated game is played without the engine's help", ""},
	{WeakPassword, http.StatusBadRequest, false, "registering or changing a password: fewer than 8 characters, over 256 bytes, or one of the most common passwords", ""},
	{SignInFailed, http.StatusUnauthorized, false, "signing in: the name or the password is wrong (which one is never said), or changing a password: the current one is wrong", ""},
	{Unauthorized, http.StatusUnauthorized, false, "the request needs a signed-in session: none was sent, or it ended or expired", ""},
	{PasskeyFailed, http.StatusBadRequest, false, "a passkey ceremony failed: its challenge expired or was used, the credential is malformed, unknown or its signature wrong, or the page's origin is not the server's", ""},
	{AccountRequired, http.StatusForbidden, false, "joining a rated table as a guest: sign in first", ""},
	{AlreadySeated, http.StatusConflict, false, "joining a table where your account (or token) holds a seat already: one account, one seat", ""},
	{BadSubscription, http.StatusBadRequest, false, "a push subscription refused, nothing stored: its endpoint is not an https URL on a public host (or is over 2048 bytes), `keys.p256dh` is not a P-256 public key or `keys.auth` not 16 bytes, in base64url; the message names the field", ""},
	{ChatTooLong, http.StatusBadRequest, false, "", "a chat message is empty or too long (the message says how long it may be); nothing was sent"},
	{ChatTooFast, http.StatusTooManyRequests, true, "", "too many chat messages from you: resend after `retryAfter` seconds"},
	{ChatBadChar, http.StatusBadRequest, false, "", "a chat message holds a control, invisible or direction-changing character (a line break too), or is not UTF-8"},
	{ChatSignIn, http.StatusForbidden, false, "", "free text (or, for a spectator, any chat) needs a signed-in account; quick phrases are open to every player"},
	{ChatNotAllowed, http.StatusForbidden, false, "", "a chat message or mute the table does not take: an unknown quick phrase, muting yourself or a seat that is not a person's"},
	{ChatClosed, http.StatusConflict, false, "", "a chat message or mute after the game's chat closed, 24 hours after the game ended (or at an uploaded record, which has no chat); the message says when it ended"},
	// Moderation.
	{NotOperator, http.StatusForbidden, false, "an operator's request (the reports, an action on a person or a chat line) from an account that is not an operator", ""},
	{UnknownPlayer, http.StatusNotFound, false, "a report or an operator's action naming a person who has no account", ""},
	{BadReason, http.StatusBadRequest, false, "a report or an operator's action without a reason, or with one over 500 characters or not UTF-8", ""},
	{ReportSelf, http.StatusBadRequest, false, "reporting yourself", ""},
	{NotAtGame, http.StatusBadRequest, false, "a report of a person at a game where they held no seat and wrote no chat line, or naming chat lines that are not theirs", ""},
	{AlreadyReported, http.StatusConflict, false, "a report of a person you reported at the same game already, and an operator has not looked at it yet", ""},
	{TooManyReports, http.StatusTooManyRequests, true, "too many reports from your account (10 an hour): wait `retryAfter` seconds", ""},
	{ReportClosed, http.StatusConflict, false, "an operator's action on a report that another operator closed meanwhile, or that is not there", ""},
	{OperatorTarget, http.StatusConflict, false, "an operator's sanction of an operator (themselves included): revoke the role first (`razzia admin revoke`)", ""},
	{ChatMuted, http.StatusForbidden, false, "", "a chat message from a person an operator muted, suspended or banned; the message says until when"},
	{Suspended, http.StatusForbidden, false, "creating or joining a table, a Play-now request or joining one, challenging or accepting a challenge, making or joining a tournament, or reporting while an operator suspended your account, or as a guest under its name meanwhile; the message says until when", ""},
	{Banned, http.StatusForbidden, false, "creating or joining a table, a Play-now request or joining one, challenging or accepting a challenge, making or joining a tournament, or reporting with an account an operator banned, or as a guest under its name", ""},
	{SeatRemoved, http.StatusForbidden, false, "", "a move or a take-back at a seat an operator handed to a bot (its player is suspended or banned): the bot plays it to the end"},
	{PlayerUnavailable, http.StatusConflict, false, "challenging a person an operator suspended or banned: they cannot play meanwhile (the message does not say why)", ""},
	// Play now and challenges.
	{UnmetSettings, http.StatusBadRequest, false, "a Play-now request or challenge whose settings no table can meet: a player count outside 2 to 5 (or a range upside down), an unknown pace, an untimed rated game, a rating range upside down, a finish rate over 100, a bot wait outside its bounds, too many people challenged for one table; the message names the setting", ""},
	{ChallengeSelf, http.StatusBadRequest, false, "challenging yourself, or joining your own Play-now request", ""},
	{Blocked, http.StatusForbidden, false, "challenging someone you blocked or who blocked you, or joining their Play-now request", ""},
	{TooManySeeks, http.StatusConflict, false, "a Play-now request while you have the most open requests a person may (3): cancel one or wait for it to be paired", ""},
	{TooManyChallenges, http.StatusConflict, false, "a challenge while you have the most open challenges a person may (5): cancel one or wait for the answers", ""},
	{ChallengeOver, http.StatusConflict, false, "answering or cancelling a challenge that was declined, cancelled, accepted or lapsed, or that you answered already", ""},
	{SeekGone, http.StatusGone, false, "joining or cancelling a Play-now request that was paired, cancelled or lapsed meanwhile", ""},
	{SeekUnfit, http.StatusConflict, false, "joining a Play-now request that does not accept you: your rating is outside its range, your finish rate under its minimum, or you are a guest at a rated request", ""},
	{SelfRelation, http.StatusBadRequest, false, "following or blocking yourself", ""},
	{TooManyRelations, http.StatusConflict, false, "following (or blocking) a player when you follow (or block) the most players one may (500): stop one first", ""},
	{PuzzleNotFound, http.StatusNotFound, false, "no puzzle with that id; or, asking for the next puzzle or the day's, none is left to solve (of the theme asked for)", ""},
	{PuzzleAnswered, http.StatusConflict, false, "an answer to a puzzle your account answered already: one answer a puzzle, the first counts", ""},
	{BadAnswer, http.StatusBadRequest, false, "a puzzle answer that is not a legal move of its position (malformed, a card named for a draw, a cheque not held, a bid too low)", ""},
	{Internal, http.StatusInternalServerError, true, "the server failed; the message is generic and nothing changed",
		"the server could not store the move; nothing changed, try again"},
	{Unavailable, http.StatusServiceUnavailable, true, "the server is shutting down, or the game is moving to another server: retry after `retryAfter` seconds",
		"the move came while its game moved to another server; nothing changed: resend it, same `seq`, after `retryAfter` seconds"},
	{Unsupported, http.StatusNotImplemented, true, "the server that runs the game is of another version and does not know the request (while servers are being updated); nothing changed: retry after `retryAfter` seconds (also the `Retry-After` header)",
		"the same, for a move, chat message or other write: resend it after `retryAfter` seconds"},
	{IllegalMove, http.StatusConflict, false, "", "not a legal move now (a malformed token or typed move, a cheque not held, a bid too low, `draw` naming a card, ...)"},
	{NotYourTurn, http.StatusConflict, false, "hints for your seat when it is not the one to move", "your seat is not the one to move"},
	{NotYourSeat, http.StatusConflict, false, "hints asked, or a rematch offered or answered, without the token of a seat at the table (a spectator)", "a spectator (no valid token) sent a move"},
	{Stale, http.StatusConflict, false, "", "`seq` is not the current `view.moves`: the game moved on"},
	{BadMessage, http.StatusBadRequest, false, "", "not a JSON object, an unknown `type`, a move without `seq`, or a malformed field (such as a negative `seq`)"},
	{GameOver, http.StatusConflict, false, "hints for a game that is over", "the game is over (or is an uploaded record)"},
	{UnsupportedVersion, http.StatusBadRequest, false, "connecting to a game's WebSocket with `protocol` naming no version the server speaks; the message names those it speaks", ""},
	// Tournaments.
	{TournamentFull, http.StatusConflict, false, "joining a tournament that has as many players as it takes", ""},
	{TournamentStarted, http.StatusConflict, false, "joining a Swiss or duplicate tournament that has started (only an arena takes late players), or starting one twice", ""},
	{TournamentPassword, http.StatusForbidden, false, "joining a private tournament without its password, or with a wrong one", ""},
	{TournamentJoined, http.StatusConflict, false, "joining a tournament you are in already", ""},
	{TournamentNotJoined, http.StatusConflict, false, "withdrawing, pausing or resuming in a tournament you are not playing in", ""},
	{TournamentLimits, http.StatusForbidden, false, "joining a tournament whose limits you are outside of: its rating bounds or its least finish rate (the message says which)", ""},
	{TournamentNotOrganiser, http.StatusForbidden, false, "starting, pausing, resuming or ending a tournament, or removing a player, when you are not its organiser", ""},
	{TournamentTooFew, http.StatusConflict, false, "starting a tournament that has too few players to seat its tables (a duplicate one needs a table's worth)", ""},
	{TournamentOver, http.StatusConflict, false, "an action on a tournament that is finished or cancelled", ""},
	{TournamentBadSettings, http.StatusBadRequest, false, "creating a tournament whose settings cannot make its tables (the message names the setting): an unknown format, a table size outside 2 to 5, rounds or minutes out of bounds, an untimed pace, a start in the past, ...", ""},
	{TournamentRemoved, http.StatusForbidden, false, "joining a tournament its organiser removed you from", ""},
	{TournamentHidden, http.StatusForbidden, false, "watching, or reading the record of, a duplicate tournament's table while its round is played: the others hold the same deal; it opens when the round is over",
		"the same, on connecting; the connection is closed"},
	{TournamentTooMany, http.StatusConflict, false, "organising a tournament while you organise as many as one account may at once (waiting or running): end one, or wait until one ends", ""},
	{TournamentRematch, http.StatusConflict, false, "offering or answering a rematch of a tournament's game: the tournament seats its players' next game", "a `rematch` message refused for the same reason"},
}

// Codes returns every error code with its status and meaning.
func Codes() []CodeInfo { return append([]CodeInfo(nil), codes...) }

// Status returns the HTTP status of an answer with the code: 500 for a
// code this package does not know.
func (c Code) Status() int {
	if ci, ok := lookup(c); ok {
		return ci.Status
	}
	return http.StatusInternalServerError
}

// Temporary reports whether trying again later may succeed.
func (c Code) Temporary() bool {
	ci, ok := lookup(c)
	return ok && ci.Retry
}

// Known reports whether c is one of Codes.
func (c Code) Known() bool {
	_, ok := lookup(c)
	return ok
}

func lookup(c Code) (CodeInfo, bool) {
	for _, ci := range codes {
		if ci.Code == c {
			return ci, true
		}
	}
	return CodeInfo{}, false
}

// Error is the error object of a failed HTTP request, the "error" of
// ErrorBody. Move and Token are set for BadRecord only, RetryAfter for a
// code to retry after a wait (RateLimited, Unavailable, Unsupported).
type Error struct {
	Code       Code    `json:"code"`
	Message    string  `json:"message"`
	Move       *int    `json:"move,omitempty"`       // bad_record: the 1-based move, 0 for the file
	Token      *string `json:"token,omitempty"`      // bad_record: the move's token
	RetryAfter int     `json:"retryAfter,omitempty"` // whole seconds to wait before trying again
}

func (e *Error) Error() string { return e.Message }

// ErrorBody is the body of every failed HTTP request.
type ErrorBody struct {
	Error *Error `json:"error"`
}
