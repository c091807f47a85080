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
)

// A CodeInfo says what a code means where it is sent.
type CodeInfo struct {
	Code   Code
	Status int    // the HTTP status of an answer with the code
	HTTP   string // when an HTTP request gets it; empty: never
	WS     string // when a WebSocket message gets it; empty: never
}

// codes is the one list of codes: docs/protocol.md's tables of errors are
// generated from it (internal/protocol's tests check they are current).
var codes = []CodeInfo{
	{NotFound, http.StatusNotFound, "no game with that id (or no such API path)", ""},
	{SeatTaken, http.StatusConflict, "the seat asked for is not open", ""},
	{TableFull, http.StatusConflict, "no open seat left", ""},
	{BadName, http.StatusBadRequest, "the name is empty, longer than 64 bytes, holds control, invalid, invisible or direction-changing characters, or looks like a server bot's (\"Bot 2 (hard)\")", ""},
	{NameTaken, http.StatusConflict, "someone at the table has that name already, or (registering) an account has it (compared without regard to case and Unicode compatibility forms: \"ANN\" is \"Ann\")", ""},
	{BadRequest, http.StatusBadRequest, "malformed JSON, wrong seats, unknown status, ...", ""},
	{BadRecord, http.StatusBadRequest, "an uploaded record is malformed or has an illegal move (`move`, `token`)", ""},
	{TooLarge, http.StatusRequestEntityTooLarge, "the body is too large (a record: over 1 MiB)",
		"the message is over 4 KiB; the connection is closed (status 1009)"},
	{NotStarted, http.StatusConflict, "the record, replay or hints of a game that is still open",
		"the game is still waiting for players"},
	{Forbidden, http.StatusForbidden, "a browser's cross-origin request (another site's page posting to this server)", ""},
	{RateLimited, http.StatusTooManyRequests, "too many requests from your address (creating tables, joining) or hints for your seat: wait `retryAfter` seconds (also the `Retry-After` header) and retry",
		"too many messages from this connection, or moves for your seat from all its connections; the message was dropped: resend it after `retryAfter` seconds"},
	{TooManyGames, http.StatusTooManyRequests, "creating a table: you have too many open tables, the server has, or too many games of bots only are running; wait for one to fill, end or expire", ""},
	{TooManyConnections, http.StatusTooManyRequests, "",
		"sent before the server closes a new connection (status 1013): too many WebSockets from your address, or too many spectators at this game"},
	{TableExpired, http.StatusGone, "the table waited too long for players (see `expires`) and was closed; it cannot be joined or watched", "the same, on connecting; the connection is closed"},
	{NotCreator, http.StatusForbidden, "removing a player or cancelling a table: the request does not carry the table's creator token", ""},
	{AlreadyStarted, http.StatusConflict, "removing a player from a game that has started, or cancelling it: its seats are fixed", ""},
	{TableCancelled, http.StatusGone, "its creator cancelled the table before it started; it cannot be joined or watched", "the same, on connecting; the connection is closed"},
	{TimedOut, http.StatusConflict, "", "the move came at or after the decision's deadline: a bot plays for the seat until the player takes it back (`takeback`, or a move)"},
	{GameInProgress, http.StatusConflict, "the analysis of a game that is still open or being played: it would be advice to its players; ask once the game is over; or a rematch of a game not over",
		"a rematch of a game not over"},
	{RematchRefused, http.StatusConflict, "a rematch offer at a game that had one already (one offer per game), an answer given twice, or an answer to no offer", "a `rematch` message refused for the same reasons"},
	{NotAnalysed, http.StatusConflict, "the analysis of a game the server does not analyse: an uploaded record (run `razzia analyze` on it) or a table that expired unplayed", ""},
	{RatedTable, http.StatusForbidden, "hints at a rated table: a rated game is played without the engine's help", ""},
	{WeakPassword, http.StatusBadRequest, "registering or changing a password: fewer than 8 characters, over 256 bytes, or one of the most common passwords", ""},
	{SignInFailed, http.StatusUnauthorized, "signing in: the name or the password is wrong (which one is never said), or changing a password: the current one is wrong", ""},
	{Unauthorized, http.StatusUnauthorized, "the request needs a signed-in session: none was sent, or it ended or expired", ""},
	{PasskeyFailed, http.StatusBadRequest, "a passkey ceremony failed: its challenge expired or was used, the credential is malformed, unknown or its signature wrong, or the page's origin is not the server's", ""},
	{AccountRequired, http.StatusForbidden, "joining a rated table as a guest: sign in first", ""},
	{AlreadySeated, http.StatusConflict, "joining a table where your account (or token) holds a seat already: one account, one seat", ""},
	{BadSubscription, http.StatusBadRequest, "a push subscription refused, nothing stored: its endpoint is not an https URL on a public host (or is over 2048 bytes), `keys.p256dh` is not a P-256 public key or `keys.auth` not 16 bytes, in base64url; the message names the field", ""},
	{ChatTooLong, http.StatusBadRequest, "", "a chat message is empty or too long (the message says how long it may be); nothing was sent"},
	{ChatTooFast, http.StatusTooManyRequests, "", "too many chat messages from you: resend after `retryAfter` seconds"},
	{ChatBadChar, http.StatusBadRequest, "", "a chat message holds a control, invisible or direction-changing character (a line break too), or is not UTF-8"},
	{ChatSignIn, http.StatusForbidden, "", "free text (or, for a spectator, any chat) needs a signed-in account; quick phrases are open to every player"},
	{ChatNotAllowed, http.StatusForbidden, "", "a chat message or mute the table does not take: an unknown quick phrase, muting yourself or a seat that is not a person's"},
	{ChatClosed, http.StatusConflict, "", "a chat message or mute after the game's chat closed, 24 hours after the game ended (or at an uploaded record, which has no chat); the message says when it ended"},
	{Internal, http.StatusInternalServerError, "the server failed; the message is generic and nothing changed",
		"the server could not store the move; nothing changed, try again"},
	{Unavailable, http.StatusServiceUnavailable, "the server is shutting down, or the game is moving to another server: retry after `retryAfter` seconds",
		"the move came while its game moved to another server; nothing changed: resend it, same `seq`, after `retryAfter` seconds"},
	{IllegalMove, http.StatusConflict, "", "not a legal move now (a malformed token or typed move, a cheque not held, a bid too low, `draw` naming a card, ...)"},
	{NotYourTurn, http.StatusConflict, "hints for your seat when it is not the one to move", "your seat is not the one to move"},
	{NotYourSeat, http.StatusConflict, "hints asked, or a rematch offered or answered, without the token of a seat at the table (a spectator)", "a spectator (no valid token) sent a move"},
	{Stale, http.StatusConflict, "", "`seq` is not the current `view.moves`: the game moved on"},
	{BadMessage, http.StatusBadRequest, "", "not a JSON object, an unknown `type`, a move without `seq`, or a malformed field (such as a negative `seq`)"},
	{GameOver, http.StatusConflict, "hints for a game that is over", "the game is over (or is an uploaded record)"},
}

