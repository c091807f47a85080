package protocol

import "encoding/json"

// The bodies of the HTTP API's requests and answers.
type (
	// CreateRequest is the body of POST /api/games: one entry per seat.
	CreateRequest struct {
		Seats []SeatRequest `json:"seats"`
		// Rated makes a rated table: only signed-in players (and bots)
		// take its seats, and its result changes their ratings.
		Rated bool `json:"rated,omitempty"`
		// Pace is the id of a pace preset (GET /api/paces); empty for the
		// default: untimed at a casual table, standard at a rated one.
		Pace string `json:"pace,omitempty"`
		// Name, optional, is the name the creator joins under next: it is
		// checked before the table is made (bad_name, banned,
		// suspended), so that a join refused for it leaves no table.
		Name string `json:"name,omitempty"`
	}
	// PacesAnswer is the answer of GET /api/paces: the presets a table
	// can be created with, named and described in the request's language.
	PacesAnswer struct {
		Paces []PaceInfo `json:"paces"`
	}
	// A SeatRequest is one seat of a new table: Bot is "" for a seat open
	// to a person, or a server bot's level.
	SeatRequest struct {
		Bot string `json:"bot"`
	}
	// GameAnswer is the answer of POST /api/records.
	GameAnswer struct {
		Game GameInfo `json:"game"`
	}
	// CreateAnswer is the answer of POST /api/games: the table and its
	// creator's secret token, which proves the right to remove a player
	// or change a bot's level before the game starts (DELETE
	// /api/games/{id}/seats/{seat}, PUT /api/games/{id}/seats/{seat}/level).
	CreateAnswer struct {
		Game         GameInfo `json:"game"`
		CreatorToken string   `json:"creatorToken"`
	}
	// SeatAnswer is the answer of GET /api/games/{id}: You is the seat the
	// request's token holds, or -1; Creator is true when the request
	// carries the table's creator token.
	SeatAnswer struct {
		Game    GameInfo `json:"game"`
		You     int      `json:"you"`
		Creator bool     `json:"creator"`
	}
	// ListAnswer is the answer of GET /api/games.
	ListAnswer struct {
		Games []GameInfo `json:"games"`
	}
	// LevelRequest is the body of PUT /api/games/{id}/seats/{seat}/level:
	// the creator gives the bot of that seat another level (a name of GET
	// /api/levels) before the game starts.
	LevelRequest struct {
		Level string `json:"level"`
	}
	// JoinRequest is the body of POST /api/games/{id}/join; without Seat
	// the first open seat is taken. A signed-in player sits under their
	// account's name, whatever Name says.
	JoinRequest struct {
		Name string `json:"name"`
		Seat *int   `json:"seat,omitempty"`
	}
	// JoinAnswer is the answer of a join: the seat and its secret token.
	JoinAnswer struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	}
	// TutorialRequest is the body of POST /api/tutorial: the learner's name.
	TutorialRequest struct {
		Name string `json:"name"`
	}
	// TutorialAnswer is the answer of POST /api/tutorial: the guided first
	// game, already started, and the learner's seat and secret token.
	TutorialAnswer struct {
		Game  GameInfo `json:"game"`
		Seat  int      `json:"seat"`
		Token string   `json:"token"`
	}
	// ReplayAnswer is the answer of GET /api/games/{id}/replay: the
	// spectator's view of the start and one step per move (Replay).
	ReplayAnswer struct {
		Game  GameInfo `json:"game"`
		Start View     `json:"start"`
		Steps []Step   `json:"steps"`
		// Chat is the players' channel of the table's chat, each line
		// with the moves played when it was said (ChatLine.Move).
		Chat []ChatLine `json:"chat"`
	}
	// A Step is one move of a replay: its record token, the events it
	// caused, and the patch that turns the view before it into the view
	// after it (Patch; ReplayAnswer.Views applies them all).
	Step struct {
		Move   string          `json:"move"`
		Patch  json.RawMessage `json:"patch"`
		Events []Event         `json:"events"`
	}
)
