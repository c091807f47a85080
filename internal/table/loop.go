package table

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// A loop is the goroutine that owns one live game: only it touches the
// fields below; everything else sends it functions over reqs.
type loop struct {
	h  *Hub
	id string

	status  store.Status
	seats   []store.Seat
	cheques [][]int
	seed    []byte
	created time.Time
	updated time.Time
	game    *razzia.Game // nil while the table is open
	bots    []bot.Bot    // by seat; nil for people
	creator []byte       // the hash of the creator's token, or nil
	rated   bool         // a rated table: signed-in players only

	client  string              // who created the table in this process, or ""
	held    hold                // what the game holds of the Hub's limits
	counted bool                // held is counted in the Hub's holds
	expiry  *time.Timer         // closes the table when it waited too long
	limits  map[int]seatLimiter // the move rate limit of each seat that moved
	watched int                 // subscriptions without a seat

	subs      map[*Subscription]struct{}
	thinking  bool    // a bot goroutine is choosing the next move
	thinkSeat int     // the seat whose bot it asks
	orphan    bot.Bot // that bot, when a reload replaced the bots meanwhile

	reqs  chan func(*loop)
	botc  chan botMove
	retry *time.Timer // pending retry of a bot move the store refused
	done  chan struct{}
}

// A botMove is a bot's choice for the position after moves moves.
type botMove struct {
	moves int
	move  razzia.Move
}

// newLoop builds the loop of a stored game, replaying its moves.
func newLoop(h *Hub, g *store.Game) (*loop, error) {
	l := &loop{
		h:    h,
		id:   g.ID,
		subs: map[*Subscription]struct{}{},
		reqs: make(chan func(*loop)),
		botc: make(chan botMove),
		done: make(chan struct{}),
	}
	if err := l.load(g); err != nil {
		return nil, err
	}
	return l, nil
}

// errNotLevel is wrapped by the error of a stored game whose bot seat
// names something other than a bot level: a damaged or tampered row, or
// one from a version that stored specs. Such a game is not run.
var errNotLevel = errors.New("not a bot level")

// load sets the loop's game from its stored form. On error nothing changes.
func (l *loop) load(g *store.Game) error {
	// The store is not trusted to name what plays: only a level builds a bot.
	for i, s := range g.Seats {
		if s.Bot != "" && !isLevel(s.Bot) {
			return fmt.Errorf("game %s, seat %d: the stored bot %q is %w (the levels are %s); the game is not run",
				g.ID, i, s.Bot, errNotLevel, strings.Join(bot.LevelNames(), ", "))
		}
	}
	var game *razzia.Game
	if g.Status != store.StatusOpen {
		var err error
		if game, err = replay(g); err != nil {
			return err
		}
	}
	l.closeBots()
	if l.thinking && l.orphan == nil && l.bots != nil {
		l.orphan = l.bots[l.thinkSeat]
	}
	l.status, l.seats, l.cheques, l.seed = g.Status, g.Seats, g.Cheques, g.Seed
	l.created, l.updated, l.creator, l.rated = g.Created, g.Updated, g.CreatorHash, g.Rated
	l.game, l.bots = game, nil
	if game != nil {
		l.startBots()
	}
	return nil
}

// run serves requests and bot moves until the game is over, the table
// expired, or the Hub closes.
func (l *loop) run() {
	defer l.h.wg.Done()
	defer l.exit()
	l.schedule(l.h.opts.BotDelay)
	l.armExpiry()
	for l.status.Live() {
		select {
		case f := <-l.reqs:
			f(l)
		case m := <-l.botc:
			l.botMove(m)
		case <-l.h.ctx.Done():
			return
		}
	}
}

// exit takes the game out of the Hub, so that later requests find it in
// the store, and ends the subscriptions.
func (l *loop) exit() {
	if l.retry != nil {
		l.retry.Stop()
	}
	if l.expiry != nil {
		l.expiry.Stop()
	}
	l.setHold(holdNone)
	h := l.h
	h.mu.Lock()
	if h.games[l.id] == l {
		delete(h.games, l.id)
	}
	if l.status == store.StatusFinished {
		h.winners[l.id] = l.game.Winners()
	}
	h.mu.Unlock()
	close(l.done)
	l.closeBots()
	for s := range l.subs {
		close(s.c)
	}
	l.subs = nil
}

