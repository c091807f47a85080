package httpapi_test

import (
	"testing"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
)

// A gatedTable is a game of Ann and Bob, each on a connection of
// protocol version 1, and a spectator of version 2 whose socket the test
// holds up (its Gate).
type gatedTable struct {
	e         *env
	players   [2]*client // by seat
	last      [2]message // the state each read last
	spectator *client
	gate      *httpapi.Gate
}

func newGatedTable(t *testing.T) *gatedTable {
	e := newEnv(t, httpapi.Options{})
	g := &gatedTable{e: e}
	id := e.create("", "")
	var tokens [2]string
	for _, name := range []string{"Ann", "Bob"} {
		seat, token := e.join(id, name)
		tokens[seat] = token
	}
	for seat, token := range tokens {
		g.players[seat] = e.dial(id, "Authorization", "Bearer "+token)
	}
	for seat, c := range g.players {
		g.last[seat] = c.read()
		if g.last[seat].View == nil {
			t.Fatalf("seat %d's first message: %s", seat, g.last[seat].raw)
		}
	}
	gates := make(chan *httpapi.Gate, 1)
	httpapi.SetSocketGates(t, gates)
	g.spectator = e.dial(id + "?protocol=2")
	g.gate = <-gates
	g.spectator.read()
	return g
}

// play plays the first legal move of the seat to move, and reads each
// player's state after it.
func (g *gatedTable) play(t *testing.T) {
	t.Helper()
	v := g.last[0].View
	mover := g.last[v.ToMove].View
	g.players[v.ToMove].send(moveMessage(mover.Legal[0], v.Moves))
	for seat, c := range g.players {
		m := c.read()
		if m.Type != protocol.TypeState || m.View.Moves != v.Moves+1 {
			t.Fatalf("seat %d read after move %d: %s", seat, v.Moves+1, m.raw)
		}
		g.last[seat] = m
	}
}

// TestSlowPeerHoldsUpNoOne: a spectator whose socket takes nothing holds
// up neither the game nor the players, who play on; once it reads again,
// it receives the changes in order (each patch of the state before) up
// to the last.
func TestSlowPeerHoldsUpNoOne(t *testing.T) {
	g := newGatedTable(t)
	g.gate.Stop()
	for range 6 {
		g.play(t)
	}
	g.gate.Open()
	want := g.last[0].View.Moves
	version := g.spectator.version
	for {
		m := g.spectator.read() // a patch of another state than the last fails
		if g.spectator.version <= version {
			t.Fatalf("version %d after %d: %s", g.spectator.version, version, m.raw)
		}
		version = g.spectator.version
		if m.View.Moves == want {
			break
		}
	}
}

// TestSlowPeerCutOff: a spectator whose socket takes nothing until its
// write's deadline is cut off; the players play on.
func TestSlowPeerCutOff(t *testing.T) {
	g := newGatedTable(t)
	g.gate.Stop()
	g.play(t)
	g.gate.Fail()
	for {
		if _, _, err := g.spectator.c.Read(g.e.ctx); err != nil {
			break // closed
		}
	}
	if g.e.ctx.Err() != nil {
		t.Fatal("the spectator's connection was not closed")
	}
	g.play(t)
}
