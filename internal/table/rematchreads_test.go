package table

import (
	"context"
	"sync"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// watchRematch watches game id's rematch n times, and returns the feeds
// with the offer each had at once (nil: none).
func watchRematch(t *testing.T, h *Hub, id string, n int) ([]*RematchFeed, []*protocol.RematchOffer) {
	t.Helper()
	var (
		feeds  []*RematchFeed
		offers []*protocol.RematchOffer
	)
	for range n {
		f, err := h.WatchRematch(testContext(t), id)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(f.Close)
		feeds = append(feeds, f)
		select {
		case o := <-f.Offers():
			offers = append(offers, &o)
		default:
			offers = append(offers, nil)
		}
	}
	return feeds, offers
}

// TestRematchWatchersAtTheEnd: the players who watch for a rematch offer
// as the game they played here ends do not read the game (the node that
// ended it knows it has none yet); an offer made then reaches them, and a
// watcher who comes after it gets it at once.
func TestRematchWatchersAtTheEnd(t *testing.T) {
	ctx := testContext(t)
	st := &readCounter{Store: memstore.New()}
	h := newHub(t, st)
	id, tokens := seatAnnAndBob(t, h)
	playAlongBoth(t, h, id, tokens)
	st.games.Store(0)
	feeds, offers := watchRematch(t, h, id, 4)
	if n := st.games.Load(); n != 0 {
		t.Errorf("4 watchers at the end read the game %d times, want 0", n)
	}
	for i, o := range offers {
		if o != nil {
			t.Errorf("watcher %d was told %+v, want no offer yet", i, *o)
		}
	}
	offer, err := h.Rematch(ctx, id, tokens[0], true)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range feeds {
		awaitOffer(t, ctx, f, protocol.RematchOpen)
	}
	_, offers = watchRematch(t, h, id, 1)
	if o := offers[0]; o == nil || o.State != protocol.RematchOpen || o.Game != offer.Game {
		t.Errorf("a watcher after the offer was told %+v, want the open offer %+v", o, offer)
	}
}

// TestRematchWatchersReadOnce: the watchers of a game that ended
// elsewhere (another node, a past process) read it once between them.
func TestRematchWatchersReadOnce(t *testing.T) {
	st := &readCounter{Store: memstore.New()}
	h := newHub(t, st)
	finishedGame(t, st, "oldgamerrr", "rapid", "Ann", "Bob", "Cy", "Dee")
	st.games.Store(0)
	watchRematch(t, h, "oldgamerrr", 4)
	if n := st.games.Load(); n != 1 {
		t.Errorf("4 watchers read the game %d times, want once", n)
	}
}

// TestRematchKnownAcrossNodes: what a node knows of an offer (none, as
// the game ended on it, or as it read it for its watchers) gives way to
// an offer made on another node: the watchers of both are told, and a
// watcher who comes later to either gets it at once.
func TestRematchKnownAcrossNodes(t *testing.T) { onNodeStores(t, rematchKnownAcrossNodes) }

func rematchKnownAcrossNodes(t *testing.T, open func(t *testing.T) store.Store) {
	a, b := nodeHub(t, open(t)), nodeHub(t, open(t))
	ctx := testContext(t)
	id, tokens := seatAnnAndBob(t, a)
	playAlongBoth(t, a, id, tokens)
	feedsA, _ := watchRematch(t, a, id, 2)
	feedsB, _ := watchRematch(t, b, id, 2)
	offer, err := b.Rematch(ctx, id, tokens[1], true)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(feedsA, feedsB...) {
		awaitOffer(t, ctx, f, protocol.RematchOpen)
	}
	for _, h := range []*Hub{a, b} {
		if _, offers := watchRematch(t, h, id, 1); offers[0] == nil || offers[0].Game != offer.Game {
			t.Errorf("node %s: a watcher after the offer was told %+v, want %+v", h.Node(), offers[0], offer)
		}
	}
}

// TestKnownOffersBounded: the offers known are at most their bound; one
// dropped for room is read again (its fill does nothing).
func TestKnownOffersBounded(t *testing.T) {
	k := newKnownOffers(2)
	begun := map[string]*knownOffer{}
	for _, id := range []string{"gameaaaaaa", "gamebbbbbb", "gamecccccc"} {
		begun[id] = k.begin(id)
	}
	if len(k.byID) > 2 {
		t.Fatalf("%d offers known, want at most 2", len(k.byID))
	}
	known := 0
	for id, e := range begun {
		k.fill(id, e, nil)
		if _, ok := k.get(id); ok {
			known++
		}
	}
	if known != 2 {
		t.Errorf("%d offers known after three were filled, want the 2 kept", known)
	}
	for id := range begun {
		if _, ok := k.get(id); ok && k.begin(id) != nil {
			t.Errorf("%s: begin of a known offer returned an entry to fill", id)
		}
	}
}

// gatedGame holds the next read of a game, once armed, after it read
// the store: until gate is closed, having closed began.
type gatedGame struct {
	store.Store
	mu          sync.Mutex
	gate, began chan struct{}
}

func (s *gatedGame) Game(ctx context.Context, id string) (*store.Game, error) {
	g, err := s.Store.Game(ctx, id)
	s.mu.Lock()
	gate, began := s.gate, s.began
	s.gate = nil
	s.mu.Unlock()
	if gate != nil {
		close(began)
		<-gate
	}
	return g, err
}

// TestRematchReadsKeepTheNewer: of two reads of an offer, the one begun
// first may end last; the older offer it read does not replace the newer
// in the watchers' feeds.
func TestRematchReadsKeepTheNewer(t *testing.T) {
	ctx := testContext(t)
	st := &gatedGame{Store: memstore.New()}
	h := newHub(t, st)
	finishedGame(t, st, "oldgame444", "", "Ann", "Bob")
	feeds, _ := watchRematch(t, h, "oldgame444", 1)
	if _, err := h.Rematch(ctx, "oldgame444", "Ann-token", true); err != nil {
		t.Fatal(err)
	}
	awaitOffer(t, ctx, feeds[0], protocol.RematchOpen)
	gate, began, told := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	st.mu.Lock()
	st.gate, st.began = gate, began
	st.mu.Unlock()
	go func() { told <- h.rematches.tell(ctx, "oldgame444") }() // reads the open offer, held
	<-began
	if _, err := h.Rematch(ctx, "oldgame444", "Bob-token", false); err != nil {
		t.Fatal(err)
	}
	awaitOffer(t, ctx, feeds[0], protocol.RematchLapsed)
	close(gate)
	if err := <-told; err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-feeds[0].Offers():
		t.Errorf("the feed was told %s after %s", o.State, protocol.RematchLapsed)
	default:
	}
}