func (l *loop) info() protocol.GameInfo {
	moves := 0
	var winners []int
	if l.game != nil {
		moves = l.game.Len()
		winners = l.game.Winners()
	}
	in := l.h.newInfo(l.id, l.status, l.seats, l.rated, moves, l.created, l.updated, winners)
	if l.game != nil && !l.game.Over() {
		to := l.game.ToMove()
		in.ToMove = &to
	}
	return in
}

// setHold changes what the game holds of the Hub's limits.
func (l *loop) setHold(k hold) {
	h := l.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if l.counted {
		h.holds.add(l.client, l.held, -1)
		h.holds.add(l.client, k, 1)
	}
	l.held = k
}

// armExpiry (re)starts the clock of an open table: it closes OpenTTL
// after its last change.
func (l *loop) armExpiry() {
	if l.expiry != nil {
		l.expiry.Stop()
	}
	if l.status != store.StatusOpen {
		return
	}
	wait := l.updated.Add(l.h.opts.Limits.OpenTTL).Sub(l.h.opts.Now())
	l.expiry = time.AfterFunc(max(wait, 0), func() {
		select {
		case l.reqs <- func(l *loop) { l.expire() }:
		case <-l.done:
		}
	})
}

// expire closes the table if it is still open and its time has come: it
// is stored as expired, every watcher is told, and the loop ends.
func (l *loop) expire() {
	if l.status != store.StatusOpen {
		return
	}
	if l.h.opts.Now().Before(l.updated.Add(l.h.opts.Limits.OpenTTL)) {
		l.armExpiry() // a seat changed since the timer started
		return
	}
	ctx, cancel := context.WithTimeout(l.h.ctx, commitTimeout)
	defer cancel()
	if err := l.h.store.CloseTable(ctx, l.id, store.NoFence, store.StatusExpired); err != nil {
		if errors.Is(err, store.ErrConflict) {
			l.reload()
			return
		}
		l.h.log.Error("cannot expire table; trying again later", "game", l.id, "err", err)
		l.expiry = time.AfterFunc(l.h.opts.RetryDelay, func() {
			select {
			case l.reqs <- func(l *loop) { l.expire() }:
			case <-l.done:
			}
		})
		return
	}
	l.status, l.updated = store.StatusExpired, l.h.opts.Now()
	l.h.log.Info("table expired", "game", l.id)
	l.broadcast()
}

// join seats a person whose token hashes to hash; see Hub.JoinAs.
func (l *loop) join(p Person, seat int, hash []byte) (int, error) {
	name := p.Name
	if l.status != store.StatusOpen {
		return 0, reject(ErrTableFull, "the table is full: the game has started")
	}
	if err := l.admits(p, hash); err != nil {
		return 0, err
	}
	open := 0
	for _, s := range l.seats {
		if s.Name == "" {
			open++
		}
	}
	switch {
	case seat >= len(l.seats):
		return 0, reject(ErrBadRequest, "there is no seat %d: the seats are 0 to %d", seat, len(l.seats)-1)
	case seat < 0:
		for i, s := range l.seats {
			if s.Name == "" {
				seat = i
				break
			}
		}
	case l.seats[seat].Name != "":
		return 0, reject(ErrSeatTaken, "seat %d is taken by %s", seat, l.seats[seat].Name)
	}
	key := playername.Key(name)
	for _, s := range l.seats {
		if s.Name != "" && playername.Key(s.Name) == key {
			return 0, reject(ErrNameTaken, "%s is already at this table: choose another name", s.Name)
		}
	}
	status := store.StatusOpen
	if open == 1 {
		status = store.StatusPlaying
	}
	ctx, cancel := context.WithTimeout(l.h.ctx, commitTimeout)
	defer cancel()
	taken := store.Seat{Name: name, TokenHash: hash, Account: p.Account}
	if err := l.h.store.TakeSeat(ctx, l.id, store.NoFence, seat, taken, status); err != nil {
		if errors.Is(err, store.ErrConflict) {
			l.reload()
			return 0, reject(ErrSeatTaken, "seat %d was taken meanwhile", seat)
		}
		return 0, l.h.failed("take seat", l.id, err)
	}
	l.seats = append([]store.Seat(nil), l.seats...)
	l.seats[seat] = taken
	l.status = status
	l.updated = l.h.opts.Now()
	l.h.log.Info("seat taken", "game", l.id, "seat", seat)
	l.armExpiry()
	if status == store.StatusPlaying {
		l.setHold(holdNone) // a game with a person
	}
	if status == store.StatusPlaying {
		// The cheques dealt at creation, as stored (see replay).
		game, err := razzia.NewGame(razzia.Setup{Players: playerNames(l.seats), Cheques: l.cheques, Seed: l.seed})
		if err != nil {
			// The names were checked and the cheques dealt by us: only a bug gets here.
			return 0, l.h.failed("start game", l.id, err)
		}
		l.game = game
		l.startBots()
		l.h.log.Info("game started", "game", l.id)
	}
	l.broadcast()
	l.schedule(l.h.opts.BotDelay)
	return seat, nil
}

