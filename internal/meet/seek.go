package meet

import (
	"context"
	crand "crypto/rand"
	"errors"
	mrand "math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/pairing"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
)

// Bounds of a request's wait for bots.
const (
	MinBotsAfter = 5 * time.Second
	MaxBotsAfter = 10 * time.Minute
)

// Settings are what a person asks of a table in a Play-now request.
type Settings struct {
	Min, Max             int // players, the person and bots included
	Pace                 string
	Rated                bool
	RatingMin, RatingMax int // the others' ratings; 0 is open
	MinFinish            int // the others' least finish rate, percent
	BotsAfter            time.Duration
}

// SettingsOf reads the settings of a request on the wire.
func SettingsOf(r protocol.SeekRequest) Settings {
	max := r.Max
	if max == 0 {
		max = r.Min
	}
	return Settings{Min: r.Min, Max: max, Pace: r.Pace, Rated: r.Rated, RatingMin: r.RatingMin, RatingMax: r.RatingMax,
		MinFinish: r.MinFinish, BotsAfter: time.Duration(r.BotsAfter) * time.Second}
}

// check reports what makes set unfit for p's request, and the pace it
// means.
func check(p Person, set Settings) (pace.Pace, error) {
	switch {
	case set.Min < pairing.MinPlayers || set.Max > pairing.MaxPlayers || set.Min > set.Max:
		return pace.Pace{}, reject(ErrUnmet, "a table has %d to %d players: %d to %d cannot be met", pairing.MinPlayers, pairing.MaxPlayers, set.Min, set.Max)
	case set.RatingMin < 0 || set.RatingMax < 0:
		return pace.Pace{}, reject(ErrUnmet, "a rating bound is 0 (open) or more, not %d", min(set.RatingMin, set.RatingMax))
	case set.RatingMax > 0 && set.RatingMin > set.RatingMax:
		return pace.Pace{}, reject(ErrUnmet, "the rating range %d to %d is empty", set.RatingMin, set.RatingMax)
	case set.MinFinish < 0 || set.MinFinish > 100:
		return pace.Pace{}, reject(ErrUnmet, "a finish rate is 0 to 100 percent, not %d", set.MinFinish)
	case set.BotsAfter != 0 && (set.BotsAfter < MinBotsAfter || set.BotsAfter > MaxBotsAfter):
		return pace.Pace{}, reject(ErrUnmet, "bots fill a table after %v to %v, not %v", MinBotsAfter, MaxBotsAfter, set.BotsAfter)
	case set.Rated && p.Account == "":
		return pace.Pace{}, reject(ErrAccountRequired, "rated games are for signed-in players: sign in first")
	}
	pc, err := pace.Choose(set.Pace, set.Rated)
	if err != nil {
		return pace.Pace{}, &Error{Kind: ErrUnmet, Msg: err.Error(), Err: err}
	}
	if p.Account == "" {
		if err := playername.Check(p.Name); err != nil {
			return pace.Pace{}, &Error{Kind: ErrBadName, Msg: err.Error(), Err: err}
		}
	}
	return pc, nil
}

// nameFree refuses a guest the name of an account: the lobby lists the
// requests by their names, where nobody may pass for a registered
// player.
func (s *Service) nameFree(ctx context.Context, p Person) error {
	if p.Account != "" || s.opts.Account == nil {
		return nil
	}
	switch _, err := s.opts.Account(ctx, p.Name); {
	case errors.Is(err, store.ErrNoAccount):
		return nil
	case err != nil:
		return s.failed("find an account", err)
	}
	return reject(ErrNameTaken, "%s is a registered player's name: sign in, or choose another", p.Name)
}

// newID returns a new random id for a request or a challenge.
func newID() string { return strings.ToLower(crand.Text()[:12]) }

