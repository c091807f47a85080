package director

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"io"
	"strings"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/rating"
	"github.com/razziagame/razzia/internal/store"
)

// A Person is who asks: a signed-in account and the name it shows; the
// zero Person is a guest.
type Person struct {
	Account string
	Name    string
}

// Create stores a new tournament that p organises, with the settings s,
// and returns it as its page shows it.
func (s *Service) Create(ctx context.Context, p Person, set protocol.TournamentSettings) (protocol.Tournament, error) {
	if p.Account == "" {
		return protocol.Tournament{}, ErrSignIn
	}
	now := s.opts.Now()
	set, err := normalise(set, now, s.opts.FinishRates != nil)
	if err != nil {
		return protocol.Tournament{}, err
	}
	if err := s.mayOrganise(ctx, p.Account); err != nil {
		return protocol.Tournament{}, err
	}
	var b [7 + 32]byte
	if _, err := io.ReadFull(s.opts.Rand, b[:]); err != nil {
		return protocol.Tournament{}, err
	}
	id := strings.ToLower(idEncoding.EncodeToString(b[:7]))[:protocol.IDLen]
	rec := &store.Tournament{ID: id, Name: set.Name, Format: set.Format, Organiser: p.Account, Status: store.TournamentWaiting,
		Seed: b[7:], Created: now, Updated: now}
	if set.Start != nil {
		rec.Starts = *set.Start
	}
	if set.Password != "" {
		rec.Private = passwordHash(id, set.Password)
		set.Password = ""
	}
	t := &tour{rec: rec, set: set}
	if err := t.encode(); err != nil {
		return protocol.Tournament{}, err
	}
	if err := s.st.CreateTournament(ctx, rec); err != nil {
		return protocol.Tournament{}, err
	}
	s.log.Info("tournament created", "tournament", id, "format", set.Format, "organiser", p.Account)
	s.take(ctx, id) // its director runs here, until this node stops
	s.announce(ctx, id)
	return s.view(ctx, t, p.Account), nil
}

// MaxOrganised bounds the tournaments one account organises at once
// (waiting or running), each a director the server runs.
const MaxOrganised = 10

// mayOrganise refuses an account that organises MaxOrganised
// tournaments already.
func (s *Service) mayOrganise(ctx context.Context, account string) error {
	live, err := s.st.ListTournaments(ctx, []store.TournamentStatus{store.TournamentWaiting, store.TournamentRunning}, 0)
	if err != nil {
		return err
	}
	n := 0
	for _, t := range live {
		if t.Organiser == account {
			n++
		}
	}
	if n >= MaxOrganised {
		return refuse(ErrTooMany, "%d at once", MaxOrganised)
	}
	return nil
}

// passwordHash is what a private tournament keeps of its password: a
// club's door code, salted with the tournament's id, not an account's
// secret.
func passwordHash(id, password string) []byte {
	sum := sha256.Sum256([]byte("razzia tournament password\x00" + id + "\x00" + password))
	return sum[:]
}

// errNothing is what an update's f returns when it has nothing to store.
var errNothing = errors.New("nothing to store")