// reload reads the game from the store again, after the store said it
// changed under us: the store is the truth.
func (l *loop) reload() {
	ctx, cancel := context.WithTimeout(l.h.ctx, commitTimeout)
	defer cancel()
	g, err := l.h.store.Game(ctx, l.id)
	if err == nil {
		err = l.load(g)
	}
	if err != nil {
		l.h.log.Error("cannot reload game", "game", l.id, "err", err)
		return
	}
	l.broadcast()
	l.schedule(l.h.opts.BotDelay)
}

// watch adds a subscription for the seat whose token hashes to hash; a
// spectator only while the game has room for one more.
func (l *loop) watch(hash []byte) (*Subscription, error) {
	seat := seatOf(l.seats, hash)
	if seat < 0 {
		if max := l.h.opts.Limits.MaxSpectators; l.watched >= max {
			return nil, reject(ErrTooManyConnections, "this game has %d spectators, the most it takes: try again later", max)
		}
		l.watched++
	}
	s := newSubscription(l, seat)
	l.subs[s] = struct{}{}
	l.send(s, l.info(), map[int][]razzia.Event{}, &change{}, map[int]*protocol.View{})
	return s, nil
}

// unwatch removes a subscription.
func (l *loop) unwatch(s *Subscription) {
	if _, ok := l.subs[s]; ok {
		delete(l.subs, s)
		if s.seat < 0 {
			l.watched--
		}
		close(s.c)
	}
}

// remove frees a person's seat for the creator; see Hub.Remove.
func (l *loop) remove(creator []byte, seat int) error {
	switch {
	case !sameHash(l.creator, creator):
		return notCreator()
	case l.status != store.StatusOpen:
		return reject(ErrAlreadyStarted, "the game has started: its seats are fixed")
	case seat < 0 || seat >= len(l.seats):
		return reject(ErrBadRequest, "there is no seat %d: the seats are 0 to %d", seat, len(l.seats)-1)
	case l.seats[seat].Bot != "":
		return reject(ErrBadRequest, "seat %d is a bot's, not a person's", seat)
	case l.seats[seat].Name == "":
		return reject(ErrBadRequest, "seat %d is open: nobody to remove", seat)
	}
	ctx, cancel := context.WithTimeout(l.h.ctx, commitTimeout)
	defer cancel()
	if err := l.h.store.FreeSeat(ctx, l.id, store.NoFence, seat); err != nil {
		if errors.Is(err, store.ErrConflict) {
			l.reload()
			return reject(ErrAlreadyStarted, "the table changed meanwhile: look again")
		}
		return l.h.failed("free seat", l.id, err)
	}
	name := l.seats[seat].Name
	l.seats = append([]store.Seat(nil), l.seats...)
	l.seats[seat] = store.Seat{}
	l.updated = l.h.opts.Now()
	delete(l.limits, seat)
	// The removed person's connections watch on as spectators.
	for s := range l.subs {
		if s.seat == seat {
			s.seat = -1
			l.watched++
		}
	}
	l.h.log.Info("player removed", "game", l.id, "seat", seat, "name", name)
	l.armExpiry()
	l.broadcast()
	return nil
}

