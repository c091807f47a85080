package table

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
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

	subs     map[*Subscription]struct{}
	thinking bool // a bot goroutine is choosing the next move

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

// load sets the loop's game from its stored form.
func (l *loop) load(g *store.Game) error {
	l.status, l.seats, l.cheques, l.seed = g.Status, g.Seats, g.Cheques, g.Seed
	l.created, l.updated = g.Created, g.Updated
	l.game, l.bots = nil, nil
	if l.status == store.StatusOpen {
		return nil
	}
	game, err := replay(g)
	if err != nil {
		return err
	}
	l.game = game
	l.startBots()
	return nil
}

// run serves requests and bot moves until the game is over or the Hub closes.
func (l *loop) run() {
	defer l.h.wg.Done()
	defer l.exit()
	l.schedule(l.h.opts.BotDelay)
	for l.status != store.StatusFinished {
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
	h := l.h
	h.mu.Lock()
	if h.games[l.id] == l {
		delete(h.games, l.id)
	}
	if l.status == store.StatusFinished {
		h.winners[l.id] = stateOf(l.game).Winners()
	}
	h.mu.Unlock()
	close(l.done)
	for s := range l.subs {
		close(s.c)
	}
	l.subs = nil
}

func (l *loop) info() Info {
	moves := 0
	var winners []int
	if l.game != nil {
		moves = len(l.game.Moves())
		winners = stateOf(l.game).Winners()
	}
	return newInfo(l.id, l.status, l.seats, moves, l.created, l.updated, winners)
}

// join seats a person; see Hub.Join.
func (l *loop) join(name string, seat int, hash []byte) (int, error) {
	if l.status != store.StatusOpen {
		return 0, reject(ErrTableFull, "the table is full: the game has started")
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
	status := store.StatusOpen
	if open == 1 {
		status = store.StatusPlaying
	}
	ctx, cancel := context.WithTimeout(l.h.ctx, commitTimeout)
	defer cancel()
	if err := l.h.store.TakeSeat(ctx, l.id, store.NoFence, seat, name, hash, status); err != nil {
		if errors.Is(err, store.ErrConflict) {
			l.reload()
			return 0, reject(ErrSeatTaken, "seat %d was taken meanwhile", seat)
		}
		return 0, l.h.failed("take seat", l.id, err)
	}
	l.seats = append([]store.Seat(nil), l.seats...)
	l.seats[seat] = store.Seat{Name: name, TokenHash: hash}
	l.status = status
	l.updated = l.h.opts.Now()
	l.h.log.Info("seat taken", "game", l.id, "seat", seat)
	if status == store.StatusPlaying {
		game, err := razzia.NewGame(razzia.Setup{Players: names(l.seats), Cheques: l.cheques, Seed: l.seed})
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

// watch adds a subscription for the seat whose token hashes to hash.
func (l *loop) watch(hash []byte) *Subscription {
	s := newSubscription(l, seatOf(l.seats, hash))
	l.subs[s] = struct{}{}
	l.send(s, l.info(), l.events(), map[int]*razzia.Snapshot{})
	return s
}

// unwatch removes a subscription.
func (l *loop) unwatch(s *Subscription) {
	if _, ok := l.subs[s]; ok {
		delete(l.subs, s)
		close(s.c)
	}
}

func (l *loop) events() []razzia.Event {
	if l.game == nil {
		return nil
	}
	return l.game.Events()
}

// broadcast sends every subscriber the new state.
func (l *loop) broadcast() {
	info, events := l.info(), l.events()
	views := map[int]*razzia.Snapshot{}
	for s := range l.subs {
		l.send(s, info, events, views)
	}
}

// send gives s the state and the events it has not received. It never
// blocks: an update the subscriber has not taken yet is replaced by one
// that also carries its events.
func (l *loop) send(s *Subscription, info Info, events []razzia.Event, views map[int]*razzia.Snapshot) {
	from := s.sent
	select {
	case old := <-s.c:
		from = old.from
	default:
	}
	u := Update{Game: info, Seat: s.Seat, Events: events[from:], from: from}
	if l.game != nil {
		v, ok := views[s.Seat]
		if !ok {
			snap := l.game.View(s.Seat).Snapshot()
			v = &snap
			views[s.Seat] = v
		}
		u.View = v
	}
	s.c <- u // the buffer has room: this goroutine is the only sender
	s.sent = len(events)
}

// playFor plays m for the person whose token hashes to hash. perr is why
// the move could not be parsed, reported only to the seat to move.
func (l *loop) playFor(hash []byte, m razzia.Move, perr error, seq int) error {
	seat := seatOf(l.seats, hash)
	switch {
	case seat < 0:
		return reject(ErrNotYourSeat, "you have no seat at this table")
	case l.game == nil:
		return reject(ErrNotStarted, "the game has not started: seats are still open")
	case stateOf(l.game).Over():
		return reject(ErrGameOver, "the game is over")
	case seq >= 0 && seq != len(l.game.Moves()):
		return reject(ErrStale, "the game has moved on: you saw move %d, it is at move %d", seq, len(l.game.Moves()))
	case stateOf(l.game).ToMove() != seat:
		return reject(ErrNotYourTurn, "it is %s's turn, not yours", l.seats[stateOf(l.game).ToMove()].Name)
	case perr != nil:
		return &Error{Kind: ErrIllegalMove, Msg: perr.Error(), Err: perr}
	}
	return l.play(m)
}

// play checks m on a copy of the game, commits it, applies it and
// broadcasts the new state. On any error nothing changes.
func (l *loop) play(m razzia.Move) error {
	trial := *l.game // shares the move and event slices, but only appends to them
	if err := trial.Play(m); err != nil {
		return &Error{Kind: ErrIllegalMove, Msg: err.Error(), Err: err}
	}
	moves := trial.Moves()
	index := len(moves) - 1
	played := moves[index] // a draw now names its card
	status := store.StatusPlaying
	if stateOf(&trial).Over() {
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
		panic(fmt.Sprintf("table: game %s: move %q legal on a copy but not on the game: %v", l.id, played, err))
	}
	l.status = status
	l.updated = l.h.opts.Now()
	if status == store.StatusFinished {
		l.h.log.Info("game over", "game", l.id, "moves", index+1, "winners", stateOf(l.game).Winners())
	}
	l.broadcast()
	l.schedule(l.h.opts.BotDelay)
	return nil
}

// startBots builds the bots of a game that has started. Each bot is seeded
// from the game's seed and its seat.
func (l *loop) startBots() {
	l.bots = make([]bot.Bot, len(l.seats))
	for i, s := range l.seats {
		if s.Bot == "" {
			continue
		}
		b, err := l.h.opts.NewBot(s.Bot, seededRand(l.seed, fmt.Sprintf("bot %d", i)).Uint64())
		if err != nil {
			l.h.log.Error("cannot build bot; it will play its first legal move", "game", l.id, "seat", i, "bot", s.Bot, "err", err)
			b = firstLegal{}
		}
		l.bots[i] = b
	}
}

// firstLegal stands in for a bot that cannot be built, so a game never stalls.
type firstLegal struct{}

func (firstLegal) Choose(v razzia.View) razzia.Move { return v.Legal[0] }

// schedule starts the bot to move, if a bot is to move, after delay.
func (l *loop) schedule(delay time.Duration) {
	if l.game == nil || l.thinking || l.status != store.StatusPlaying {
		return
	}
	seat := stateOf(l.game).ToMove()
	if seat < 0 || l.bots[seat] == nil {
		return
	}
	l.thinking = true
	b, v := l.bots[seat], l.game.View(seat)
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
				return
			}
		}
		m := choose(b, v, h, l.id)
		select {
		case l.botc <- botMove{moves: v.Moves, move: m}:
		case <-h.ctx.Done():
		case <-l.done:
		}
	}()
}

// choose asks the bot, falling back to the first legal move if it fails,
// so that a bot's bug cannot stall a game.
func choose(b bot.Bot, v razzia.View, h *Hub, id string) (m razzia.Move) {
	defer func() {
		if r := recover(); r != nil {
			h.log.Error("bot panicked; playing its first legal move", "game", id, "seat", v.Seat, "panic", r)
			m = v.Legal[0]
		}
	}()
	return b.Choose(v)
}

// botMove plays a bot's choice, if the game is still where the bot saw it.
func (l *loop) botMove(bm botMove) {
	l.thinking = false
	if l.game == nil || bm.moves != len(l.game.Moves()) {
		l.schedule(l.h.opts.BotDelay)
		return
	}
	err := l.play(bm.move)
	var e *Error
	switch {
	case err == nil:
	case errors.As(err, &e) && e.Kind == ErrIllegalMove:
		// A bot's bug: play something legal rather than stall.
		seat := stateOf(l.game).ToMove()
		l.h.log.Error("bot chose an illegal move; playing its first legal move", "game", l.id, "seat", seat, "move", bm.move, "err", err)
		if err := l.play(l.game.LegalMoves()[0]); err != nil {
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

// seededRand returns a ChaCha8 source keyed by the game's seed and a label,
// so that each use of the seed draws its own stream.
func seededRand(seed []byte, label string) *rand.Rand {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(label)))
	key := sha256.Sum256(append(append(append([]byte("razzia table\x00"), n[:]...), label...), seed...))
	return rand.New(rand.NewChaCha8(key))
}