// Seek makes a Play-now request of p and pairs at once: the answer is
// the request as it is then (paired already, if a table was waiting).
func (s *Service) Seek(ctx context.Context, p Person, set Settings) (protocol.SeekInfo, error) {
	pc, err := check(p, set)
	if err != nil {
		return protocol.SeekInfo{}, err
	}
	if err := s.nameFree(ctx, p); err != nil {
		return protocol.SeekInfo{}, err
	}
	k := store.Seek{ID: newID(), Person: p.Key, Account: p.Account, Name: p.Name, Min: set.Min, Max: set.Max,
		Pace: pc.ID, Rated: set.Rated, Rating: p.Rating, RatingMin: set.RatingMin, RatingMax: set.RatingMax,
		Finish: s.finish(ctx, p), MinFinish: set.MinFinish, BotsAfter: set.BotsAfter, Status: store.SeekOpen,
		Created: s.opts.Now()}
	return s.add(ctx, k, false)
}

// add stores the request, pairs and answers it as it is then. A request
// whose table could not be seated waits for the next pairing, but a
// click on another's request (join) has its answer at once: seated, or
// refused with nothing of the click left open.
func (s *Service) add(ctx context.Context, k store.Seek, join bool) (protocol.SeekInfo, error) {
	switch err := s.st.AddSeek(ctx, k, s.opts.MaxSeeks); {
	case errors.Is(err, store.ErrLimit):
		return protocol.SeekInfo{}, reject(ErrTooManySeeks, "you have %d open requests, the most a person may: cancel one first", s.opts.MaxSeeks)
	case err != nil:
		return protocol.SeekInfo{}, s.failed("store a request", err)
	}
	s.tellSeek(ctx, k.ID)
	// A pairing, once begun, is not cut short by the asker leaving: its
	// table would be left half seated.
	ctx = context.WithoutCancel(ctx)
	err := s.pairSeek(ctx, k.ID)
	if err != nil && join {
		err = s.pairSeek(ctx, k.ID) // a failure may pass: once more
	}
	if err != nil {
		s.log.Warn("meet: pairing", "seek", k.ID, "err", err)
		if join {
			if err := s.withdraw(ctx, k, err); err != nil {
				return protocol.SeekInfo{}, err
			}
		}
	}
	if got, err := s.st.Seek(ctx, k.ID); err == nil {
		k = got
	}
	return s.info(k, k.Person), nil
}

// pairSeek runs one pairing, as Pair, and returns why the table of
// request id could not be seated, if it was paired at one.
func (s *Service) pairSeek(ctx context.Context, id string) error {
	s.pairing.Lock()
	defer s.pairing.Unlock()
	open, err := s.st.OpenSeeks(ctx)
	if err != nil {
		return err
	}
	return s.pair(ctx, open)[id]
}

// withdraw ends request k, which could not be seated for cause, and
// returns the refusal that says so; nil when it was paired meanwhile
// (by another node), which is the answer then.
func (s *Service) withdraw(ctx context.Context, k store.Seek, cause error) error {
	switch err := s.st.EndSeek(ctx, k.ID, k.Person, store.SeekCancelled); {
	case errors.Is(err, store.ErrConflict):
		return nil
	case err != nil:
		return s.failed("withdraw a request not seated", errors.Join(cause, err))
	}
	s.tellSeek(ctx, k.ID)
	s.log.Error("meet: a request not seated, withdrawn", "seek", k.ID, "err", cause)
	return &Error{Kind: ErrInternal, Msg: "the server could not seat you at that table: please try again", Err: cause}
}

// finish returns p's finish rate, or -1 for none.
func (s *Service) finish(ctx context.Context, p Person) int {
	if p.Account == "" || s.opts.FinishRate == nil {
		return -1
	}
	r, ok, err := s.opts.FinishRate(ctx, p.Account)
	if err != nil {
		s.log.Warn("meet: finish rate", "account", p.Account, "err", err)
	}
	if err != nil || !ok {
		return -1
	}
	return r
}

