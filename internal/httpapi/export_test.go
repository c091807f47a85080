package httpapi

import (
	"os"
	"sync"
	"testing"
)

// MaxMessage is the largest WebSocket message a client may send, for the
// tests of the package httpapi_test.
const MaxMessage = maxMessage

// StateMessage is stateMessage, for the benchmarks of httpapi_test.
var StateMessage = stateMessage

// Compressible is compressible, for the tests of httpapi_test.
var Compressible = compressible

// RatingSVG draws a rating history (chart.go).
var RatingSVG = ratingSVG

// SetTournamentSocketOpen sets the function called as a tournament's
// socket opens, before it follows the changes; nil unsets it.
func SetTournamentSocketOpen(f func(id string)) { tournamentSocketOpen = f }

// A Gate holds up one WebSocket's writes as a peer that reads nothing
// would: while stopped, its socket takes nothing at once, and the
// connection's flusher waits until it opens (or fails).
type Gate struct {
	socket
	mu      sync.Mutex
	stopped bool
	opened  chan struct{} // closed by Open or Fail
	err     error         // Fail's
}

// SetSocketGates sends the Gate of each WebSocket accepted from now on
// to gates, and undoes it when the test ends.
func SetSocketGates(t *testing.T, gates chan<- *Gate) {
	wrap := func(s socket) socket {
		g := &Gate{socket: s, opened: make(chan struct{})}
		gates <- g
		return g
	}
	wrapSocket.Store(&wrap)
	t.Cleanup(func() { wrapSocket.Store(nil) })
}

// Stop stops the peer's reading: the socket takes nothing more.
func (g *Gate) Stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = true
}

// Open lets the peer read again: the flusher's write goes on.
func (g *Gate) Open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = false
	close(g.opened)
}

// Fail fails the flusher's writes from now on, as a peer that read
// nothing until their deadline does; the socket still takes nothing.
func (g *Gate) Fail() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.err = os.ErrDeadlineExceeded
	close(g.opened)
}

func (g *Gate) tryWrite(p []byte) (int, error) {
	g.mu.Lock()
	stopped := g.stopped
	g.mu.Unlock()
	if stopped {
		return 0, nil
	}
	return g.socket.tryWrite(p)
}

func (g *Gate) writeAll(p []byte) error {
	g.mu.Lock()
	stopped := g.stopped
	g.mu.Unlock()
	if stopped {
		<-g.opened
		if g.err != nil {
			return g.err
		}
	}
	return g.socket.writeAll(p)
}
