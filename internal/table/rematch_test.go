package table

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// finishedGame stores a game played to its end at the pace: a person
// per name (their token is the name's "-token"), a bot per level, in
// seats order ("bot:LEVEL" names a bot).
func finishedGame(t *testing.T, st store.Store, id, paceID string, seats ...string) {
	t.Helper()
	if err := st.CreateGame(t.Context(), playedGame(t, id, paceID, seats...)); err != nil {
		t.Fatal(err)
	}
}

// playedGame is the game finishedGame stores.
func playedGame(t testing.TB, id, paceID string, seats ...string) *store.Game {
	t.Helper()
	p, err := pace.Choose(paceID, false)
	if err != nil {
		t.Fatal(err)
	}
	g := &store.Game{ID: id, Status: store.StatusFinished, Seed: bytes.Repeat([]byte{byte(len(id))}, 32), Moves: []string{}}
	for i, s := range seats {
		if level, ok := strings.CutPrefix(s, "bot:"); ok {
			g.Seats = append(g.Seats, store.Seat{Name: playername.Bot(i, level), Bot: level})
			continue
		}
		g.Seats = append(g.Seats, store.Seat{Name: s, TokenHash: hashToken(s + "-token")})
	}
	setup := razzia.NewSetup(match.PlayerNames(g.Seats), g.Seed)
	g.Cheques = setup.Cheques
	game, err := razzia.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	for !game.Over() {
		played, err := game.Check(bot.Default(game.LegalMoves()))
		if err != nil {
			t.Fatal(err)
		}
		if err := game.Play(played); err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, played.String())
	}
	if g.Clock, err = match.NewTiming(p, len(seats)); err != nil {
		t.Fatal(err)
	}
	return g
}

// storedGame returns the game as stored.
func storedGame(t *testing.T, st store.Store, id string) *store.Game {
	t.Helper()
	g, err := st.Game(t.Context(), id)
	if err != nil {
		t.Fatalf("game %s: %v", id, err)
	}
	return g
}

// TestRematchBotsAccept: a person offers, the bots accept at once, so the
// rematch starts: the same pace, the bots' levels, the person's token
// (a guest's seat carries over), and links both ways.
func TestRematchBotsAccept(t *testing.T) {
	st := memstore.New()
	h := newHub(t, st)
	ctx := testContext(t)
	finishedGame(t, st, "oldgame222", "rapid", "bot:easy", "Ann", "bot:hard")
	offer, err := h.Rematch(ctx, "oldgame222", "Ann-token", true)
	if err != nil {
		t.Fatal(err)
	}
	if offer.State != protocol.RematchStarted || offer.By != 1 || !slices.Equal(offer.Answers, []string{"yes", "yes", "yes"}) {
		t.Fatalf("offer = %+v, want started by seat 1, every seat yes", offer)
	}
	info, seat, err := h.Game(ctx, offer.Game, "Ann-token")
	if err != nil {
		t.Fatal(err)
	}
	if seat != 1 || info.Status != protocol.StatusPlaying || info.RematchOf != "oldgame222" || info.Pace == nil || info.Pace.ID != "rapid" {
		t.Errorf("rematch: seat %d, status %s, rematchOf %q, pace %+v; want seat 1, playing, oldgame222, rapid", seat, info.Status, info.RematchOf, info.Pace)
	}
	var bots []string
	for _, s := range info.Seats {
		bots = append(bots, s.Bot)
	}
	if !slices.Equal(bots, []string{"easy", "", "hard"}) || info.Seats[0].Name != "Bot 1 (easy)" || info.Seats[1].Name != "Ann" {
		t.Errorf("rematch seats = %+v, want Bot 1 (easy), Ann, Bot 3 (hard)", info.Seats)
	}
	old, _, err := h.Game(ctx, "oldgame222", "")
	if err != nil {
		t.Fatal(err)
	}
	if old.Rematch != offer.Game || old.RematchOffer == nil || old.RematchOffer.State != protocol.RematchStarted {
		t.Errorf("old game: rematch %q, offer %+v; want %q, started", old.Rematch, old.RematchOffer, offer.Game)
	}
	meta, err := h.RecordMeta(ctx, "oldgame222")
	if err != nil || meta.Rematch != offer.Game {
		t.Errorf("old record's metadata = %+v, %v; want rematch %q", meta, err, offer.Game)
	}
	if meta, err := h.RecordMeta(ctx, offer.Game); err != nil || meta.RematchOf != "oldgame222" {
		t.Errorf("rematch record's metadata = %+v, %v; want rematchOf oldgame222", meta, err)
	}
}