// Codes returns every error code with its status and meaning.
func Codes() []CodeInfo { return append([]CodeInfo(nil), codes...) }

// Status returns the HTTP status of an answer with the code: 500 for a
// code this package does not know.
func (c Code) Status() int {
	for _, ci := range codes {
		if ci.Code == c {
			return ci.Status
		}
	}
	return http.StatusInternalServerError
}

// Temporary reports whether trying again later may succeed.
func (c Code) Temporary() bool {
	return c == RateLimited || c == ChatTooFast || c == Internal || c == Unavailable || c == TooManyGames || c == TooManyConnections
}

// Error is the error object of a failed HTTP request, the "error" of
// ErrorBody. Move and Token are set for BadRecord only, RetryAfter for
// RateLimited only.
type Error struct {
	Code       Code    `json:"code"`
	Message    string  `json:"message"`
	Move       *int    `json:"move,omitempty"`       // bad_record: the 1-based move, 0 for the file
	Token      *string `json:"token,omitempty"`      // bad_record: the move's token
	RetryAfter int     `json:"retryAfter,omitempty"` // rate_limited: whole seconds to wait before trying again
}

func (e *Error) Error() string { return e.Message }

// ErrorBody is the body of every failed HTTP request.
type ErrorBody struct {
	Error *Error `json:"error"`
}