// JoinSeek answers another's open request with one click: it makes a
// request of p with the same players, pace and kind, which the pairing
// seats with it (and with anyone else it waits for). A request that does
// not accept p is ErrSeekUnfit, one that is over ErrSeekGone.
func (s *Service) JoinSeek(ctx context.Context, p Person, id string) (protocol.SeekInfo, error) {
	target, err := s.st.Seek(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return protocol.SeekInfo{}, reject(ErrSeekGone, "there is no request %q (any more)", id)
	case err != nil:
		return protocol.SeekInfo{}, s.failed("read a request", err)
	case target.Status != store.SeekOpen:
		return protocol.SeekInfo{}, reject(ErrSeekGone, "the request of %s was %s meanwhile", target.Name, target.Status)
	case target.Person == p.Key:
		return protocol.SeekInfo{}, reject(ErrSelf, "this is your own request: it waits for others")
	}
	set := Settings{Min: target.Min, Max: target.Max, Pace: target.Pace, Rated: target.Rated}
	if _, err := check(p, set); err != nil {
		if errors.Is(err, ErrAccountRequired) {
			return protocol.SeekInfo{}, reject(ErrSeekUnfit, "%s asks for a rated game: sign in to join it", target.Name)
		}
		return protocol.SeekInfo{}, err
	}
	if err := s.nameFree(ctx, p); err != nil {
		return protocol.SeekInfo{}, err
	}
	if blocked, err := s.blockedEither(ctx, p.Account, target.Account); err != nil {
		return protocol.SeekInfo{}, s.failed("read the blocks", err)
	} else if blocked {
		return protocol.SeekInfo{}, reject(ErrBlocked, "you cannot play with %s", target.Name)
	}
	k := store.Seek{ID: newID(), Person: p.Key, Account: p.Account, Name: p.Name, Min: target.Min, Max: target.Max,
		Pace: target.Pace, Rated: target.Rated, Rating: p.Rating, Finish: s.finish(ctx, p), Status: store.SeekOpen,
		Created: s.opts.Now()}
	if playername.Key(k.Name) == playername.Key(target.Name) {
		// A table seats a name once: pairing would never seat them together.
		return protocol.SeekInfo{}, reject(ErrNameTaken, "%s waits under that name already: choose another", target.Name)
	}
	if !pairing.Compatible(request(target), request(k), nil) {
		return protocol.SeekInfo{}, reject(ErrSeekUnfit, "%s's request asks for a rating of %s and a finish rate of %d%% or more",
			target.Name, ratingRange(target.RatingMin, target.RatingMax), target.MinFinish)
	}
	return s.add(ctx, k, true)
}

// ratingRange says a rating range for a message.
func ratingRange(lo, hi int) string {
	switch {
	case lo > 0 && hi > 0:
		return strconv.Itoa(lo) + " to " + strconv.Itoa(hi)
	case lo > 0:
		return strconv.Itoa(lo) + " or more"
	case hi > 0:
		return strconv.Itoa(hi) + " or less"
	}
	return "any"
}

// CancelSeek ends p's open request id, and returns it.
func (s *Service) CancelSeek(ctx context.Context, p Person, id string) (protocol.SeekInfo, error) {
	switch err := s.st.EndSeek(ctx, id, p.Key, store.SeekCancelled); {
	case errors.Is(err, store.ErrNotFound):
		return protocol.SeekInfo{}, reject(ErrNotFound, "you have no request %q", id)
	case errors.Is(err, store.ErrConflict):
		return protocol.SeekInfo{}, reject(ErrSeekGone, "the request %q is over already", id)
	case err != nil:
		return protocol.SeekInfo{}, s.failed("cancel a request", err)
	}
	s.tellSeek(ctx, id)
	k, err := s.st.Seek(ctx, id)
	if err != nil {
		return protocol.SeekInfo{}, s.failed("read a request", err)
	}
	return s.info(k, p.Key), nil
}

// Seeks lists the open requests, and p's own (p may be the zero Person:
// someone not known yet).
func (s *Service) Seeks(ctx context.Context, p Person) (protocol.SeeksAnswer, error) {
	open, err := s.st.OpenSeeks(ctx)
	if err != nil {
		return protocol.SeeksAnswer{}, s.failed("read the requests", err)
	}
	out := protocol.SeeksAnswer{Seeks: []protocol.SeekInfo{}, Mine: []protocol.SeekInfo{}}
	for _, k := range open {
		out.Seeks = append(out.Seeks, s.info(k, p.Key))
	}
	if p.Key == "" {
		return out, nil
	}
	mine, err := s.st.SeeksOf(ctx, p.Key, time.Now().Add(-s.opts.Kept))
	if err != nil {
		return protocol.SeeksAnswer{}, s.failed("read a person's requests", err)
	}
	for _, k := range mine {
		out.Mine = append(out.Mine, s.info(k, p.Key))
	}
	return out, nil
}