// broadcast sends every subscriber the new state.
func (l *loop) broadcast() {
	info := l.info()
	events, c, views := map[int][]razzia.Event{}, &change{}, map[int]*protocol.View{}
	for s := range l.subs {
		l.send(s, info, events, c, views)
	}
}

// send gives s the state and the events it has not received. It never
// blocks: an update the subscriber has not taken yet is replaced by one
// that also carries its events. events (by the move they start from),
// views (by seat) and c (the encoded messages) are shared by the
// subscribers of one broadcast, so that each is made once, and only the
// events not yet sent are copied.
func (l *loop) send(s *Subscription, info protocol.GameInfo, events map[int][]razzia.Event, c *change, views map[int]*protocol.View) {
	from := s.sent
	select {
	case old := <-s.c:
		from = old.from
	default:
	}
	u := Update{Game: info, Seat: s.seat, from: from, change: c}
	if l.game != nil {
		ev, ok := events[from]
		if !ok {
			ev = l.game.EventsSince(from)
			events[from] = ev
		}
		u.Events = ev
		v, ok := views[s.seat]
		if !ok {
			view := protocol.NewView(l.game.View(s.seat))
			v = &view
			views[s.seat] = v
		}
		u.View = v
		s.sent = l.game.Len()
	}
	s.c <- u // the buffer has room: this goroutine is the only sender
}

// playFor plays m for the person whose token hashes to hash. perr is why
// the move could not be parsed, reported only to the seat to move.
func (l *loop) playFor(hash []byte, m razzia.Move, perr error, seq int) error {
	seat := seatOf(l.seats, hash)
	if seat >= 0 {
		lim, ok := l.limits[seat]
		if !ok {
			lim = newSeatLimiter(l.h.opts.Limits)
			if l.limits == nil {
				l.limits = map[int]seatLimiter{}
			}
			l.limits[seat] = lim
		}
		if err := lim.allow(l.h.opts.Now(), l.h.opts.Limits); err != nil {
			return err
		}
	}
	switch {
	case seat < 0:
		return reject(ErrNotYourSeat, "you have no seat at this table")
	case l.game == nil:
		return reject(ErrNotStarted, "the game has not started: seats are still open")
	case l.game.Over():
		return reject(ErrGameOver, "the game is over")
	case seq >= 0 && seq != l.game.Len():
		return reject(ErrStale, "the game has moved on: you saw move %d, it is at move %d", seq, l.game.Len())
	case l.game.ToMove() != seat:
		return reject(ErrNotYourTurn, "it is %s's turn, not yours", l.seats[l.game.ToMove()].Name)
	case perr != nil:
		return &Error{Kind: ErrIllegalMove, Msg: perr.Error(), Err: perr}
	}
	return l.play(m)
}

// play checks m, commits it, applies it and broadcasts the new state. On
// any error nothing changes.
func (l *loop) play(m razzia.Move) error {
	played, err := l.game.Check(m) // a draw now names its card
	if err != nil {
		return &Error{Kind: ErrIllegalMove, Msg: err.Error(), Err: err}
	}
	index := l.game.Len()
	after := l.game.State()
	after.Apply(played)
	status := store.StatusPlaying
	if after.Over() {
		status = store.StatusFinished
	}
	ctx, cancel := context.WithTimeout(l.h.ctx, commitTimeout)
	defer cancel()
	if err := l.h.store.AppendMove(ctx, l.id, store.NoFence, index, played.String(), status); err != nil {
		if errors.Is(err, store.ErrConflict) {
			defer l.reload()
		}
		return l.h.failed("append move", l.id, err)
	}
	if err := l.game.Play(played); err != nil {
		panic(fmt.Sprintf("table: game %s: move %q checked but not played: %v", l.id, played, err))
	}
	l.status = status
	l.updated = l.h.opts.Now()
	if status == store.StatusFinished {
		l.h.log.Info("game over", "game", l.id, "moves", index+1, "winners", l.game.Winners())
		l.finished()
	}
	l.broadcast()
	l.schedule(l.h.opts.BotDelay)
	return nil
}

