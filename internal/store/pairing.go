package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"
)

// Pairing keeps the ways people meet at a table without an invitation
// link: Play-now requests (seeks), which internal/meet pairs into tables,
// and challenges from one signed-in person to others. Several nodes pair
// and answer at once: each change that more than one of them might make
// is one atomic step here, so that no request is paired twice, no person
// is seated by two pairings, and a challenge is answered once. Every
// Store implements it; storetest specifies it.
type Pairing interface {
	// AddSeek stores a new open request; ErrLimit when its person has max
	// open requests already (nothing stored), ErrConflict when its ID is
	// taken. A zero Created is set to now.
	AddSeek(ctx context.Context, s Seek, max int) error
	// Seek returns the request with the id, or ErrNotFound.
	Seek(ctx context.Context, id string) (Seek, error)
	// OpenSeeks returns every open request, oldest first.
	OpenSeeks(ctx context.Context) ([]Seek, error)
	// SeeksOf returns the person's requests, open or ended at or after
	// since, newest first.
	SeeksOf(ctx context.Context, person string, since time.Time) ([]Seek, error)
	// EndSeek ends the open request id with status (SeekCancelled or
	// SeekLapsed): ErrNotFound when there is none, or it is not person's
	// (person "" is anyone's); ErrConflict when it is not open any more.
	EndSeek(ctx context.Context, id, person string, status SeekStatus) error
	// EndSeeksOf ends every open request of the person with status, and
	// returns their ids.
	EndSeeksOf(ctx context.Context, person string, status SeekStatus) ([]string, error)
	// PairSeeks records, in one step, that the requests of seats sit at
	// game: each becomes SeekPaired with its seat (and a guest's token),
	// and every other open request of their people is cancelled, since a
	// person sits at one new table at a time. If any of them is not open
	// any more (paired by another node, cancelled, lapsed), nothing changes
	// and the error is ErrConflict.
	PairSeeks(ctx context.Context, game string, seats []SeekSeat) error

	// AddChallenge stores a new open challenge; ErrLimit when its
	// challenger has max open challenges already, ErrConflict when its ID
	// is taken, ErrNoAccount when the challenger or a challenged account
	// does not exist. A zero Created is set to now.
	AddChallenge(ctx context.Context, c Invitation, max int) error
	// Challenge returns the challenge with the id, or ErrNotFound.
	Challenge(ctx context.Context, id string) (Invitation, error)
	// ChallengesOf returns the challenges from or to the account that are
	// open or accepted, or ended at or after since, newest first.
	ChallengesOf(ctx context.Context, account string, since time.Time) ([]Invitation, error)
	// AnswerChallenge records the answer of a challenged account: a
	// decline ends the challenge (ChallengeDeclined), the last accept
	// makes it ChallengeAccepted. It returns the challenge afterwards. An
	// unknown challenge, or one that does not challenge the account, is
	// ErrNotFound; one that is not open, expired at now, or that the
	// account answered already, ErrConflict.
	AnswerChallenge(ctx context.Context, id, account string, a Answer, now time.Time) (Invitation, error)
	// CancelChallenge ends the open challenge id of challenger from with
	// status ChallengeCancelled: ErrNotFound if there is no such, ErrConflict
	// if it is not open.
	CancelChallenge(ctx context.Context, id, from string) error
	// SetChallengeGame records the table of an accepted challenge, once:
	// ErrConflict when it is not accepted or has its table already.
	SetChallengeGame(ctx context.Context, id, game string) error
	// LapseChallenges ends the open challenges that expired at now with
	// status ChallengeLapsed, and returns them as they are afterwards:
	// each is returned once, whichever node asks.
	LapseChallenges(ctx context.Context, now time.Time) ([]Invitation, error)
	// UnseatedChallenges returns the accepted challenges without a table
	// that changed last before before, oldest first: those whose seating
	// failed, or whose node died before it seated them.
	UnseatedChallenges(ctx context.Context, before time.Time) ([]Invitation, error)

	// PurgePairing removes the requests and challenges that ended before
	// before.
	PurgePairing(ctx context.Context, before time.Time) error
}

// ErrLimit is a new request or challenge of a person who has as many open
// as they may.
var ErrLimit = errors.New("too many open")

// SeekStatus is where a Play-now request is in its life.
type SeekStatus string

// The statuses of a request.
const (
	SeekOpen      SeekStatus = "open"
	SeekPaired    SeekStatus = "paired"    // seated at Game
	SeekCancelled SeekStatus = "cancelled" // by its person, or by their seat at another table
	SeekLapsed    SeekStatus = "lapsed"    // its person went offline
)