// SeekSeat returns where p's paired request id sits: the game, the seat
// and its token, which a guest's browser keeps as the seat's cookie.
func (s *Service) SeekSeat(ctx context.Context, p Person, id string) (game string, seat int, token string, err error) {
	k, err := s.st.Seek(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && k.Person != p.Key:
		return "", 0, "", reject(ErrNotFound, "you have no request %q", id)
	case err != nil:
		return "", 0, "", s.failed("read a request", err)
	case k.Status != store.SeekPaired:
		return "", 0, "", reject(ErrSeekGone, "the request %q is %s, not seated", id, k.Status)
	}
	token = k.Token
	if k.Account != "" {
		if token, err = s.opts.SeatToken(ctx, k.Account, k.Game); err != nil {
			return "", 0, "", s.failed("make a seat token", err)
		}
	}
	return k.Game, k.Seat, token, nil
}

// info describes k to the person viewer.
func (s *Service) info(k store.Seek, viewer string) protocol.SeekInfo {
	in := protocol.SeekInfo{ID: k.ID, Name: k.Name, SignedIn: k.Account != "", Min: k.Min, Max: k.Max, Pace: k.Pace,
		Rated: k.Rated, Rating: k.Rating, RatingMin: k.RatingMin, RatingMax: k.RatingMax, MinFinish: k.MinFinish,
		BotsAfter: int(k.BotsAfter / time.Second), Status: string(k.Status), Created: k.Created.UTC(), Mine: viewer != "" && k.Person == viewer}
	if k.Finish >= 0 {
		f := k.Finish
		in.Finish = &f
	}
	if in.Mine && k.Status == store.SeekPaired {
		seat := k.Seat
		in.Game, in.Seat = k.Game, &seat
	}
	return in
}

// tellSeek tells the person of request id what it is now, and every
// lobby how it lists it now.
func (s *Service) tellSeek(ctx context.Context, id string) {
	k, err := s.st.Seek(ctx, id)
	if err != nil {
		s.log.Warn("meet: read a request to tell", "seek", id, "err", err)
		return
	}
	in := s.info(k, k.Person)
	s.tell(ctx, protocol.MeetMessage{Type: protocol.TypeSeek, Seek: &in}, k.Person)
	listed := s.info(k, "")
	s.tellLobbies(ctx, protocol.MeetMessage{Type: protocol.TypeSeeks, Seek: &listed})
}

// request is k as pairing sees it.
func request(k store.Seek) pairing.Request {
	return pairing.Request{ID: k.ID, Person: k.Person, Name: playername.Key(k.Name), Min: k.Min, Max: k.Max, Pace: k.Pace, Rated: k.Rated,
		Rating: k.Rating, RatingMin: k.RatingMin, RatingMax: k.RatingMax, Finish: k.Finish, MinFinish: k.MinFinish,
		BotsAfter: k.BotsAfter, Created: k.Created}
}

// Pair runs one pairing of the open requests on this node and seats the
// tables it makes.
func (s *Service) Pair(ctx context.Context) error {
	s.pairing.Lock()
	defer s.pairing.Unlock()
	open, err := s.st.OpenSeeks(ctx)
	if err != nil {
		return err
	}
	s.pair(ctx, open)
	return nil
}

// pair seats the tables that the open requests make, and returns why
// each request of a table that could not be seated was not (its request
// stays open, for the next pairing); s.pairing is held.
func (s *Service) pair(ctx context.Context, open []store.Seek) map[string]error {
	if len(open) == 0 {
		return nil
	}
	by := map[string]store.Seek{}
	reqs := make([]pairing.Request, len(open))
	for i, k := range open {
		by[k.ID], reqs[i] = k, request(k)
	}
	failed := map[string]error{}
	for _, t := range pairing.Pair(reqs, s.opts.Now(), s.blocks(ctx, open)) {
		if err := s.seat(ctx, t, by); err != nil {
			s.log.Warn("meet: seating a table", "requests", t.Requests, "err", err)
			for _, id := range t.Requests {
				failed[id] = err
			}
		}
	}
	return failed
}

