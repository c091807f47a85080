package httpapi

import (
	"bytes"
	"context"
	"errors"
	"time"

	"golang.org/x/time/rate"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/table"
)

// Version 2 of the protocol sends a connection a whole state first, then
// a patch of it at each change (docs/protocol.md). Every message is made
// once for all the connections that need the same bytes: the state of a
// seat (spectators share one) in a language, once per change; a patch
// once per change for those that received the same state last.

// resyncEvery and resyncBurst bound a connection's requests for a whole
// state: each costs the server a whole state's encoding and the network
// its bytes, and a client that loops on them must not flood either.
const (
	resyncEvery = 2 * time.Second
	resyncBurst = 3
)

// A sentState is what a connection of version 2 sent last: the state
// (shared by the change's connections, never modified) and its version.
type sentState struct {
	state   *protocol.State
	version int64
}

// variants are the keys of a connection's messages among a change's
// encodings: one for each message of its language.
type variants struct {
	state, public, doc, whole, patch, diff string
}

func variantsOf(cat *i18n.Catalogue) variants {
	tag := cat.Tag()
	return variants{state: tag, public: "public " + tag, doc: "doc " + tag, whole: "whole " + tag, patch: "patch " + tag, diff: "diff " + tag}
}

// stateOf is the update as a state message, its events and take-overs
// told in the catalogue's language (events: with them).
func stateOf(u *table.Update, cat *i18n.Catalogue, events bool) protocol.StateMessage {
	var players []string // the names, for the sentences: most states have none
	if events || len(u.TakeOvers) > 0 {
		players = make([]string, len(u.Game.Seats))
		for i, s := range u.Game.Seats {
			players[i] = s.Name
		}
	}
	m := protocol.StateMessage{Type: protocol.TypeState, Game: u.Game, Seat: u.Seat, View: u.View,
		Clock: u.Clock, TakeOvers: takeOvers(u.TakeOvers, players, cat), PreMove: u.PreMove, PreMoveDropped: u.PreMoveDropped}
	if events {
		m.Events = protocol.Events(u.Events, players, cat)
	}
	return m
}

// stateBytes returns the message of the update for this connection: in
// version 1 a whole state; in version 2 a whole state the first time
// (or when the client asked for one again), else the patch of the state
// it sent last.
//
// The values a change shares are made one after the other here, never
// one inside the making of another: each level of that nesting would
// deepen the socket goroutine's stack by two frames holding a copy of
// the update, below the encoding, the deepest part.
func (w *wsConn) stateBytes(u table.Update, cat *i18n.Catalogue) ([]byte, error) {
	if w.version < protocol.Version2 {
		return u.Encoded(w.keys.state, func(u table.Update) ([]byte, error) { return stateMessage(u, cat) })
	}
	state, err := w.docOf(u, cat)
	if err != nil {
		return nil, err
	}
	var data []byte
	last := w.sent
	if last.state != nil && !u.Full {
		d := w.publicDiff(u, last, state)
		data, err = u.EncodedSince(w.keys.patch, last.version, func(u table.Update) ([]byte, error) {
			return patchMessage(&u, last, state, d)
		})
	}
	if last.state == nil || u.Full || errors.Is(err, protocol.ErrNotPatchable) {
		data, err = u.Encoded(w.keys.whole, func(u table.Update) ([]byte, error) {
			// Unnumbered (a finished game's): never patched, whole as in
			// version 1. Numbered: lean, its events untold (the client
			// tells them).
			m := stateOf(&u, cat, u.Version == 0)
			if m.Version = u.Version; m.Version == 0 {
				return encodeOnce(m.AppendJSON)
			}
			m.Events = protocol.Events(u.Events, nil, nil)
			protocol.LeanEvents(m.Events, u.View)
			return encodeOnce(m.AppendLean)
		})
	}
	if err == nil {
		w.sent = sentState{state: state, version: u.Version}
	}
	return data, err
}

// docOf returns the update's state for the connection's seat, made from
// the spectators' state of the change (encoded once, shared by the
// change's connections of every seat in the language), itself made once
// for the change's connections of the seat.
func (w *wsConn) docOf(u table.Update, cat *i18n.Catalogue) (*protocol.State, error) {
	if (u.Public == nil) != (u.View == nil) {
		// An update that does not say the spectators' view (a finished
		// game's): the seat's own state, encoded.
		v, err := u.Shared(w.keys.doc, 0, func(u table.Update) (any, error) { return encodedState(&u, cat, false) })
		if err != nil {
			return nil, err
		}
		return v.(*protocol.State), nil
	}
	v, err := u.SharedByChange(w.keys.public, func(u table.Update) (any, error) { return encodedState(&u, cat, true) })
	if err != nil {
		return nil, err
	}
	public := v.(*protocol.State)
	if u.Seat < 0 {
		return public, nil // the spectators': no encoding of its own
	}
	v, err = u.Shared(w.keys.doc, 0, func(u table.Update) (any, error) { return ownMembers(public, &u) })
	if err != nil {
		return nil, err
	}
	return v.(*protocol.State), nil
}

