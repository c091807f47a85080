package table

import (
	"context"
	"io"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// ChatLog returns the players' channel of game id's chat as a replay
// shows it: every message, none muted.
func (h *Hub) ChatLog(ctx context.Context, id string) ([]protocol.ChatLine, error) {
	if !protocol.ValidID(id) {
		return nil, notFound(id)
	}
	c, err := h.store.Chat(ctx, id)
	if err != nil {
		return nil, h.storeError("read the chat of game", id, err)
	}
	out := []protocol.ChatLine{}
	for _, m := range c.Lines {
		if m.Channel == chat.Players.String() {
			out = append(out, chatLine(m))
		}
	}
	return out, nil
}

// RecordMeta returns the metadata of a game's record: its pace, its
// take-overs and its rematch links. A game stored before clocks is untimed.
func (h *Hub) RecordMeta(ctx context.Context, id string) (protocol.RecordMeta, error) {
	if !protocol.ValidID(id) {
		return protocol.RecordMeta{}, notFound(id)
	}
	g, err := h.store.Game(ctx, id)
	if err != nil {
		return protocol.RecordMeta{}, h.storeError("read game", id, err)
	}
	var in protocol.GameInfo
	describeRematch(&in, g)
	meta := protocol.RecordMeta{RematchOf: in.RematchOf, Rematch: in.Rematch}
	if g.Clock == nil {
		return meta, nil
	}
	t, err := match.DecodeTiming(g.Clock, len(g.Seats))
	if err != nil {
		return protocol.RecordMeta{}, h.failed("read the clock", id, err)
	}
	meta.Pace, meta.TakeOvers = PaceInfo(t.Clock.Pace()), t.TakeOvers
	return meta, nil
}

// finishedGame returns the finished or archived game g, replayed, from
// the cache or replayed now and cached.
func (h *Hub) finishedGame(g *store.Game) (*finished, error) {
	if f, ok := h.finished.get(g.ID); ok {
		return f, nil
	}
	game, err := match.Replay(g)
	if err != nil {
		return nil, h.failed("replay game", g.ID, err)
	}
	f := &finished{game: game, events: game.Events()}
	f.info = newInfo(h.opts.Limits.OpenTTL, g.ID, g.Status, g.Seats, g.Rated, len(g.Moves), g.Created, g.Updated, game.Winners())
	// Its pace and take-overs, as its game's goroutine showed them.
	if t, err := match.DecodeTiming(g.Clock, len(g.Seats)); err == nil {
		f.info.Pace, f.takeOvers = PaceInfo(t.Clock.Pace()), t.TakeOvers
	}
	view := protocol.NewView(game.View(-1))
	f.spectators = Update{Game: f.info, Seat: -1, View: &view, Events: f.events, TakeOvers: f.takeOvers, change: &change{}}
	h.finished.put(g.ID, f)
	return f, nil
}

// A Watcher is who watches a game: the holder of a seat's token, or a
// spectator (no token, or one that is not the game's), signed in with an
// account or not.
type Watcher struct {
	Token string
	// Account is the signed-in account's id, "" for none: a spectator's
	// mutes are the account's.
	Account string
	// Direct, when set, is offered each update of a live game by the
	// game's goroutine before the update goes to the channel, while the
	// receiver has handled every update it took (Subscription.Handled):
	// it reports whether it took the update (a socket that wrote it
	// itself, saving its writer a wake-up). It must never block.
	Direct func(Update) bool
}

// Watch subscribes w to a game's state: a seat's, or a spectator's. The
// first Update carries every event so far. Close the subscription when
// done.
func (h *Hub) Watch(ctx context.Context, id string, w Watcher) (*Subscription, error) {
	token, account := w.Token, w.Account
	var sub *Subscription
	err := h.with(ctx, id, func(l *loop) error {
		var err error
		sub, err = l.watch(hashToken(token), account, w.Direct)
		return err
	}, func(g *store.Game) error {
		f, err := h.finishedGame(g)
		if err != nil {
			return err
		}
		seat := match.SeatOf(g.Seats, hashToken(token))
		sub = newSubscription(seat, h.after.unfollow)
		sub.account = account
		u := f.update(seat)
		if g.RematchOf != "" || g.Rematch != nil {
			// The offer changes: not the cached description's encoding.
			describeRematch(&u.Game, g)
			u.change = &change{}
		}
		sub.c <- u
		if g.Status == store.StatusFinished && chat.CheckOpen(g.Updated, h.opts.Now()) == nil {
			// The conversation so far, both channels (the game is over),
			// then what is said after the game.
			close(sub.c)
			h.after.follow(sub, id, 0)
			h.after.read(ctx, id)
			return nil
		}
		if c, err := h.store.Chat(ctx, id); err != nil {
			h.log.Error("cannot read the chat", "game", id, "err", err)
		} else if m := chatMessage(match.RoomOf(c.Mutes), sub.reader(), c.Lines, true); len(m.Lines)+len(m.Muted) > 0 {
			// The conversation as it ended: its chat is closed.
			sub.chat <- m
		}
		sub.end()
		return nil
	})
	return sub, err
}

// Game describes the game and returns the seat the token holds, or -1.
func (h *Hub) Game(ctx context.Context, id, token string) (protocol.GameInfo, int, error) {
	var in protocol.GameInfo
	seat := -1
	hash := hashToken(token)
	err := h.with(ctx, id, func(l *loop) error {
		in, seat = l.info(), match.SeatOf(l.m.Seats, hash)
		return nil
	}, func(g *store.Game) error {
		w, err := h.winnersOf(g)
		if err != nil {
			return err
		}
		in, seat = newInfo(h.opts.Limits.OpenTTL, g.ID, g.Status, g.Seats, g.Rated, len(g.Moves), g.Created, g.Updated, w), match.SeatOf(g.Seats, hash)
		describeRematch(&in, g)
		return nil
	})
	return in, seat, err
}

// MaxList is the most games List returns.
const MaxList = 100

// List returns the games with the status, most recently updated first, at
// most MaxList; the empty status lists every game but the expired tables.
// Tutorials (CreateTutorial) are left out.
func (h *Hub) List(ctx context.Context, status store.Status) ([]protocol.GameInfo, error) {
	statuses := []store.Status{status}
	switch status {
	case store.StatusOpen, store.StatusPlaying, store.StatusFinished, store.StatusArchived, store.StatusExpired, store.StatusCancelled:
	case "":
		statuses = []store.Status{store.StatusOpen, store.StatusPlaying, store.StatusFinished, store.StatusArchived}
	default:
		return nil, reject(ErrBadRequest, "unknown status %q (want open, playing, finished, archived, expired or cancelled)", status)
	}
	var all []store.Summary
	for _, st := range statuses {
		list, err := h.store.List(ctx, st, MaxList)
		if err != nil {
			return nil, h.failed("list games", "", err)
		}
		all = append(all, list...)
	}
	if len(statuses) > 1 {
		sortRecent(all)
	}
	if len(all) > MaxList {
		all = all[:MaxList]
	}
	infos := make([]protocol.GameInfo, 0, len(all))
	for _, s := range all {
		if match.IsTutorial(s.Seats) {
			continue // nobody else can take part
		}
		var w []int
		if s.Status == store.StatusFinished || s.Status == store.StatusArchived {
			var err error
			if w, err = h.cachedWinners(ctx, s.ID); err != nil {
				h.log.Error("cannot find the winners", "game", s.ID, "err", err)
			}
		}
		infos = append(infos, newInfo(h.opts.Limits.OpenTTL, s.ID, s.Status, s.Seats, s.Rated, s.Moves, s.Created, s.Updated, w))
	}
	return infos, nil
}

// sortRecent sorts summaries most recently updated first (insertion sort:
// the lists are short and each is sorted already).
func sortRecent(s []store.Summary) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Updated.After(s[j-1].Updated); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Record returns the record of a game that has started: every move so far.
func (h *Hub) Record(ctx context.Context, id string) (*razzia.Record, error) {
	if !protocol.ValidID(id) {
		return nil, notFound(id)
	}
	g, err := h.store.Game(ctx, id)
	if err != nil {
		return nil, h.storeError("read game", id, err)
	}
	switch g.Status {
	case store.StatusOpen:
		return nil, reject(ErrNotStarted, "the game has not started: there is no record yet")
	case store.StatusExpired:
		return nil, h.expired(g)
	case store.StatusCancelled:
		return nil, cancelled()
	}
	rec := &razzia.Record{Format: razzia.RecordFormat, Players: match.PlayerNames(g.Seats), Moves: append([]string{}, g.Moves...)}
	for _, set := range g.Cheques {
		rec.Cheques = append(rec.Cheques, append([]int(nil), set...))
	}
	return rec, nil
}

// Upload reads a record, checks it by replaying it, and stores it as an
// archived game, which can be watched like a finished one. A bad record is
// an *Error of kind ErrBadRecord wrapping the *razzia.RecordError.
func (h *Hub) Upload(ctx context.Context, r io.Reader) (protocol.GameInfo, error) {
	rec, err := razzia.ReadRecord(r)
	if err != nil {
		return protocol.GameInfo{}, &Error{Kind: ErrBadRecord, Msg: err.Error(), Err: err}
	}
	game, err := rec.Game()
	if err != nil {
		return protocol.GameInfo{}, &Error{Kind: ErrBadRecord, Msg: err.Error(), Err: err}
	}
	id, err := newID(h.opts.Rand)
	if err != nil {
		return protocol.GameInfo{}, internal(err)
	}
	norm := game.Record() // moves in canonical form
	g := &store.Game{
		ID:      id,
		Status:  store.StatusArchived,
		Seats:   make([]store.Seat, len(rec.Players)),
		Cheques: rec.Cheques,
		Seed:    []byte{},
		Moves:   norm.Moves,
		Created: h.opts.Now(),
	}
	g.Updated = g.Created
	if g.Cheques == nil {
		g.Cheques = razzia.ChequeSets(len(rec.Players))
	}
	for i, p := range rec.Players {
		g.Seats[i] = store.Seat{Name: p}
	}
	if err := h.store.CreateGame(ctx, g); err != nil {
		return protocol.GameInfo{}, h.failed("store uploaded record", id, err)
	}
	h.log.Info("record uploaded", "game", id, "moves", len(g.Moves))
	return newInfo(h.opts.Limits.OpenTTL, id, g.Status, g.Seats, false, len(g.Moves), g.Created, g.Updated, game.Winners()), nil
}

// winnersOf returns the winners of a stored game that is over.
func (h *Hub) winnersOf(g *store.Game) ([]int, error) {
	if g.Status != store.StatusFinished && g.Status != store.StatusArchived {
		return nil, nil
	}
	if w, ok := h.live.winnersOf(g.ID); ok {
		return w, nil
	}
	game, err := match.Replay(g)
	if err != nil {
		return nil, h.failed("replay game", g.ID, err)
	}
	w := game.Winners()
	h.live.keepWinners(g.ID, w)
	return w, nil
}

func (h *Hub) cachedWinners(ctx context.Context, id string) ([]int, error) {
	if w, ok := h.live.winnersOf(id); ok {
		return w, nil
	}
	g, err := h.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	return h.winnersOf(g)
}
