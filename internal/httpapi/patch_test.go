package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
)

// keep keeps the state of a whole state message of protocol version 2.
func (c *client) keep(data []byte, version int64) {
	c.t.Helper()
	if version == 0 {
		return
	}
	doc, err := protocol.StateOf(nil, data)
	if err != nil {
		c.t.Fatal(err)
	}
	c.doc, c.version = doc, version
}

// patched applies a patch message to the state and returns the new state
// message; the server never sends a patch of another state than the last.
func (c *client) patched(data []byte) protocol.Message {
	c.t.Helper()
	p, err := protocol.ParsePatch(data)
	if err != nil {
		c.t.Fatalf("%v: %s", err, data)
	}
	if c.doc == nil || p.Base != c.version || p.Version <= p.Base {
		c.t.Fatalf("a patch of version %d from %d, the connection's state is version %d: %s", p.Version, p.Base, c.version, data)
	}
	doc, err := protocol.AppendPatched(nil, c.doc, p.Patch)
	if err != nil {
		c.t.Fatalf("%v: %s", err, data)
	}
	var m protocol.Message
	if err := json.Unmarshal(doc, &m); err != nil {
		c.t.Fatalf("%v: %s", err, doc)
	}
	if err := protocol.Expand(&m, doc); err != nil {
		c.t.Fatalf("%v: %s", err, doc)
	}
	if err := json.Unmarshal(p.Events, &m.Events); err != nil {
		c.t.Fatal(err)
	}
	c.doc, c.version = doc, p.Version
	return m
}

// TestProtocolVersions: a client states the versions it speaks; the server
// speaks the newest it knows, version 1 (a whole state after every change)
// when none is stated, and refuses a list of none it knows, naming those it
// speaks.
func TestProtocolVersions(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id, moverToken, _, _, _ := twoPlayers(t, e)
	for _, bad := range []string{"9", "x", "0,3"} {
		_, resp, err := e.dialErr(id + "?protocol=" + bad)
		if err == nil || resp == nil || resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("protocol=%s: %v, %v; want 400", bad, err, resp)
		}
		var body protocol.ErrorBody
		json.NewDecoder(resp.Body).Decode(&body)
		if body.Error == nil || body.Error.Code != protocol.UnsupportedVersion || !strings.Contains(body.Error.Message, "speaks versions 1, 2") {
			t.Errorf("protocol=%s: %+v, want unsupported_version naming 1, 2", bad, body.Error)
		}
	}
	old, v1, v2 := e.dial(id, "Cookie", "razzia_"+id+"="+moverToken), e.dial(id+"?protocol=1"), e.dial(id+"?protocol=1,2")
	for _, c := range []*client{old, v1} {
		if m := c.read(); m.Type != protocol.TypeState || m.Version != 0 || bytes.Contains(m.raw, []byte(`"version"`)) {
			t.Errorf("version 1: %s", m.raw)
		}
	}
	first := v2.read()
	if first.Type != protocol.TypeState || first.Version == 0 {
		t.Fatalf("version 2's first message: %s", first.raw)
	}
	old.send(moveMessage("draw", 0))
	for _, c := range []*client{old, v1} {
		if m := c.read(); m.Type != protocol.TypeState || m.View.Moves != 1 {
			t.Errorf("version 1 after a move: %s", m.raw)
		}
	}
	m := v2.read()
	// Its events come untold: the client tells them.
	if !bytes.HasPrefix(m.raw, []byte(`{"type":"patch",`)) || m.View.Moves != 1 || len(m.Events) == 0 || m.Events[0].Text != "" {
		t.Errorf("version 2 after a move: %s gives %+v", m.raw, m.Message)
	}
	if len(m.raw) > len(first.raw)/3 {
		t.Errorf("a patch of %d bytes for a state of %d", len(m.raw), len(first.raw))
	}
}

// TestResync: a client of version 2 that asks for the whole state gets it,
// with every event of the game, as on connecting; a malformed request, or
// one of a version-1 connection, is refused; so are requests beyond the
// connection's bound, while moves go on.
func TestResync(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id, moverToken, _, _, _ := twoPlayers(t, e)
	mover, v1 := e.dial(id+"?protocol=2", "Cookie", "razzia_"+id+"="+moverToken), e.dial(id)
	first := mover.read()
	v1.read()
	mover.send(moveMessage("draw", 0))
	mover.read()
	mover.send(`{"type":"resync"}`)
	m := mover.read()
	if m.Type != protocol.TypeState || m.Version == 0 || m.View.Moves != 1 || len(m.Events) < len(first.Events)+1 {
		t.Fatalf("after a resync: %s", m.raw)
	}
	mover.send(`{"type":"resync","all":true}`)
	mover.wantError(protocol.BadMessage)
	v1.send(`{"type":"resync"}`)
	v1.wantError(protocol.BadMessage)
	limited := false
	for range 5 {
		mover.send(`{"type":"resync"}`)
		if m := mover.read(); m.Type == protocol.TypeError {
			if m.Code != protocol.RateLimited || m.RetryAfter < 1 {
				t.Fatalf("refused: %s", m.raw)
			}
			limited = true
			break
		}
	}
	if !limited {
		t.Error("a resync storm was never refused")
	}
}

// TestNoSecretsInPatches: in protocol version 2 no patch of a whole game
// shows a secret (the deck's seed), a spectator's states are a
// spectator's and a player's never show the other's legal moves.
func TestNoSecretsInPatches(t *testing.T) {
	e := newEnv(t, httpapi.Options{MessageRate: 1e6, MessageBurst: 1e6})
	id := e.create("", "")
	_, t0 := e.join(id, "Ann")
	_, t1 := e.join(id, "Bob")
	stored, _ := e.Store.Game(e.ctx, id)
	secrets := []string{hex.EncodeToString(stored.Seed), base64.StdEncoding.EncodeToString(stored.Seed), `"seed"`}
	conns := []*client{e.dial(id+"?protocol=2", "Authorization", "Bearer "+t0),
		e.dial(id+"?protocol=2", "Authorization", "Bearer "+t1), e.dial(id + "?protocol=2")}
	patches := 0
	for over := false; !over; {
		var move string
		seq, by := 0, -1
		for i, c := range conns {
			m := c.read()
			for _, s := range secrets {
				if bytes.Contains(bytes.ToLower(m.raw), bytes.ToLower([]byte(s))) {
					t.Fatalf("the message shows %q: %s", s, m.raw)
				}
			}
			if bytes.HasPrefix(m.raw, []byte(`{"type":"patch"`)) {
				patches++
			}
			switch {
			case m.View == nil:
				t.Fatalf("no view: %s", m.raw)
			case i == 2 && (m.Seat != -1 || m.View.Seat != -1 || len(m.View.Legal) != 0):
				t.Fatalf("a spectator's state: %+v", m.Message)
			case i < 2 && m.View.ToMove != m.Seat && len(m.View.Legal) != 0:
				t.Fatalf("seat %d sees legal moves on seat %d's turn: %s", m.Seat, m.View.ToMove, m.raw)
			case i < 2 && len(m.View.Legal) > 0:
				move, seq, by = m.View.Legal[len(m.View.Legal)-1], m.View.Moves, i
			}
			over = m.View.Phase == "over"
		}
		if by >= 0 {
			conns[by].send(moveMessage(move, seq))
		}
	}
	if patches < 30 {
		t.Errorf("%d patches in a whole game", patches)
	}
}
