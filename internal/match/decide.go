package match

import (
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/store"
)

// Decide decides command c at now: the result to commit and apply, or a
// *Refusal. Nothing changes either way, but for the chat's rate limit,
// which a message takes when it is decided. The chat's commands are the
// live game's; the host answers them once the game is over.
func (m *Match) Decide(c Command, now time.Time) (Result, error) {
	switch c.Kind {
	case Join:
		return m.join(c)
	case Play:
		return m.playFor(c, now)
	case Remove:
		return m.remove(c.Hash, c.Seat)
	case EnterPreMove:
		return m.enterPreMove(c.Hash, c.Move, now)
	case TakeBack:
		seat := SeatOf(m.Seats, c.Hash)
		if seat < 0 {
			return Result{}, NoSeatRefusal()
		}
		return m.takeBack(seat, now)
	case Leave:
		return m.leave(SeatOf(m.Seats, c.Hash), now)
	case GiveUp:
		return m.giveUp(c.Hash, c.Seat)
	case Cancel:
		return m.cancel(c.Hash)
	case Continue:
		return m.continueRound(c.Hash)
	case SetLevel:
		return m.setLevel(c.Hash, c.Seat, c.Level)
	case Chat:
		return m.post(c, now)
	case Mute:
		return m.mute(c)
	case Expel:
		return m.expel(c.Account, now)
	case Strike:
		return m.strike(c.Seat)
	}
	return Result{}, unsupported(c.Kind)
}

// join seats the person c names; the game starts when it fills the last
// open seat.
func (m *Match) join(c Command) (Result, error) {
	if m.Status != store.StatusOpen {
		return Result{}, FullRefusal()
	}
	if err := m.admits(c.Account, c.Hash); err != nil {
		return Result{}, err
	}
	open := 0
	for _, s := range m.Seats {
		if s.Name == "" {
			open++
		}
	}
	seat := c.Seat
	switch {
	case seat >= len(m.Seats):
		return Result{}, refuse(ErrBadRequest, "there is no seat %d: the seats are 0 to %d", seat, len(m.Seats)-1)
	case seat < 0:
		seat = slices.IndexFunc(m.Seats, func(s store.Seat) bool { return s.Name == "" })
	case m.Seats[seat].Name != "":
		return Result{}, refuse(ErrSeatTaken, "seat %d is taken by %s", seat, m.Seats[seat].Name)
	}
	key := playername.Key(c.Name)
	for _, s := range m.Seats {
		if s.Name != "" && playername.Key(s.Name) == key {
			return Result{}, refuse(ErrNameTaken, "%s is already at this table: choose another name", s.Name)
		}
	}
	status := store.StatusOpen
	if open == 1 {
		status = store.StatusPlaying
	}
	taken := store.Seat{Name: c.Name, TokenHash: c.Hash, Account: c.Account}
	seats := slices.Clone(m.Seats)
	seats[seat] = taken
	r := Result{Seat: seat,
		Write: Write{Kind: TakeSeat, Seat: seat, Taken: taken, Status: status,
			Conflict: refuse(ErrSeatTaken, "seat %d was taken meanwhile", seat)},
		next: &change{seats: seats, status: status}}
	r.note("seat taken", "seat", seat)
	if status == store.StatusPlaying {
		// The cheques dealt at creation, as stored (see Replay).
		game, err := razzia.NewGame(razzia.Setup{Players: PlayerNames(seats), Cheques: m.Cheques, Seed: m.Seed})
		if err != nil {
			// The names were checked and the cheques dealt by the host: only a bug gets here.
			return Result{}, &Refusal{Kind: ErrInternal, Msg: "internal error: please try again", Err: err}
		}
		r.next.game = game
		r.StartGame, r.Clock = true, true
		r.note("game started")
	}
	r.Expiry, r.Broadcast, r.Bots = true, true, true
	r.Turn = &Turn{Moves: 0, Mover: -1}
	return r, nil
}

// admits reports why a person with account (or none), whose token hashes
// to hash, may not sit at the table: a guest at a rated table, or an
// account or token that holds a seat already.
func (m *Match) admits(account string, hash []byte) error {
	if m.Rated && account == "" {
		return refuse(ErrAccountRequired, "this table is rated: sign in to take a seat")
	}
	for i, s := range m.Seats {
		if account != "" && s.Account == account || SameHash(s.TokenHash, hash) {
			return refuse(ErrAlreadySeated, "you hold seat %d of this table already", i)
		}
	}
	return nil
}