// A Seek is a Play-now request: what its person wants, and where they
// were seated.
type Seek struct {
	ID string
	// Person is who made it: "a:" and an account's id, or "g:" and a
	// guest's key; Account is the account's id ("" for a guest), Name the
	// name shown.
	Person, Account, Name string
	// Min and Max bound the players wanted, 2 to 5.
	Min, Max int
	Pace     string
	Rated    bool
	// Rating is the person's rating as shown when they made it; 0 none.
	Rating int
	// RatingMin and RatingMax bound the others' ratings; 0 is open.
	RatingMin, RatingMax int
	// Finish is the person's finish rate in percent when they made it,
	// negative for none; MinFinish the least the others may have.
	Finish, MinFinish int
	// BotsAfter is how long it waits before bots may fill the table; 0
	// never.
	BotsAfter time.Duration
	Status    SeekStatus
	// Game, Seat and Token say where a paired request sits: the table,
	// the seat (from 0) and, for a guest, the seat's secret token.
	Game  string
	Seat  int
	Token string
	// Created is when it was made; Updated when it last changed.
	Created, Updated time.Time
}

// A SeekSeat is a request seated by PairSeeks.
type SeekSeat struct {
	ID    string
	Seat  int
	Token string // a guest's seat token; "" for an account
}

// MaxSeekText bounds the bytes of a request's text fields.
const MaxSeekText = 256

// Check reports what makes s unfit to store as a new request.
func (s Seek) Check() error {
	switch {
	case s.ID == "" || s.Person == "":
		return errors.New("a request without an id or a person")
	case s.Status != SeekOpen:
		return fmt.Errorf("request %q: a new request is open, not %q", s.ID, s.Status)
	case s.Min < 2 || s.Max > 5 || s.Min > s.Max:
		return fmt.Errorf("request %q: %d to %d players", s.ID, s.Min, s.Max)
	case s.BotsAfter < 0 || s.Rating < 0 || s.RatingMin < 0 || s.RatingMax < 0 || s.MinFinish < 0:
		return fmt.Errorf("request %q: a negative bound", s.ID)
	}
	for _, f := range []string{s.ID, s.Person, s.Account, s.Name, s.Pace, s.Game, s.Token} {
		if len(f) > MaxSeekText || !utf8.ValidString(f) {
			return fmt.Errorf("request %q: a field over %d bytes or not UTF-8", s.ID, MaxSeekText)
		}
	}
	return nil
}

// CheckEnd reports whether status may end a request.
func CheckEnd(status SeekStatus) error {
	if status != SeekCancelled && status != SeekLapsed {
		return fmt.Errorf("a request is ended as cancelled or lapsed, not %q", status)
	}
	return nil
}

// CheckSeats reports what makes a PairSeeks unfit: no game, no seat, a
// request or a seat twice.
func CheckSeats(game string, seats []SeekSeat) error {
	if game == "" || len(seats) == 0 {
		return errors.New("a pairing without a game or a seat")
	}
	ids, nums := map[string]bool{}, map[int]bool{}
	for _, s := range seats {
		if s.ID == "" || ids[s.ID] || nums[s.Seat] || s.Seat < 0 {
			return fmt.Errorf("game %q: request %q or seat %d twice, empty or negative", game, s.ID, s.Seat)
		}
		ids[s.ID], nums[s.Seat] = true, true
	}
	return nil
}

// ChallengeStatus is where a challenge is in its life.
type ChallengeStatus string

// The statuses of a challenge.
const (
	ChallengeOpen      ChallengeStatus = "open"
	ChallengeAccepted  ChallengeStatus = "accepted" // everyone accepted; Game once seated
	ChallengeDeclined  ChallengeStatus = "declined"
	ChallengeLapsed    ChallengeStatus = "lapsed"
	ChallengeCancelled ChallengeStatus = "cancelled"
)

// Ended reports whether the challenge is over without a table.
func (s ChallengeStatus) Ended() bool {
	return s == ChallengeDeclined || s == ChallengeLapsed || s == ChallengeCancelled
}

// An Answer is what a challenged person said: accept, or decline with a
// reason (one of a short list, internal/meet's).
type Answer struct {
	Accept bool
	Reason string // a decline's
}

// A Challenged is one person challenged, and their answer so far.
type Challenged struct {
	Account, Name string
	// Answered is false until they answer; then Accept and Reason say how.
	Answered bool
	Answer
}

