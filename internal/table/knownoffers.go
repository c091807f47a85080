package table

import (
	"sync"

	"github.com/razziagame/razzia/internal/protocol"
)

// knownOffers are the rematch offers of finished games as this node last
// read them, or as the owner knew them when it ended a game (none), so
// that the watchers of a game's end, every seat's at once, do not each
// read the whole game. An entry is begun before the read (or the commit
// that ends the game) it is filled from, and the notice of any change of
// the game's offer drops it: an entry still there when it is filled was
// current when its read began, and stays current until the next notice.
// It holds at most max entries; one dropped is read again.
type knownOffers struct {
	mu   sync.Mutex
	max  int
	byID map[string]*knownOffer
}

// A knownOffer is a game's offer once ready: nil for none.
type knownOffer struct {
	ready bool
	offer *protocol.RematchOffer
}

// knownOffersMax bounds the entries: the games that ended lately on this
// node and whose end nobody here watched stay until dropped for others.
const knownOffersMax = 4096

func newKnownOffers(max int) *knownOffers {
	return &knownOffers{max: max, byID: map[string]*knownOffer{}}
}

// begin returns game id's entry to fill, begun now unless one is waiting
// for its read already (a read begun later is as current); nil if the
// offer is known.
func (k *knownOffers) begin(id string) *knownOffer {
	k.mu.Lock()
	defer k.mu.Unlock()
	e := k.byID[id]
	switch {
	case e != nil && e.ready:
		return nil
	case e != nil:
		return e
	}
	for other := range k.byID {
		if len(k.byID) < k.max {
			break
		}
		delete(k.byID, other)
	}
	e = &knownOffer{}
	k.byID[id] = e
	return e
}

// fill makes e, begun for game id, ready with offer (nil: none), unless
// a notice dropped it since.
func (k *knownOffers) fill(id string, e *knownOffer, offer *protocol.RematchOffer) {
	if e == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byID[id] == e {
		e.offer, e.ready = offer, true
	}
}

// get returns game id's offer (nil: none), if it is known.
func (k *knownOffers) get(id string) (*protocol.RematchOffer, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e := k.byID[id]
	if e == nil || !e.ready {
		return nil, false
	}
	return e.offer, true
}

// drop forgets game id's offer: it changed.
func (k *knownOffers) drop(id string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.byID, id)
}

// clear forgets every offer: notices may have been lost.
func (k *knownOffers) clear() {
	k.mu.Lock()
	defer k.mu.Unlock()
	clear(k.byID)
}