// remove frees a person's seat of an open table, for its creator.
func (m *Match) remove(creator []byte, seat int) (Result, error) {
	if err := m.creatorSeat(creator, seat); err != nil {
		return Result{}, err
	}
	switch {
	case m.Seats[seat].Bot != "":
		return Result{}, refuse(ErrBadRequest, "seat %d is a bot's, not a person's", seat)
	case m.Seats[seat].Name == "":
		return Result{}, refuse(ErrBadRequest, "seat %d is open: nobody to remove", seat)
	}
	r := m.freeSeat(seat)
	r.note("player removed", "seat", seat, "name", m.Seats[seat].Name)
	return r, nil
}

// cancel closes the open table for its creator.
func (m *Match) cancel(creator []byte) (Result, error) {
	switch {
	case !SameHash(m.Creator, creator):
		return Result{}, NotCreatorRefusal()
	case m.Status != store.StatusOpen:
		return Result{}, StartedRefusal("it cannot be cancelled")
	}
	r := Result{Write: Write{Kind: CloseTable, Status: store.StatusCancelled, Conflict: changed()},
		next: &change{status: store.StatusCancelled}}
	r.Broadcast = true
	r.note("table cancelled")
	return r, nil
}

// Expire closes the table at now if it is still open and waited ttl
// since its last change; a table that changed since asks for its expiry
// again.
func (m *Match) Expire(now time.Time, ttl time.Duration) Result {
	switch {
	case m.Status != store.StatusOpen:
		return Result{}
	case now.Before(m.Updated.Add(ttl)):
		return Result{Effects: Effects{Expiry: true}}
	}
	r := Result{Write: Write{Kind: CloseTable, Status: store.StatusExpired}, next: &change{status: store.StatusExpired}}
	r.Broadcast = true
	r.note("table expired")
	return r
}

// playFor decides a player's move: given back their seat first if a bot
// stands in for them, timed out if it came at or after the deadline.
func (m *Match) playFor(c Command, now time.Time) (Result, error) {
	seat := SeatOf(m.Seats, c.Hash)
	if seat >= 0 && m.Timing.StandingIn(seat) && m.Status == store.StatusPlaying {
		// A move is coming back.
		r, err := m.takeBack(seat, now)
		r.Again = true
		return r, err
	}
	if err := m.seatPlaying(seat); err != nil {
		return Result{}, err
	}
	switch n := m.Game.Len(); {
	case c.Seq >= 0 && c.Seq != n:
		return Result{}, refuse(ErrStale, "the game has moved on: you saw move %d, it is at move %d", c.Seq, n)
	case m.Game.ToMove() != seat:
		return Result{}, refuse(ErrNotYourTurn, "it is %s's turn, not yours", m.Seats[m.Game.ToMove()].Name)
	}
	mv, err := ParseMove(c.Move)
	if err != nil {
		return Result{}, &Refusal{Kind: ErrIllegalMove, Msg: err.Error(), Err: err}
	}
	if at, ok := m.Timing.Clock.Deadline(); ok && m.Timing.Clock.Expired(now) {
		// Too late, however it raced the timer: the timeout is stored.
		late := refuse(ErrTimedOut, "your time ran out at %s: a bot plays for you until you take your seat back",
			at.UTC().Format("15:04:05 MST"))
		r := m.timeout(now)
		r.Then, r.Write.Failed, r.Write.Conflict = late, late, late
		return r, nil
	}
	return m.Move(mv, now)
}

// Closed decides command c at g, a table that is no longer live (its
// game is over, or it is an uploaded record): the refusal it gets. The
// chat's commands are the host's, who runs the chat after the game.
func Closed(c Command, g *store.Game) *Refusal {
	switch c.Kind {
	case Join:
		return FullRefusal()
	case Remove, Cancel, SetLevel:
		if !SameHash(g.CreatorHash, c.Hash) {
			return NotCreatorRefusal()
		}
		if c.Kind == Cancel {
			return StartedRefusal("it cannot be cancelled")
		}
		return StartedRefusal("its seats are fixed")
	case Play, EnterPreMove, TakeBack, Leave, Continue, GiveUp:
		if SeatOf(g.Seats, c.Hash) < 0 {
			return NoSeatRefusal()
		}
		return GameOverRefusal()
	case Expel:
		return GameOverRefusal()
	}
	return unsupported(c.Kind)
}
