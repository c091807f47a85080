package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The checks of a table's life before its game: its creator, players
// removed (FreeSeat) and tables closed unplayed (CloseTable).

func testCreator(t *testing.T, s store.Store) {
	with := newGame("creator001", store.StatusOpen, 0)
	with.CreatorHash = hash(0xc0)
	without := newGame("creator002", store.StatusArchived, time.Minute)
	create(t, s, with)
	create(t, s, without)
	checkGame(t, s, with)
	checkGame(t, s, without) // nil stays nil
	// The creator's hash outlives the table's changes.
	if err := s.TakeSeat(ctx(t), with.ID, store.NoFence, 0, store.Seat{Name: "Bo", TokenHash: hash(0xb0)}, store.StatusPlaying); err != nil {
		t.Fatal(err)
	}
	if got := get(t, s, with.ID); !got.Equal(&store.Game{ID: got.ID, Status: got.Status, Seats: got.Seats, Cheques: got.Cheques,
		Seed: got.Seed, Moves: got.Moves, Created: got.Created, Updated: got.Updated, CreatorHash: hash(0xc0)}) {
		t.Errorf("after TakeSeat the creator hash is %x, want %x", got.CreatorHash, hash(0xc0))
	}
}

func testFreeSeat(t *testing.T, s store.Store) {
	ch := subscribe(t, s, store.ChangesChannel)
	g := newGame("freeseat01", store.StatusOpen, 0)
	create(t, s, g)
	nextChange(t, ch) // created
	// Ann (seat 2) is removed: her seat is open again, and can be taken.
	if err := s.FreeSeat(ctx(t), g.ID, store.NoFence, 2); err != nil {
		t.Fatalf("FreeSeat(2): %v", err)
	}
	got := get(t, s, g.ID)
	if !got.Updated.After(g.Updated) {
		t.Errorf("FreeSeat: Updated %v, want after %v", got.Updated, g.Updated)
	}
	g.Seats[2], g.Updated = store.Seat{}, got.Updated
	checkGame(t, s, g)
	if c, want := nextChange(t, ch), (store.Change{Game: g.ID, Kind: store.ChangeSeat, Status: store.StatusOpen}); c != want {
		t.Errorf("change %+v, want %+v", c, want)
	}
	if err := s.TakeSeat(ctx(t), g.ID, store.NoFence, 2, store.Seat{Name: "Cy", TokenHash: hash(0xc1)}, store.StatusOpen); err != nil {
		t.Fatalf("TakeSeat of the freed seat: %v", err)
	}
	g.Seats[2] = store.Seat{Name: "Cy", TokenHash: hash(0xc1)}
	g.Updated = get(t, s, g.ID).Updated
	checkGame(t, s, g)
}

func testFreeSeatRejected(t *testing.T, s store.Store) {
	g := newGame("freeseat02", store.StatusOpen, 0)
	create(t, s, g)
	playing := newGame("freeseat03", store.StatusPlaying, 0)
	create(t, s, playing)
	cases := []struct {
		name string
		game *store.Game
		seat int
		want error
	}{
		{"an open seat", g, 0, store.ErrConflict},
		{"a bot's seat", g, 1, store.ErrConflict},
		{"seat -1", g, -1, store.ErrNotFound},
		{"seat past the end", g, 3, store.ErrNotFound},
		{"a game under way", playing, 2, store.ErrConflict},
		{"an unknown game", &store.Game{ID: "nosuchgame"}, 2, store.ErrNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := s.FreeSeat(ctx(t), c.game.ID, store.NoFence, c.seat); !errors.Is(err, c.want) {
				t.Errorf("FreeSeat = %v, want %v", err, c.want)
			}
			if c.game.Seats != nil {
				checkGame(t, s, c.game) // nothing changed, Updated included
			}
		})
	}
	// A lease held by a node fences out a write without it.
	l := acquire(t, s, g.ID, "node-a", longTTL)
	if err := s.FreeSeat(ctx(t), g.ID, store.NoFence, 2); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("FreeSeat without the lease = %v, want ErrLeaseLost", err)
	}
	if err := s.FreeSeat(ctx(t), g.ID, l.Fence, 2); err != nil {
		t.Errorf("FreeSeat with the lease: %v", err)
	}
}

func testSetSeatBot(t *testing.T, s store.Store) {
	ch := subscribe(t, s, store.ChangesChannel)
	g := newGame("seatbot001", store.StatusOpen, 0)
	create(t, s, g)
	nextChange(t, ch) // created
	// The creator makes the bot of seat 1 an easy one.
	easy := store.Seat{Name: "Bot 2 (easy)", Bot: "easy"}
	if err := s.SetSeatBot(ctx(t), g.ID, store.NoFence, 1, easy); err != nil {
		t.Fatalf("SetSeatBot(1): %v", err)
	}
	got := get(t, s, g.ID)
	if !got.Updated.After(g.Updated) {
		t.Errorf("SetSeatBot: Updated %v, want after %v", got.Updated, g.Updated)
	}
	g.Seats[1], g.Updated = easy, got.Updated
	checkGame(t, s, g)
	if c, want := nextChange(t, ch), (store.Change{Game: g.ID, Kind: store.ChangeSeat, Status: store.StatusOpen}); c != want {
		t.Errorf("change %+v, want %+v", c, want)
	}
}

// errUnfit stands for any error: a seat no store may write.
var errUnfit = errors.New("any error")