// startBots builds the bots of a game that has started, from the levels
// load checked. Each bot is seeded from the game's seed and its seat.
func (l *loop) startBots() {
	l.bots = make([]bot.Bot, len(l.seats))
	for i, s := range l.seats {
		if s.Bot == "" {
			continue
		}
		b, err := l.h.opts.NewBot(s.Bot, razzia.SeededRand(l.seed, fmt.Sprintf("bot %d", i)).Uint64())
		if err != nil {
			l.h.log.Error("cannot build bot; it will play the default move", "game", l.id, "seat", i, "bot", s.Bot, "err", err)
			b = bot.Fallback{}
		}
		l.bots[i] = b
	}
}

// closeBots releases the bots but the one a bot goroutine is asking: the
// one that takes its answer closes it, botMove if it was replaced meanwhile
// (see orphan), the goroutine itself if the loop has ended.
func (l *loop) closeBots() {
	for i, b := range l.bots {
		if b != nil && !(l.thinking && l.orphan == nil && i == l.thinkSeat) {
			b.Close()
		}
	}
}

// schedule starts the bot to move, if a bot is to move, after delay.
func (l *loop) schedule(delay time.Duration) {
	if l.game == nil || l.thinking || l.status != store.StatusPlaying {
		return
	}
	seat := l.game.ToMove()
	if seat < 0 || l.bots[seat] == nil {
		return
	}
	l.thinking = true
	l.thinkSeat = seat
	b, v := l.bots[seat], l.game.View(seat)
	prio := 0 // a game with people: its bots go first
	if botsOnly(l.seats) {
		prio = 1
	}
	h := l.h
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-h.ctx.Done():
				t.Stop()
				b.Close() // the loop ends too, without it
				return
			}
		}
		if !h.workers.acquire(prio, h.ctx.Done(), l.done) {
			b.Close()
			return
		}
		m := choose(b, v, h, l.id)
		h.workers.release()
		select {
		case l.botc <- botMove{moves: v.Moves, move: m}:
		case <-h.ctx.Done():
			b.Close()
		case <-l.done:
			b.Close()
		}
	}()
}

// choose asks the bot, falling back to bot.Default if it panics, so that a
// bot's bug cannot stall a game.
func choose(b bot.Bot, v razzia.View, h *Hub, id string) (m razzia.Move) {
	defer func() {
		if r := recover(); r != nil {
			m = bot.Default(v.Legal)
			h.log.Error("bot panicked; playing the default move", "game", id, "seat", v.Seat, "panic", r, "move", m)
		}
	}()
	return b.Choose(v)
}

// botMove plays a bot's choice, if the game is still where the bot saw it.
func (l *loop) botMove(bm botMove) {
	l.thinking = false
	if l.orphan != nil {
		l.orphan.Close()
		l.orphan = nil
	}
	if l.game == nil || bm.moves != l.game.Len() {
		l.schedule(l.h.opts.BotDelay)
		return
	}
	err := l.play(bm.move)
	var e *Error
	switch {
	case err == nil:
	case errors.As(err, &e) && e.Kind == ErrIllegalMove:
		// A bot's bug: play the default rather than stall.
		seat := l.game.ToMove()
		m := bot.Default(l.game.LegalMoves())
		l.h.log.Error("bot chose an illegal move; playing the default move", "game", l.id, "seat", seat, "move", bm.move, "err", err, "default", m)
		if err := l.play(m); err != nil {
			l.retryLater()
		}
	default:
		l.retryLater()
	}
}

// retryLater moves the bot again after RetryDelay: the store failed.
func (l *loop) retryLater() {
	if l.retry != nil {
		l.retry.Stop()
	}
	l.retry = time.AfterFunc(l.h.opts.RetryDelay, func() {
		select {
		case l.reqs <- func(l *loop) { l.schedule(0) }:
		case <-l.done:
		}
	})
}
