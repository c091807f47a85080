package table

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
)

// The chat after the game: "gg", "Well played". Once a game is
// over no goroutine runs it, so the node that receives a message or a
// mute checks it (internal/chat, the same rules as during the game) and
// writes it to the store itself, without a fence (store.CheckChatWrite),
// for chat.AfterGame after the game's end (its stored Updated time). The
// store announces it (ChangeChat); every node re-reads the chat of the
// finished games its connections follow and sends each its new lines.
// Both channels are open to everyone then, and mutes hold per reader.
//
// The rate limits are kept per node after the game: a node that took no
// message from a sender since the game ended lets them start afresh.

// afterChats are the finished games' chats followed on this node: their
// watchers, and the rate limits of those who write in them.
type afterChats struct {
	chats interface {
		Chat(ctx context.Context, id string) (store.Chat, error)
	}
	log        *slog.Logger
	ctx        context.Context // the node's: done as it closes
	background func(func())    // runs a goroutine the node's Close waits for

	mu    sync.Mutex
	games map[string]*followed
	rooms map[string]*afterRoom
}

// followed is one finished game's chat followed here.
type followed struct {
	// read is held while the stored chat is read and sent, one read at a
	// time, so that a later read never sends older mutes than an earlier.
	read sync.Mutex
	subs map[*Subscription]struct{} // guarded by afterChats.mu
	last []store.ChatLine           // the chat as last read, guarded by read
}

// afterRoom is a finished game's rate limits on this node.
type afterRoom struct {
	room *chat.Room
	used time.Time
}

// maxAfterRooms is the number of finished games' rate limits kept before
// those unused for a full refill are dropped: their senders would start
// afresh anyway.
const maxAfterRooms = 1024

// chatReader reads a game's chat from the store.
type chatReader interface {
	Chat(ctx context.Context, id string) (store.Chat, error)
}

func newAfterChats(ctx context.Context, chats chatReader, log *slog.Logger, background func(func())) *afterChats {
	return &afterChats{chats: chats, log: log, ctx: ctx, background: background,
		games: map[string]*followed{}, rooms: map[string]*afterRoom{}}
}

// inRoom runs f with game id's rate limits on this node, at now, under
// the lock.
func (a *afterChats) inRoom(id string, now time.Time, f func(room *chat.Room) error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := a.rooms[id]
	if r == nil {
		if len(a.rooms) >= maxAfterRooms {
			full := time.Duration(chat.DefaultLimits.Burst) * chat.DefaultLimits.Every
			for id, r := range a.rooms {
				if now.Sub(r.used) >= full {
					delete(a.rooms, id)
				}
			}
		}
		r = &afterRoom{room: chat.NewRoom(chat.DefaultLimits)}
		a.rooms[id] = r
	}
	r.used = now
	return f(r.room)
}

// follow makes s, a watcher of finished game id that has read the first
// heard lines of its chat, get the lines that come after.
func (a *afterChats) follow(s *Subscription, id string, heard int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	f := a.games[id]
	if f == nil {
		f = &followed{subs: map[*Subscription]struct{}{}}
		a.games[id] = f
	}
	s.game, s.heard = id, heard
	f.subs[s] = struct{}{}
}

// unfollow ends what follow began.
func (a *afterChats) unfollow(s *Subscription) {
	a.mu.Lock()
	defer a.mu.Unlock()
	f := a.games[s.game]
	if f == nil {
		return
	}
	if _, ok := f.subs[s]; !ok {
		return
	}
	delete(f.subs, s)
	if len(f.subs) == 0 {
		delete(a.games, s.game)
	}
	close(s.chat)
}

// followers returns game id's followed chat, nil when nobody here follows it.
func (a *afterChats) followers(id string) *followed {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.games[id]
}

// closeAll ends every follower's chat (Close).
func (a *afterChats) closeAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for id, f := range a.games {
		for s := range f.subs {
			close(s.chat)
		}
		delete(a.games, id)
	}
}

// read reads finished game id's chat and sends its followers here
// what they have not read: the new lines, and their mutes when they
// changed.
func (a *afterChats) read(ctx context.Context, id string) {
	f := a.followers(id)
	if f == nil {
		return
	}
	f.read.Lock()
	defer f.read.Unlock()
	c, err := a.chats.Chat(ctx, id)
	if err != nil {
		if a.ctx.Err() == nil {
			a.log.Warn("cannot read the chat after the game; it is read again at its next change", "game", id, "err", err)
		}
		return
	}
	room := match.RoomOf(c.Mutes)
	struck := newlyStruck(f.last, c.Lines)
	if f.last == nil {
		struck = newlyStruck(make([]store.ChatLine, len(c.Lines)), c.Lines) // what the game's goroutine may not have sent
	}
	f.last = c.Lines
	a.mu.Lock()
	defer a.mu.Unlock()
	for s := range f.subs {
		lines := heardOf(struck, s.heard)
		if len(c.Lines) > s.heard {
			lines = append(lines, c.Lines[s.heard:]...)
			s.heard = len(c.Lines)
		}
		s.tell(room, lines, true)
	}
}

// changed tells this node's followers of finished game id's chat that
// it changed, without waiting (a store notice).
func (a *afterChats) changed(id string) {
	if a.followers(id) == nil {
		return
	}
	a.background(func() {
		ctx, cancel := context.WithTimeout(a.ctx, commitTimeout)
		defer cancel()
		a.read(ctx, id)
	})
}

// all re-reads the chats followed here: notices may have been lost.
func (a *afterChats) all() {
	a.mu.Lock()
	ids := make([]string, 0, len(a.games))
	for id := range a.games {
		ids = append(ids, id)
	}
	a.mu.Unlock()
	for _, id := range ids {
		a.changed(id)
	}
}

// newlyStruck returns the lines of now that are removed and were not in
// before, the same chat as read earlier.
func newlyStruck(before, now []store.ChatLine) []store.ChatLine {
	var out []store.ChatLine
	for i := range min(len(before), len(now)) {
		if now[i].Removed && !before[i].Removed {
			out = append(out, now[i])
		}
	}
	return out
}

// heardOf returns the lines of struck a follower who heard the first
// heard lines of the chat has heard.
func heardOf(struck []store.ChatLine, heard int) []store.ChatLine {
	var out []store.ChatLine
	for _, m := range struck {
		if m.Seq < heard {
			out = append(out, m)
		}
	}
	return out
}