// blocks is pairing's Blocks over the requests' accounts, each pair asked
// once; a failure to ask counts as a block.
func (s *Service) blocks(ctx context.Context, open []store.Seek) pairing.Blocks {
	if s.opts.Blocked == nil {
		return nil
	}
	account := map[string]string{}
	for _, k := range open {
		account[k.Person] = k.Account
	}
	memo := map[[2]string]bool{}
	return func(a, b string) bool {
		x, y := account[a], account[b]
		if x == "" || y == "" {
			return false
		}
		key := [2]string{x, y}
		if v, ok := memo[key]; ok {
			return v
		}
		v, err := s.opts.Blocked(ctx, x, y)
		if err != nil {
			s.log.Warn("meet: read a block", "err", err)
			v = true
		}
		memo[key] = v
		return v
	}
}

// blockedEither reports whether account a blocks b or b blocks a.
func (s *Service) blockedEither(ctx context.Context, a, b string) (bool, error) {
	if s.opts.Blocked == nil || a == "" || b == "" {
		return false, nil
	}
	for _, pair := range [][2]string{{a, b}, {b, a}} {
		v, err := s.opts.Blocked(ctx, pair[0], pair[1])
		if err != nil || v {
			return v, err
		}
	}
	return false, nil
}

// sit seats p at the seat of game, which was claimed for them: an
// account's with its seat token, a guest's with p.Token. A failure is
// tried once more, since nobody else will sit there.
func (s *Service) sit(ctx context.Context, game string, seat int, p table.Person) {
	var err error
	for try := range 2 {
		err = nil
		if p.Account != "" {
			p.Token, err = s.opts.SeatToken(ctx, p.Account, game)
		}
		if err == nil {
			_, _, err = s.hub.Join(ctx, game, seat, p)
		}
		if err == nil {
			return
		}
		if try == 0 {
			s.log.Warn("meet: seating a person, once more", "game", game, "seat", seat, "err", err)
		}
	}
	s.log.Error("meet: seating a person", "game", game, "seat", seat, "err", err)
}

// seat makes the table t, claims its requests and seats their people.
// When another node claimed one of them first, the table is cancelled
// before anyone sat at it.
func (s *Service) seat(ctx context.Context, t pairing.Table, by map[string]store.Seek) error {
	first := by[t.Requests[0]]
	n := t.Seats()
	// Seats are drawn: who waited longest chooses nothing, not even
	// whether they start.
	order := mrand.Perm(n)
	seats := make([]string, n)
	rating := 0
	for _, id := range t.Requests {
		rating += by[id].Rating
	}
	level := s.opts.BotLevel(first.Rated, rating/len(t.Requests))
	for _, i := range order[len(t.Requests):] {
		seats[i] = level
	}
	tbl, err := s.hub.Create(ctx, table.TableSetup{Seats: seats, Pace: first.Pace, Rated: first.Rated})
	if err != nil {
		return err
	}
	game := tbl.Info.ID
	claims := make([]store.SeekSeat, len(t.Requests))
	for i, id := range t.Requests {
		claims[i] = store.SeekSeat{ID: id, Seat: order[i]}
		if by[id].Account == "" {
			claims[i].Token = crand.Text()
		}
	}
	if err := s.st.PairSeeks(ctx, game, claims); err != nil {
		if _, cerr := s.hub.Cancel(ctx, game, tbl.Creator); cerr != nil {
			s.log.Warn("meet: cancelling a table not claimed", "game", game, "err", cerr)
		}
		if errors.Is(err, store.ErrConflict) {
			return nil // another node was first
		}
		return err
	}
	for _, c := range claims {
		k := by[c.ID]
		s.sit(ctx, game, c.Seat, table.Person{Name: k.Name, Token: c.Token, Account: k.Account})
	}
	s.log.Info("meet: table paired", "game", game, "requests", t.Requests, "bots", t.Bots)
	seated := map[string]bool{}
	for _, c := range claims {
		s.tellSeek(ctx, c.ID)
		seated[by[c.ID].Person] = true
	}
	// The other requests of the people seated were cancelled with the
	// claim.
	for id, k := range by {
		if seated[k.Person] && !slices.ContainsFunc(claims, func(c store.SeekSeat) bool { return c.ID == id }) {
			s.tellSeek(ctx, id)
		}
	}
	return nil
}