// update applies f to the stored tournament id and stores the result and
// the players and tables f returns, in a compare-and-swap retried while
// others change it meanwhile. A refusal of f changes nothing, and so does
// errNothing, which is no error.
func (s *Service) update(ctx context.Context, id string, f func(t *tour) ([]store.TournamentPlayer, []store.TournamentTable, error)) (*tour, error) {
	if !protocol.ValidID(id) {
		return nil, ErrNotFound
	}
	for try := 0; try < 16; try++ {
		t, err := s.read(ctx, id)
		if err != nil {
			return nil, err
		}
		players, tables, err := f(t)
		if errors.Is(err, errNothing) {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		if err := t.encode(); err != nil {
			return nil, err
		}
		err = s.st.UpdateTournament(ctx, t.rec, players, tables)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		s.announce(ctx, id)
		return t, nil
	}
	return nil, ErrUnavailable
}

// change is update of the players f returns.
func (s *Service) change(ctx context.Context, id string, f func(t *tour) ([]store.TournamentPlayer, error)) (*tour, error) {
	return s.update(ctx, id, func(t *tour) ([]store.TournamentPlayer, []store.TournamentTable, error) {
		players, err := f(t)
		return players, nil, err
	})
}

// Join enters p in tournament id: before its start, or an arena's until
// its end; password is a private one's.
func (s *Service) Join(ctx context.Context, id string, p Person, password string) error {
	if p.Account == "" {
		return ErrSignIn
	}
	rating, finish, err := s.limitsOf(ctx, p.Account)
	if err != nil {
		return err
	}
	_, err = s.change(ctx, id, func(t *tour) ([]store.TournamentPlayer, error) {
		switch {
		case !t.rec.Status.Live():
			return nil, ErrOver
		case t.rec.Status == store.TournamentRunning && t.format() != "arena":
			return nil, refuse(ErrStarted, "only an arena takes players after its start")
		case t.rec.Status == store.TournamentRunning && (t.st.Ended || !s.opts.Now().Before(t.st.Ends)):
			return nil, ErrOver
		}
		if t.rec.Private != nil && subtle.ConstantTimeCompare(passwordHash(id, password), t.rec.Private) != 1 {
			return nil, ErrPassword
		}
		i := t.player(p.Account)
		if i >= 0 {
			switch t.rec.Players[i].Status {
			case protocol.PlayerRemoved:
				return nil, ErrRemoved
			case protocol.PlayerIn, protocol.PlayerPaused:
				return nil, ErrJoined
			}
		}
		if t.entered() >= t.set.MaxPlayers {
			return nil, refuse(ErrFull, "it takes %d players", t.set.MaxPlayers)
		}
		if t.set.MinRating > 0 && rating < t.set.MinRating || t.set.MaxRating > 0 && rating > t.set.MaxRating {
			return nil, refuse(ErrLimits, "your rating %d is outside %d to %d", rating, t.set.MinRating, t.set.MaxRating)
		}
		if t.set.MinFinishRate > 0 && finish < t.set.MinFinishRate {
			return nil, refuse(ErrLimits, "you finished %d%% of your games, and it takes %d%%", finish, t.set.MinFinishRate)
		}
		pl := store.TournamentPlayer{Account: p.Account, Name: p.Name, Rating: rating, Joined: s.opts.Now(), Status: protocol.PlayerIn}
		if i >= 0 {
			pl.Joined = t.rec.Players[i].Joined // a withdrawal undone keeps its place
			t.rec.Players[i] = pl
		} else {
			t.rec.Players = append(t.rec.Players, pl)
		}
		return []store.TournamentPlayer{pl}, nil
	})
	return err
}

// entered counts the players who are in or paused.
func (t *tour) entered() int {
	n := 0
	for _, p := range t.rec.Players {
		if p.Status == protocol.PlayerIn || p.Status == protocol.PlayerPaused {
			n++
		}
	}
	return n
}

// limitsOf returns the account's rating as shown and its finish rate in
// percent (100 when the server does not know it).
func (s *Service) limitsOf(ctx context.Context, account string) (int, int, error) {
	a, err := s.st.Account(ctx, account)
	if err != nil {
		if errors.Is(err, store.ErrNoAccount) {
			return 0, 0, ErrSignIn
		}
		return 0, 0, err
	}
	r := rating.Rating{Mu: a.Rating.Mu, Sigma: a.Rating.Sigma}.Display()
	finish := 100
	if f := s.opts.FinishRates; f != nil {
		rate, known, err := f.FinishRate(ctx, account)
		if err != nil {
			return 0, 0, err
		}
		if known {
			finish = rate
		}
	}
	return r, finish, nil
}

// Play is a player's action on their own part: ActionWithdraw,
// ActionPause or ActionResume.
func (s *Service) Play(ctx context.Context, id string, p Person, action string) error {
	if p.Account == "" {
		return ErrSignIn
	}
	_, err := s.change(ctx, id, func(t *tour) ([]store.TournamentPlayer, error) {
		if !t.rec.Status.Live() {
			return nil, ErrOver
		}
		i := t.player(p.Account)
		if i < 0 {
			return nil, ErrNotJoined
		}
		pl := &t.rec.Players[i]
		switch {
		case action == protocol.ActionWithdraw && (pl.Status == protocol.PlayerIn || pl.Status == protocol.PlayerPaused):
			pl.Status = protocol.PlayerWithdrawn
		case action == protocol.ActionPause && pl.Status == protocol.PlayerIn:
			pl.Status = protocol.PlayerPaused
		case action == protocol.ActionResume && pl.Status == protocol.PlayerPaused:
			pl.Status = protocol.PlayerIn
		case action == protocol.ActionPause && pl.Status == protocol.PlayerPaused,
			action == protocol.ActionResume && pl.Status == protocol.PlayerIn:
			// Said twice: nothing to do.
		case action == protocol.ActionWithdraw || action == protocol.ActionPause || action == protocol.ActionResume:
			return nil, ErrNotJoined
		default:
			return nil, ErrBadAction
		}
		return []store.TournamentPlayer{*pl}, nil
	})
	return err
}

// Organise is the organiser's action: ActionStart, ActionPause,
// ActionResume, ActionEnd, or ActionRemove of the player called name.
func (s *Service) Organise(ctx context.Context, id string, p Person, action, name string) error {
	if p.Account == "" {
		return ErrSignIn
	}
	_, err := s.change(ctx, id, func(t *tour) ([]store.TournamentPlayer, error) {
		if t.rec.Organiser != p.Account {
			return nil, ErrNotOrganiser
		}
		if !t.rec.Status.Live() {
			return nil, ErrOver
		}
		waiting := t.rec.Status == store.TournamentWaiting
		switch action {
		case protocol.ActionStart:
			if !waiting || t.st.StartAsked {
				return nil, ErrStarted
			}
			if n := len(t.active()); n < minPlayers(t.set) {
				return nil, refuse(ErrTooFew, "%d players, and it takes %d", n, minPlayers(t.set))
			}
			t.st.StartAsked = true
		case protocol.ActionPause, protocol.ActionResume:
			if waiting {
				return nil, refuse(ErrBadAction, "the tournament has not started: there is no round to hold")
			}
			t.st.Paused = action == protocol.ActionPause
		case protocol.ActionEnd:
			if waiting {
				t.rec.Status = store.TournamentCancelled
			} else {
				t.st.Ended = true
			}
		case protocol.ActionRemove:
			i := slicesIndexName(t.rec.Players, name)
			if i < 0 || t.rec.Players[i].Status == protocol.PlayerRemoved {
				return nil, refuse(ErrNotJoined, "nobody called %q plays in it", name)
			}
			t.rec.Players[i].Status = protocol.PlayerRemoved
			return []store.TournamentPlayer{t.rec.Players[i]}, nil
		default:
			return nil, ErrBadAction
		}
		return nil, nil
	})
	return err
}

func slicesIndexName(ps []store.TournamentPlayer, name string) int {
	for i, p := range ps {
		if p.Name == name {
			return i
		}
	}
	return -1
}