func testSetSeatBotRejected(t *testing.T, s store.Store) {
	g := newGame("seatbot002", store.StatusOpen, 0)
	create(t, s, g)
	playing := newGame("seatbot003", store.StatusPlaying, 0)
	create(t, s, playing)
	easy := store.Seat{Name: "Bot 2 (easy)", Bot: "easy"}
	cases := []struct {
		name string
		game *store.Game
		seat int
		bot  store.Seat
		want error
	}{
		{"an open seat", g, 0, easy, store.ErrConflict},
		{"a person's seat", g, 2, easy, store.ErrConflict},
		{"seat -1", g, -1, easy, store.ErrNotFound},
		{"seat past the end", g, 3, easy, store.ErrNotFound},
		{"a game under way", playing, 1, easy, store.ErrConflict},
		{"an unknown game", &store.Game{ID: "nosuchgame"}, 1, easy, store.ErrNotFound},
		{"no bot", g, 1, store.Seat{Name: "Bot 2"}, errUnfit},
		{"no name", g, 1, store.Seat{Bot: "easy"}, errUnfit},
		{"a token", g, 1, store.Seat{Name: "Bot 2 (easy)", Bot: "easy", TokenHash: hash(0xb1)}, errUnfit},
		{"an account", g, 1, store.Seat{Name: "Bot 2 (easy)", Bot: "easy", Account: "acct"}, errUnfit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := s.SetSeatBot(ctx(t), c.game.ID, store.NoFence, c.seat, c.bot)
			if c.want == errUnfit && err == nil || c.want != errUnfit && !errors.Is(err, c.want) {
				t.Errorf("SetSeatBot = %v, want %v", err, c.want)
			}
			if c.game.Seats != nil {
				checkGame(t, s, c.game) // nothing changed, Updated included
			}
		})
	}
	// A lease held by a node fences out a write without it.
	l := acquire(t, s, g.ID, "node-a", longTTL)
	if err := s.SetSeatBot(ctx(t), g.ID, store.NoFence, 1, easy); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("SetSeatBot without the lease = %v, want ErrLeaseLost", err)
	}
	if err := s.SetSeatBot(ctx(t), g.ID, l.Fence, 1, easy); err != nil {
		t.Errorf("SetSeatBot with the lease: %v", err)
	}
}

func testCloseTable(t *testing.T, s store.Store) {
	ch := subscribe(t, s, store.ChangesChannel)
	g := newGame("closed0001", store.StatusOpen, 0)
	create(t, s, g)
	nextChange(t, ch) // created
	if err := s.CloseTable(ctx(t), g.ID, store.NoFence, store.StatusOpen); err == nil {
		t.Error("CloseTable with status open succeeded")
	}
	if err := s.CloseTable(ctx(t), g.ID, store.NoFence, store.StatusFinished); err == nil {
		t.Error("CloseTable with status finished succeeded")
	}
	checkGame(t, s, g)
	if err := s.CloseTable(ctx(t), g.ID, store.NoFence, store.StatusExpired); err != nil {
		t.Fatalf("CloseTable: %v", err)
	}
	got := get(t, s, g.ID)
	if !got.Updated.After(g.Updated) {
		t.Errorf("CloseTable: Updated %v, want after %v", got.Updated, g.Updated)
	}
	g.Status, g.Updated = store.StatusExpired, got.Updated
	checkGame(t, s, g) // the seats are kept: who waited at the table
	if c, want := nextChange(t, ch), (store.Change{Game: g.ID, Kind: store.ChangeClosed, Status: store.StatusExpired}); c != want {
		t.Errorf("change %+v, want %+v", c, want)
	}
	for st, want := range map[store.Status]int{store.StatusOpen: 0, store.StatusExpired: 1} {
		if sums, err := s.List(ctx(t), st, 0); err != nil || len(sums) != want {
			t.Errorf("List(%s) = %d games, %v; want %d", st, len(sums), err, want)
		}
	}
	if ids, err := s.Unowned(ctx(t), 0); err != nil || len(ids) != 0 {
		t.Errorf("Unowned = %v, %v; an expired table is not live", ids, err)
	}
	for _, st := range []store.Status{store.StatusPlaying, store.StatusFinished, store.StatusArchived} {
		h := newGame("closed_"+string(st)[:3], st, 0)
		create(t, s, h)
		if err := s.CloseTable(ctx(t), h.ID, store.NoFence, store.StatusExpired); !errors.Is(err, store.ErrConflict) {
			t.Errorf("CloseTable of a %s game = %v, want ErrConflict", st, err)
		}
		checkGame(t, s, h)
	}
	if err := s.CloseTable(ctx(t), "nosuchgame", store.NoFence, store.StatusExpired); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("CloseTable of an unknown game = %v, want ErrNotFound", err)
	}
}

func testClosedTableRefusesWrites(t *testing.T, s store.Store) {
	g := newGame("closed0002", store.StatusExpired, 0)
	create(t, s, g)
	if err := s.TakeSeat(ctx(t), g.ID, store.NoFence, 0, store.Seat{Name: "Bo", TokenHash: hash(0xb0)}, store.StatusPlaying); !errors.Is(err, store.ErrConflict) {
		t.Errorf("TakeSeat at an expired table = %v, want ErrConflict", err)
	}
	if err := s.FreeSeat(ctx(t), g.ID, store.NoFence, 2); !errors.Is(err, store.ErrConflict) {
		t.Errorf("FreeSeat at an expired table = %v, want ErrConflict", err)
	}
	if err := s.AppendMove(ctx(t), g.ID, store.NoFence, 0, "draw", store.StatusPlaying); !errors.Is(err, store.ErrConflict) {
		t.Errorf("AppendMove to an expired table = %v, want ErrConflict", err)
	}
	if _, err := s.AcquireLease(ctx(t), g.ID, "node-a", longTTL); !errors.Is(err, store.ErrConflict) {
		t.Errorf("AcquireLease of an expired table = %v, want ErrConflict", err)
	}
	checkGame(t, s, g)
}
