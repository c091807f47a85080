package protocol

import "time"

// The formats of a tournament (docs/tournaments.md).
const (
	FormatSwiss     = "swiss"
	FormatArena     = "arena"
	FormatDuplicate = "duplicate"
)

// What happens to a person absent when their tournament game starts
// (TournamentSettings.Absent).
const (
	// AbsentBot: a bot plays for them, and the game counts for them as
	// the clock rules count a player who timed out (last, equal with the
	// others a bot stood in for); they stay in the tournament.
	AbsentBot = "bot"
	// AbsentWithdraw: the same for that game, and they are paused: not
	// seated again until they come back (TournamentAction "resume").
	AbsentWithdraw = "withdraw"
)

// What a tournament does when too few people joined at its start
// (TournamentSettings.TooFew).
const (
	TooFewWait   = "wait"   // it waits for more, and starts as soon as there are enough
	TooFewCancel = "cancel" // it is cancelled
)

// TournamentSettings are what an organiser chooses, POST
// /api/tournaments. Zero fields take the defaults documented with each.
type TournamentSettings struct {
	Name   string `json:"name"`   // 1 to 60 characters, shown as given
	Format string `json:"format"` // FormatSwiss, FormatArena or FormatDuplicate
	// TableSize is the seats a table has, 2 to 5 (smaller tables when the
	// numbers require, or full ones with bots when Fill is set).
	TableSize int `json:"tableSize"`
	// Pace is a live pace preset's id (GET /api/paces): blitz, rapid,
	// standard or slow. Default rapid.
	Pace  string `json:"pace,omitempty"`
	Rated bool   `json:"rated"`
	// Start is when the tournament starts by itself; absent, it starts
	// when its organiser says (TournamentAction "start").
	Start *time.Time `json:"start,omitempty"`
	// Rounds is the number of rounds of a Swiss or duplicate tournament,
	// 1 to 20; Minutes an arena's length, 10 to 720.
	Rounds  int `json:"rounds,omitempty"`
	Minutes int `json:"minutes,omitempty"`
	// BreakSeconds is the wait between two rounds, 0 to 1800; default 60.
	BreakSeconds *int `json:"breakSeconds,omitempty"`
	// MinRating and MaxRating bound the rating (as shown, 1500 for a new
	// player) of who may join; 0 for no bound.
	MinRating int `json:"minRating,omitempty"`
	MaxRating int `json:"maxRating,omitempty"`
	// MinFinishRate is the least share of their games a person must have
	// finished, in percent (0 for no bound).
	MinFinishRate int `json:"minFinishRate,omitempty"`
	// MaxPlayers bounds the people who may join, 2 to 500; default 100.
	MaxPlayers int `json:"maxPlayers,omitempty"`
	// Password makes the tournament private: joining it needs the
	// password. Sent when creating only; never sent back.
	Password string `json:"password,omitempty"`
	// Fill seats bots where the numbers leave seats empty, so that every
	// table has TableSize seats. Bots are marked and never ranked.
	Fill bool `json:"fill"`
	// Absent is AbsentBot (default) or AbsentWithdraw.
	Absent string `json:"absent,omitempty"`
	// TooFew is TooFewWait (default) or TooFewCancel.
	TooFew string `json:"tooFew,omitempty"`
}

// The statuses of a tournament.
const (
	TournamentWaiting   = "waiting"
	TournamentRunning   = "running"
	TournamentFinished  = "finished"
	TournamentCancelled = "cancelled"
)

// The statuses of a tournament's player.
const (
	PlayerIn        = "in"        // plays
	PlayerPaused    = "paused"    // sits the next rounds out, until they resume
	PlayerWithdrawn = "withdrawn" // left
	PlayerRemoved   = "removed"   // removed by the organiser
)

// A TournamentSummary is one tournament of a list: GET /api/tournaments.
type TournamentSummary struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Format    string     `json:"format"`
	Status    string     `json:"status"`
	Organiser string     `json:"organiser"`
	Start     *time.Time `json:"start,omitempty"` // the start set, or when it started
	TableSize int        `json:"tableSize"`
	Pace      string     `json:"pace"`
	Rated     bool       `json:"rated"`
	Private   bool       `json:"private"`
	Rounds    int        `json:"rounds,omitempty"`
	Minutes   int        `json:"minutes,omitempty"`
	Round     int        `json:"round"` // the round being played, 0 before the first
	Players   int        `json:"players"`
	Max       int        `json:"maxPlayers"`
}

// TournamentList answers GET /api/tournaments: the tournaments coming
// and running, and the latest finished.
type TournamentList struct {
	Coming   []TournamentSummary `json:"coming"`
	Running  []TournamentSummary `json:"running"`
	Finished []TournamentSummary `json:"finished"`
}

// A Tournament is everything a tournament's page shows: GET
// /api/tournaments/{id}, and the "tournament" message of its WebSocket.
type Tournament struct {
	TournamentSummary
	// Version grows with every change: of two descriptions, the one of
	// the greater version is the newer.
	Version  int64              `json:"version"`
	Settings TournamentSettings `json:"settings"` // without the password
	// Started is when it started; Ends when an arena stops seating
	// tables; Next when the next round is seated (the countdown).
	Started *time.Time `json:"started,omitempty"`
	Ends    *time.Time `json:"ends,omitempty"`
	Next    *time.Time `json:"next,omitempty"`
	// Paused is set while the organiser holds the next round (or the
	// arena's next tables).
	Paused  bool               `json:"paused"`
	People  []TournamentPerson `json:"people"`
	Ranking []TournamentLine   `json:"standings"`
	// RoundsPlayed are the rounds seated so far, the latest last; an
	// arena's tables are one round, number 0.
	RoundsPlayed []TournamentRound `json:"played"`
	// You is the asker's part, when signed in; Organising tells the
	// organiser.
	You        *TournamentYou `json:"you,omitempty"`
	Organising bool           `json:"organising"`
}