// TestRematchAnswers: the game starts once every person answered, with
// those who accepted; it lapses when they are fewer than a game needs.
func TestRematchAnswers(t *testing.T) {
	for _, c := range []struct {
		name    string
		seats   []string
		answers map[string]bool // by player, after Ann's offer
		state   string
		players []string // the rematch's
	}{
		{"all accept", []string{"Ann", "Bob", "bot:easy"}, map[string]bool{"Bob": true}, protocol.RematchStarted, []string{"Ann", "Bob", "Bot 3 (easy)"}},
		{"one declines, enough left", []string{"Ann", "Bob", "bot:easy"}, map[string]bool{"Bob": false}, protocol.RematchStarted, []string{"Ann", "Bot 2 (easy)"}},
		{"one declines, too few left", []string{"Ann", "Bob"}, map[string]bool{"Bob": false}, protocol.RematchLapsed, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := memstore.New()
			h := newHub(t, st)
			ctx := testContext(t)
			finishedGame(t, st, "oldgame333", "", c.seats...)
			offer, err := h.Rematch(ctx, "oldgame333", "Ann-token", true)
			if err != nil {
				t.Fatal(err)
			}
			if offer.State != protocol.RematchOpen || !offer.Pending(1) {
				t.Fatalf("offer = %+v, want open, seat 1 to answer", offer)
			}
			if _, err := st.Game(ctx, offer.Game); err == nil {
				t.Fatal("the rematch exists before everyone answered")
			}
			for name, accept := range c.answers {
				if offer, err = h.Rematch(ctx, "oldgame333", name+"-token", accept); err != nil {
					t.Fatal(err)
				}
			}
			if offer.State != c.state {
				t.Fatalf("offer = %+v, want %s", offer, c.state)
			}
			g, err := st.Game(ctx, offer.Game)
			if c.state == protocol.RematchLapsed {
				if err == nil {
					t.Errorf("a lapsed offer created game %s", g.ID)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := match.PlayerNames(g.Seats); !slices.Equal(got, c.players) || g.RematchOf != "oldgame333" {
				t.Errorf("rematch players %q, rematchOf %q; want %q, oldgame333", got, g.RematchOf, c.players)
			}
		})
	}
}

// TestRematchExpires: an offer not answered in time is settled by the
// Hub's timer (an injected clock): with those who accepted, or it lapses.
// A live table's offer waits RematchWait, a correspondence table's its
// decision time.
func TestRematchExpires(t *testing.T) {
	for _, c := range []struct {
		name  string
		pace  string
		seats []string
		wait  time.Duration
		state string
	}{
		{"live, enough accepted", "rapid", []string{"Ann", "Bob", "bot:easy"}, RematchWait, protocol.RematchStarted},
		{"live, too few", "rapid", []string{"Ann", "Bob"}, RematchWait, protocol.RematchLapsed},
		{"correspondence", "day2", []string{"Ann", "Bob"}, 2 * pace.Day, protocol.RematchLapsed},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := memstore.New()
			clk := newFakeClock()
			h := clockHub(t, st, clk)
			ctx := testContext(t)
			finishedGame(t, st, "oldgame444", c.pace, c.seats...)
			feed, err := h.WatchRematch(ctx, "oldgame444")
			if err != nil {
				t.Fatal(err)
			}
			defer feed.Close()
			offer, err := h.Rematch(ctx, "oldgame444", "Ann-token", true)
			if err != nil {
				t.Fatal(err)
			}
			if want := clk.Now().Add(c.wait); !offer.Expires.Equal(want) {
				t.Errorf("offer expires %v, want %v", offer.Expires, want)
			}
			if o := awaitOffer(t, ctx, feed, protocol.RematchOpen); o.Game != offer.Game {
				t.Errorf("feed told %+v, want the offer", o)
			}
			clk.Advance(c.wait - time.Second)
			if g := storedGame(t, st, "oldgame444"); !bytes.Contains(g.Rematch, []byte(`"open"`)) {
				t.Fatalf("the offer settled early: %s", g.Rematch)
			}
			clk.Advance(time.Second)
			awaitOffer(t, ctx, feed, c.state)
			_, err = st.Game(ctx, offer.Game)
			if started := err == nil; started != (c.state == protocol.RematchStarted) {
				t.Errorf("the rematch exists: %t, want %t", started, !started)
			}
			// Bob answers too late: the offer is settled.
			_, err = h.Rematch(ctx, "oldgame444", "Bob-token", true)
			wantKind(t, err, ErrRematch)
		})
	}
}