// An Invitation is a challenge: a signed-in person invites others to a
// table of their settings.
type Invitation struct {
	ID string
	// From and FromName are the challenger's account id and name.
	From, FromName string
	To             []Challenged // one or more, in seat order after the challenger
	Pace           string
	Rated          bool
	Status         ChallengeStatus
	Game           string // the table, once an accepted challenge has one
	// Created is when it was made, Expires when it lapses unanswered,
	// Updated when it last changed.
	Created, Expires, Updated time.Time
}

// Check reports what makes c unfit to store as a new challenge.
func (c Invitation) Check() error {
	switch {
	case c.ID == "" || c.From == "":
		return errors.New("a challenge without an id or a challenger")
	case c.Status != ChallengeOpen:
		return fmt.Errorf("challenge %q: a new challenge is open, not %q", c.ID, c.Status)
	case len(c.To) == 0 || len(c.To) > 4:
		return fmt.Errorf("challenge %q: %d people challenged, want 1 to 4", c.ID, len(c.To))
	case c.Expires.IsZero():
		return fmt.Errorf("challenge %q: no expiry", c.ID)
	}
	seen := []string{c.From}
	for _, t := range c.To {
		if t.Account == "" || slices.Contains(seen, t.Account) || t.Answered {
			return fmt.Errorf("challenge %q: %q challenged twice, answered already or empty", c.ID, t.Account)
		}
		seen = append(seen, t.Account)
	}
	for _, f := range []string{c.ID, c.From, c.FromName, c.Pace} {
		if len(f) > MaxSeekText || !utf8.ValidString(f) {
			return fmt.Errorf("challenge %q: a field over %d bytes or not UTF-8", c.ID, MaxSeekText)
		}
	}
	return nil
}

// Apply records a's answer of account to c as AnswerChallenge does, in
// memory: the stores that keep challenges as Go values share it, and the
// SQL stores state the same rule.
func (c *Invitation) Apply(account string, a Answer, now time.Time) error {
	i := slices.IndexFunc(c.To, func(t Challenged) bool { return t.Account == account })
	switch {
	case i < 0:
		return fmt.Errorf("challenge %q does not challenge %q: %w", c.ID, account, ErrNotFound)
	case c.Status != ChallengeOpen || !now.Before(c.Expires):
		return fmt.Errorf("challenge %q is %s: %w", c.ID, c.Status, ErrConflict)
	case c.To[i].Answered:
		return fmt.Errorf("challenge %q: %q answered already: %w", c.ID, account, ErrConflict)
	}
	c.To[i].Answered, c.To[i].Answer = true, a
	if !a.Accept {
		c.Status = ChallengeDeclined
		return nil
	}
	for _, t := range c.To {
		if !t.Answered {
			return nil
		}
	}
	c.Status = ChallengeAccepted
	return nil
}

// Clone returns a copy of c that shares nothing with it.
func (c Invitation) Clone() Invitation {
	c.To = slices.Clone(c.To)
	return c
}

// The tables of pairing, in the copy's catalogue.
func init() {
	Kinds = append(Kinds,
		&Kind{Table: "seeks", One: "Play-now request", Many: "Play-now requests", Key: 1, Columns: []Column{
			{"id", Text}, {"person", Text}, {"account_id", Text}, {"name", Text}, {"min_players", Int}, {"max_players", Int},
			{"pace", Text}, {"rated", Bool}, {"rating", Int}, {"rating_min", Int}, {"rating_max", Int},
			{"finish", Int}, {"min_finish", Int}, {"bots_after", Int}, {"status", Text},
			{"game_id", Text}, {"seat", Int}, {"token", Text}, {"created", Int}, {"updated", Int},
		}, Nullable: map[string]bool{"account_id": true}},
		&Kind{Table: "invitations", One: "challenge", Many: "challenges", Key: 1, Columns: []Column{
			{"id", Text}, {"from_account", Text}, {"from_name", Text}, {"pace", Text}, {"rated", Bool},
			{"status", Text}, {"game_id", Text}, {"created", Int}, {"expires", Int}, {"updated", Int},
		}},
		&Kind{Table: "invitees", One: "person challenged", Many: "people challenged", Key: 2, Columns: []Column{
			{"invitation_id", Text}, {"idx", Int}, {"account_id", Text}, {"name", Text},
			{"answered", Bool}, {"accept", Bool}, {"reason", Text},
		}},
	)
}