// publicDiff returns the spectators' patch from the state last sent's to
// state's, made once for the change's connections that sent the same
// version last (in their language), from which each seat's is made; nil
// when it cannot be made, and each member is diffed.
func (w *wsConn) publicDiff(u table.Update, last sentState, state *protocol.State) *protocol.StateDiff {
	v, err := u.SharedByChangeSince(w.keys.diff, last.version, func(table.Update) (any, error) {
		return protocol.DiffStates(last.state.Public(), state.Public())
	})
	if err != nil {
		return nil
	}
	return v.(*protocol.StateDiff)
}

// encodedState returns the update's state (public: the spectators'),
// encoded, its members known as they were written.
func encodedState(u *table.Update, cat *i18n.Catalogue, public bool) (*protocol.State, error) {
	m := stateOf(u, cat, false)
	if public {
		m.Seat, m.View, m.PreMove, m.PreMoveDropped = -1, u.Public, "", ""
	}
	scratch := stateScratch.Get().(*[]byte)
	defer stateScratch.Put(scratch)
	return protocol.EncodeState(&m, scratch)
}

// ownMembers returns the seat's state of the update made from the
// spectators', public: the seat's own members, the rest public's.
func ownMembers(public *protocol.State, u *table.Update) (*protocol.State, error) {
	m := protocol.StateMessage{Seat: u.Seat, View: u.View, PreMove: u.PreMove, PreMoveDropped: u.PreMoveDropped}
	return protocol.SeatState(public, &m)
}

// patchMessage encodes the patch of the state last sent into state, with
// the update's events, untold; d is the spectators' patch of the change
// (publicDiff), which each seat's is made from. The events are encoded
// once for the change's patches, and each seat's patch appended after
// them in one buffer, copied once.
func patchMessage(u *table.Update, last sentState, state *protocol.State, d *protocol.StateDiff) ([]byte, error) {
	// The events as a patch carries them are every seat's alike: the
	// scores LeanEvents leaves out are public.
	ev, err := u.SharedByEvents("patch", func(u table.Update) (any, error) {
		e := new(encodedEvents)
		var err error
		e.b, err = protocol.AppendLeanEvents(e.buf[:0], u.Events, u.View)
		return e, err
	})
	if err != nil {
		return nil, err
	}
	scratch := stateScratch.Get().(*[]byte)
	defer stateScratch.Put(scratch)
	b := protocol.AppendPatchHead((*scratch)[:0], last.version, u.Version, ev.(*encodedEvents).b)
	at := len(b)
	b, same, err := d.AppendDiff(b, last.state, state)
	if err != nil {
		return nil, err
	}
	if same {
		b = append(b[:at], "{}"...)
	}
	*scratch = append(b, '}')
	return bytes.Clone(*scratch), nil
}

// encodedEvents are a change's events as its patches carry them, b, in
// buf where they fit: one allocation.
type encodedEvents struct {
	b   []byte
	buf [232]byte
}

// encodeOnce returns what appendJSON appends, encoded in a buffer kept
// for the next message and copied once to its own size: kept and shared
// by the change's connections.
func encodeOnce(appendJSON func([]byte) ([]byte, error)) ([]byte, error) {
	scratch := stateScratch.Get().(*[]byte)
	defer stateScratch.Put(scratch)
	data, err := appendJSON((*scratch)[:0])
	if err != nil {
		return nil, err
	}
	*scratch = data
	return bytes.Clone(data), nil
}

// resync answers a client's "resync": the game's goroutine sends it the
// state again, whole, unless it asked too often.
func (w *wsConn) resync(ctx context.Context, _ *inbound) error {
	if w.version < protocol.Version2 {
		return w.error(ctx, protocol.BadMessage, 0, `"resync" is a message of protocol version 2; this connection speaks version %d`, w.version)
	}
	if now := time.Now(); !w.resyncs.AllowN(now, 1) {
		wait := time.Duration((1 - w.resyncs.TokensAt(now)) * float64(resyncEvery))
		return w.error(ctx, protocol.RateLimited, retrySeconds(wait),
			"a whole state at most %d times at once and once every %v; this request was dropped", resyncBurst, resyncEvery)
	}
	w.sub.Resync()
	return nil
}

func newResyncLimiter() *rate.Limiter { return rate.NewLimiter(rate.Every(resyncEvery), resyncBurst) }