// awaitOffer returns the first offer the feed tells in the state.
func awaitOffer(t *testing.T, ctx context.Context, feed *RematchFeed, state string) protocol.RematchOffer {
	t.Helper()
	for {
		select {
		case o := <-feed.Offers():
			if o.State == state {
				return o
			}
		case <-ctx.Done():
			t.Fatalf("no %s offer before the deadline", state)
		}
	}
}

// TestRematchRejected: bad rematch requests get clear errors and change
// nothing.
func TestRematchRejected(t *testing.T) {
	st := memstore.New()
	h := newHub(t, st)
	ctx := testContext(t)
	finishedGame(t, st, "oldgame555", "", "Ann", "Bob", "Cy")
	playing, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := h.Join(ctx, playing.ID, 0, Person{Name: "Dee"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.Rematch(ctx, playing.ID, token, true)
	wantKind(t, err, ErrNotOver)
	_, err = h.Rematch(ctx, "oldgame555", "", true)
	wantKind(t, err, ErrNotYourSeat)
	_, err = h.Rematch(ctx, "oldgame555", "not-a-seat", true)
	wantKind(t, err, ErrNotYourSeat)
	_, err = h.Rematch(ctx, "oldgame555", "Bob-token", false)
	wantKind(t, err, ErrRematch) // nothing to decline
	_, err = h.Rematch(ctx, "nosuchgame", "Ann-token", true)
	wantKind(t, err, ErrNotFound)
	// A tournament's game: the tournament seats its players again.
	tour := playedGame(t, "tourgame55", "rapid", "Ann", "Bob")
	tour.Clock = []byte(strings.Replace(string(tour.Clock), "{", `{"tournament":true,`, 1))
	if err := st.CreateGame(ctx, tour); err != nil {
		t.Fatal(err)
	}
	_, err = h.Rematch(ctx, "tourgame55", "Ann-token", true)
	wantKind(t, err, match.ErrTournamentRematch)
	if g := storedGame(t, st, "tourgame55"); g.Rematch != nil {
		t.Fatalf("a tournament's game stored an offer: %s", g.Rematch)
	}
	if g := storedGame(t, st, "oldgame555"); g.Rematch != nil {
		t.Fatalf("refused requests stored an offer: %s", g.Rematch)
	}

	if _, err := h.Rematch(ctx, "oldgame555", "Ann-token", true); err != nil {
		t.Fatal(err)
	}
	before := storedGame(t, st, "oldgame555").Rematch
	_, err = h.Rematch(ctx, "oldgame555", "Ann-token", true)
	wantKind(t, err, ErrRematch) // offered twice
	if _, err := h.Rematch(ctx, "oldgame555", "Bob-token", false); err != nil {
		t.Fatal(err)
	}
	_, err = h.Rematch(ctx, "oldgame555", "Bob-token", true)
	wantKind(t, err, ErrRematch) // answered twice
	if _, err := h.Rematch(ctx, "oldgame555", "Cy-token", false); err != nil {
		t.Fatal(err)
	}
	settled := storedGame(t, st, "oldgame555").Rematch
	if bytes.Equal(before, settled) || !bytes.Contains(settled, []byte(`"lapsed"`)) {
		t.Fatalf("offer %s, want lapsed", settled)
	}
	_, err = h.Rematch(ctx, "oldgame555", "Bob-token", true)
	wantKind(t, err, ErrRematch) // one offer per game
	if got := storedGame(t, st, "oldgame555").Rematch; !bytes.Equal(got, settled) {
		t.Errorf("a refused offer changed the stored one: %s, was %s", got, settled)
	}
}

// TestRematchAccountSeat: a signed-in player's rematch seat holds the
// account's token for the new game (Options.SeatToken), not the old one.
func TestRematchAccountSeat(t *testing.T) {
	st := memstore.New()
	o := testOptions(t)
	o.SeatToken = func(_ context.Context, account, game string) (string, error) {
		return fmt.Sprintf("%s@%s", account, game), nil
	}
	h := New(st, o)
	t.Cleanup(func() { h.Close() })
	ctx := testContext(t)
	finishedGame(t, st, "oldgame666", "", "Ann", "bot:easy")
	g := storedGame(t, st, "oldgame666")
	// Ann signed in: her seat is her account's.
	g.ID, g.Seats[0].Account = "oldgame667", "acct-ann"
	if err := st.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	offer, err := h.Rematch(ctx, "oldgame667", "Ann-token", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, seat, _ := h.Game(ctx, offer.Game, "acct-ann@"+offer.Game); seat != 0 {
		t.Errorf("the account's token for the rematch holds seat %d, want 0", seat)
	}
	if _, seat, _ := h.Game(ctx, offer.Game, "Ann-token"); seat != -1 {
		t.Errorf("the old game's token holds seat %d of the rematch, want none", seat)
	}
}

// TestRematchNodes: the offer is made on one node and answered on
// another; each node's watchers hear of every change, and the rematch
// starts once. The nodes share a memstore, or each has its own
// connection to one PostgreSQL database.
func TestRematchNodes(t *testing.T) { onNodeStores(t, rematchNodes) }

// rematchNodes runs TestRematchNodes with the store of each node from open.
func rematchNodes(t *testing.T, open func(t *testing.T) store.Store) {
	sa, sb := open(t), open(t)
	a, b := nodeHub(t, sa), nodeHub(t, sb)
	ctx := testContext(t)
	finishedGame(t, sa, "oldgame777", "", "Ann", "Bob", "bot:easy")
	feedA, err := a.WatchRematch(ctx, "oldgame777")
	if err != nil {
		t.Fatal(err)
	}
	defer feedA.Close()
	feedB, err := b.WatchRematch(ctx, "oldgame777")
	if err != nil {
		t.Fatal(err)
	}
	defer feedB.Close()
	if _, err := a.Rematch(ctx, "oldgame777", "Ann-token", true); err != nil {
		t.Fatal(err)
	}
	if o := awaitOffer(t, ctx, feedB, protocol.RematchOpen); !o.Pending(1) {
		t.Errorf("node b was told %+v, want Bob to answer", o)
	}
	offer, err := b.Rematch(ctx, "oldgame777", "Bob-token", true)
	if err != nil {
		t.Fatal(err)
	}
	awaitOffer(t, ctx, feedA, protocol.RematchStarted)
	awaitOffer(t, ctx, feedB, protocol.RematchStarted)
	// Either node serves the rematch to Ann, whose seat carried over.
	for _, h := range []*Hub{a, b} {
		if _, seat, err := h.Game(ctx, offer.Game, "Ann-token"); err != nil || seat != 0 {
			t.Errorf("node %s: Ann's seat at the rematch = %d, %v; want 0", h.Node(), seat, err)
		}
	}
}