// A TournamentPerson is someone who joined.
type TournamentPerson struct {
	Name   string `json:"name"`
	Rating int    `json:"rating"` // when they joined
	Status string `json:"status"` // PlayerIn, PlayerPaused, PlayerWithdrawn, PlayerRemoved
}

// A TournamentLine is one line of the standings. Points are a Swiss
// tournament's and an arena's; Percent a duplicate tournament's average
// matchpoints. Numbers carry at most two decimals.
type TournamentLine struct {
	Rank     int       `json:"rank"`
	Name     string    `json:"name"`
	Points   float64   `json:"points"`
	Percent  float64   `json:"percent,omitempty"`
	Buchholz float64   `json:"buchholz,omitempty"`
	Games    int       `json:"games"`
	Wins     int       `json:"wins"`
	Score    int       `json:"score"` // the sum of the final totals of their games
	Fire     bool      `json:"fire,omitempty"`
	Sheet    []float64 `json:"sheet"`
	Status   string    `json:"status"`
}

// A TournamentRound is one round's tables, and in a duplicate tournament,
// once the round is over, its deals.
type TournamentRound struct {
	Number int               `json:"number"`
	Tables []TournamentTable `json:"tables"`
	Deals  []TournamentDeal  `json:"deals,omitempty"`
}

// A TournamentTable is one table of a round: the game to watch
// (/game/{game}) once Ready (its game created), its players and, once
// over, their results.
type TournamentTable struct {
	Index int              `json:"index"`
	Game  string           `json:"game"`
	Deal  int              `json:"deal,omitempty"`
	Ready bool             `json:"ready"`
	Over  bool             `json:"over"`
	Seats []TournamentSeat `json:"seats"`
}

// A TournamentSeat is one seat of a tournament table.
type TournamentSeat struct {
	Name string `json:"name"`
	Bot  bool   `json:"bot,omitempty"`
	// Total, Points and Forfeited are set once the game is over: the
	// final total, the tournament points it earned (an arena's doubled
	// when on fire; a duplicate deal's matchpoints, 0 to 1) and whether a
	// bot stood in for the person.
	Total     *int     `json:"total,omitempty"`
	Points    *float64 `json:"points,omitempty"`
	Forfeited bool     `json:"forfeited,omitempty"`
}

// A TournamentDeal is a duplicate deal, revealed once its round is over:
// the cheques each seat was dealt and the cards in the order they came.
type TournamentDeal struct {
	Deal    int      `json:"deal"`
	Players int      `json:"players"`
	Cheques [][]int  `json:"cheques"`
	Cards   []string `json:"cards"`
}

// TournamentYou is the asker's part in a tournament.
type TournamentYou struct {
	Name   string `json:"name,omitempty"` // the name they play under
	Joined bool   `json:"joined"`
	Status string `json:"status,omitempty"`
	// Game is the table they play at now, "" when none.
	Game string `json:"game,omitempty"`
}

// A TournamentRequest is the body of POST /api/tournaments/{id}/join
// (Password, for a private one) and of POST
// /api/tournaments/{id}/organise/remove (Name, the player removed).
type TournamentRequest struct {
	Password string `json:"password,omitempty"`
	Name     string `json:"name,omitempty"`
}

// GameTournament answers GET /api/games/{id}/tournament: the tournament
// the game is a table of, absent when none (a page that asks of every
// game logs no refusal for the others).
type GameTournament struct {
	Tournament *TournamentSummary `json:"tournament,omitempty"`
}

// TournamentEntries answers GET /api/players/{name}/tournaments.
type TournamentEntries struct {
	Tournaments []TournamentEntry `json:"tournaments"`
}

// The actions of POST /api/tournaments/{id}/{action} (a player's) and
// POST /api/tournaments/{id}/organise/{action} (the organiser's).
const (
	ActionJoin     = "join"     // anyone signed in, before the start (an arena's: until its end)
	ActionWithdraw = "withdraw" // a player: leave
	ActionPause    = "pause"    // a player: sit the next rounds out; the organiser: hold the next round
	ActionResume   = "resume"   // undo pause
	ActionStart    = "start"    // the organiser: start now (once enough joined)
	ActionEnd      = "end"      // the organiser: no more rounds; the games under way finish (before the start: cancel)
	ActionRemove   = "remove"   // the organiser: remove the player named in the body
)

// TypeTournament is the message of a tournament's WebSocket, GET
// /api/tournaments/{id}/ws: the whole tournament, at every change.
const TypeTournament = "tournament"

// A TournamentMessage is the server's "tournament".
type TournamentMessage struct {
	Type       string     `json:"type"` // TypeTournament
	Tournament Tournament `json:"tournament"`
}

// A TournamentEntry is one tournament on a person's profile: GET
// /api/players/{name}/tournaments.
type TournamentEntry struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Format  string    `json:"format"`
	Status  string    `json:"status"`
	Start   time.Time `json:"start"`
	Rank    int       `json:"rank,omitempty"` // once finished
	Points  float64   `json:"points,omitempty"`
	Players int       `json:"players"`
}
