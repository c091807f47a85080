package protocol

import (
	"encoding/json"
	"net/url"
	"time"
)

// The bodies of the account API's requests and answers (docs/protocol.md,
// "Accounts").
type (
	// RegisterRequest is the body of POST /api/account (register with a
	// password) and of POST /api/session (sign in with one).
	RegisterRequest struct {
		Name     string `json:"name"`
		Password string `json:"password"`
	}
	// SessionAnswer is the answer of a registration or sign-in: the
	// account, and the games whose guest seats the browser held that the
	// account now holds. Token is the session's secret, also set as the
	// HttpOnly cookie razzia_session; a client that keeps no cookies
	// sends it back in that cookie itself (Cookie: razzia_session=...).
	SessionAnswer struct {
		Account AccountInfo `json:"account"`
		Claimed []string    `json:"claimed"`
		Token   string      `json:"token"`
	}
	// WhoAnswer is the answer of GET /api/session: who is signed in,
	// asked by a page that shows a guest as well as an account.
	WhoAnswer struct {
		Accounts bool         `json:"accounts"` // the server has accounts
		Account  *AccountInfo `json:"account"`  // nil for a guest
	}
	// AccountAnswer is the answer of GET /api/account.
	AccountAnswer struct {
		Account AccountInfo `json:"account"`
	}
	// AccountInfo is what the signed-in player sees of their account.
	AccountInfo struct {
		Name     string        `json:"name"`
		Created  time.Time     `json:"created"`
		Rating   RatingInfo    `json:"rating"`
		Password bool          `json:"password"` // whether it signs in with a password
		Passkeys []PasskeyInfo `json:"passkeys"`
		Profile  string        `json:"profile"` // the profile page's path, /p/NAME
	}
	// A PasskeyInfo is one passkey of an account; ID is its credential id
	// in base64url.
	PasskeyInfo struct {
		ID      string     `json:"id"`
		Name    string     `json:"name"`
		Created time.Time  `json:"created"`
		Used    *time.Time `json:"used,omitempty"`
	}
	// PasswordRequest is the body of POST /api/account/password: Old is
	// required when the account has a password.
	PasswordRequest struct {
		Old string `json:"old"`
		New string `json:"new"`
	}
	// PasskeyBeginRequest is the body of POST /api/passkeys/register: the
	// name of the new account (empty to add a passkey to the signed-in
	// account).
	PasskeyBeginRequest struct {
		Name string `json:"name"`
	}
	// PasskeyBeginAnswer starts a passkey ceremony: Options is the
	// argument of navigator.credentials.create or .get (its "publicKey"
	// holds the challenge, base64url-encoded as the WebAuthn JSON forms
	// have it), Ceremony the secret to send back with the result.
	PasskeyBeginAnswer struct {
		Ceremony string          `json:"ceremony"`
		Options  json.RawMessage `json:"options"`
	}
	// PasskeyFinishRequest ends a ceremony: Credential is the
	// PublicKeyCredential's JSON (toJSON()), Label a name for a new
	// passkey.
	PasskeyFinishRequest struct {
		Ceremony   string          `json:"ceremony"`
		Credential json.RawMessage `json:"credential"`
		Label      string          `json:"label,omitempty"`
	}
	// RatingInfo is a rating as shown: Ordinal = Mu − 3 Sigma, the
	// conservative rating players are ranked by; Provisional until Games
	// reaches ProvisionalGames.
	RatingInfo struct {
		// Display is the rating on the scale players read
		// (rating.Rating.Display: 1500 for a new player, never below
		// 0); a page shows it, with "?" while Provisional.
		Display     int     `json:"display"`
		Ordinal     float64 `json:"ordinal"`
		Mu          float64 `json:"mu"`
		Sigma       float64 `json:"sigma"`
		Games       int     `json:"games"`
		Provisional bool    `json:"provisional"`
	}
	// ProfileAnswer is the answer of GET /api/players/{name}.
	ProfileAnswer struct {
		Profile Profile `json:"profile"`
	}
	// A Profile is a player's public record.
	Profile struct {
		Name    string     `json:"name"`
		Created time.Time  `json:"created"`
		Rating  RatingInfo `json:"rating"`
		// History is the rating after each rated game, oldest first.
		History []RatingPoint `json:"history"`
		// ByPlayers counts the games played and won at each table size.
		ByPlayers []PlayerCount `json:"byPlayers"`
		// Categories compares the player's mean final points in each
		// scoring category with their opponents' in the same games.
		Categories []CategoryMean `json:"categories"`
		// Bots is the record against each bot level met.
		Bots []BotRecord `json:"bots"`
		// Recent are the latest games, newest first.
		Recent []PlayedGame `json:"recent"`
		// ProvisionalGames is how many rated games end the provisional
		// period.
		ProvisionalGames int `json:"provisionalGames"`
		// Games counts the player's finished games of each kind, all of
		// them, whatever Only says.
		Games GameCounts `json:"games"`
		// Only is the kind of games ByPlayers, Categories, Bots and Recent
		// are made of: "rated" or "casual" (GET ...?games=), or "" for all.
		Only string `json:"only,omitempty"`
	}
	// GameCounts are a player's finished games: rated (their rating
	// changed) and casual.
	GameCounts struct {
		Rated  int `json:"rated"`
		Casual int `json:"casual"`
	}
	// A RatingPoint is the rating after one rated game.
	RatingPoint struct {
		Game    string    `json:"game"`
		At      time.Time `json:"at"`
		Ordinal float64   `json:"ordinal"`
		Mu      float64   `json:"mu"`
		Sigma   float64   `json:"sigma"`
	}
	// A PlayerCount is the games played and won (a shared win counts) at
	// tables of Players seats.
	PlayerCount struct {
		Players int `json:"players"`
		Played  int `json:"played"`
		Won     int `json:"won"`
	}
	// A CategoryMean is the mean final points in one scoring category.
	CategoryMean struct {
		Category  string  `json:"category"`
		Mine      float64 `json:"mine"`
		Opponents float64 `json:"opponents"`
	}
	// A BotRecord is how the player did against one bot level: a win is
	// finishing ahead of the bot, a draw the same place.
	BotRecord struct {
		Level  string     `json:"level"`
		Rating RatingInfo `json:"rating"`
		Games  int        `json:"games"`
		Wins   int        `json:"wins"`
		Draws  int        `json:"draws"`
		Losses int        `json:"losses"`
	}
	// A PlayedGame is one finished game of a player.
	PlayedGame struct {
		Game    string       `json:"game"`
		At      time.Time    `json:"at"`
		Rated   bool         `json:"rated"`
		Rank    int          `json:"rank"`
		Score   int          `json:"score"`
		Seat    int          `json:"seat"`
		Seats   []ResultSeat `json:"seats"`
		Replay  string       `json:"replay"` // the replay page's path
		Players int          `json:"players"`
		// Change is the change of the conservative rating (rated games).
		Change *float64 `json:"change,omitempty"`
		// DisplayChange is the same change on the display scale
		// (RatingInfo.Display): what a player reads, "+12".
		DisplayChange *int `json:"displayChange,omitempty"`
	}
	// A ResultSeat is one seat of a PlayedGame.
	ResultSeat struct {
		Name  string `json:"name"`
		Bot   string `json:"bot,omitempty"`
		Rank  int    `json:"rank"`
		Score int    `json:"score"`
	}
	// PlayerGamesAnswer is the answer of GET /api/players/{name}/games.
	PlayerGamesAnswer struct {
		Games []PlayedGame `json:"games"`
	}
	// LeaderboardAnswer is the answer of GET /api/leaderboard: the players
	// with at least MinGames rated games, best first.
	LeaderboardAnswer struct {
		MinGames int           `json:"minGames"`
		Players  []LeaderEntry `json:"players"`
		Bots     []BotRecord   `json:"bots"` // the bot levels' fixed ratings, for scale
	}
	// A LeaderEntry is one line of the leaderboard.
	LeaderEntry struct {
		Rank    int        `json:"rank"`
		Name    string     `json:"name"`
		Rating  RatingInfo `json:"rating"`
		Profile string     `json:"profile"`
	}
	// MyGamesAnswer is the answer of GET /api/account/games: the signed-in
	// player's games, those where it is their turn first, then the other
	// live ones, then the finished ones, most recent first.
	MyGamesAnswer struct {
		Games []MyGame `json:"games"`
	}
	// A MyGame is one game of the signed-in player.
	MyGame struct {
		Game     GameInfo `json:"game"`
		Seat     int      `json:"seat"`
		YourTurn bool     `json:"yourTurn"`
	}
)

// ProfilePath returns the path of a player's profile page: /p/ and the
// name, escaped as a path segment.
func ProfilePath(name string) string { return "/p/" + url.PathEscape(name) }

// ReplayPath returns the path of a game's replay page, /g/<id>/replay.
func ReplayPath(id string) string { return InvitePath(id) + "/replay" }
