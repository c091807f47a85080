package client_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// A watch is what one connection saw of a game: its states by the moves
// they show (a moment of the game may change several times: a clock, a
// seat's stand-in), and its log of events.
type watch struct {
	mu     sync.Mutex
	states map[int][]*client.State
	log    []razzia.Event
	sizes  int // bytes of the messages after the first
	count  int
}

func (w *watch) add(st *client.State) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if st.First {
		w.log = nil
	} else {
		w.sizes += st.Size
		w.count++
	}
	for _, e := range st.Events {
		w.log = append(w.log, e.Event)
	}
	w.states[st.Game.Moves] = append(w.states[st.Game.Moves], st)
}

// follow reads the session's states into a new watch until the game is
// over; reconnect, when set, drops the connection after some states.
func follow(ctx context.Context, t *testing.T, s *client.Session, reconnect func(*client.State) bool, done *sync.WaitGroup) *watch {
	w := &watch{states: map[int][]*client.State{}}
	done.Go(func() {
		defer s.Close()
		for {
			st, err := s.Next(ctx)
			if err != nil {
				t.Errorf("Next: %v", err)
				return
			}
			w.add(st)
			if st.Over() {
				return
			}
			if reconnect != nil && reconnect(st) {
				s.Drop()
			}
		}
	})
	return w
}

// bare returns the state without what differs between connections (its
// size, its events, whether it is the first), and without when the game
// changed if playing.
func bare(st *client.State, playing bool) client.State {
	b := *st
	b.Events, b.Size, b.First = nil, 0, false
	if playing {
		b.Game.Updated = time.Time{}
	}
	return b
}

var patchGames = flag.Int("patch-games", 1, "games of TestPatchesGiveWholeStates, each of its own moves (-patch-games 1000 for a thorough run)")

// TestPatchesGiveWholeStates plays games on two nodes of one store with
// every seat and a spectator followed twice, through each node: once in
// protocol version 1 (a whole state after every change) and once in
// version 2 (a whole state, then patches), the latter dropping its
// connection now and then and its node stopping halfway, so that the
// game moves to the other. Each state the patches gave equals a whole
// state of the same moves (version 2 leaves out when the game changed
// while it is played), and the two logs of events are the same.
func TestPatchesGiveWholeStates(t *testing.T) {
	if *patchGames == 1 {
		patchesGiveWholeStates(t, 0)
		return
	}
	for game := range *patchGames {
		t.Run(fmt.Sprint(game), func(t *testing.T) { patchesGiveWholeStates(t, game) })
	}
}

// patchesGiveWholeStates plays game number game of TestPatchesGiveWholeStates:
// its number chooses its moves, drops and the move its node stops at.
func patchesGiveWholeStates(t *testing.T, game int) {
	a, b, proxy, target := twoNodes(t)
	ctx := servertest.Context(t)
	whole, patched := newClient(t, b), must(client.New(proxy.URL))
	whole.Protocol = protocol.Version1
	// The whole states are watched through the same node as the patches:
	// the node that runs a game and the others may tell its moments apart
	// differently.
	wholeWatch := must(client.New(proxy.URL))
	wholeWatch.Protocol = protocol.Version1
	const seats = 4
	// Created through node a, which runs it until it stops.
	info, _, err := patched.Create(ctx, make([]string, seats))
	if err != nil {
		t.Fatal(err)
	}
	tokens := make([]string, seats+1) // the last a spectator's: ""
	for s := range seats {
		if _, tokens[s], err = whole.Join(ctx, info.ID, "P"+string(rune('A'+s)), s); err != nil {
			t.Fatal(err)
		}
	}
	var done sync.WaitGroup
	rng := rand.New(rand.NewPCG(1, uint64(2+game)))
	stopAt := 60 + game%40
	var mu sync.Mutex
	drops := 0
	wholes, patches := make([]*watch, seats+1), make([]*watch, seats+1)
	for s, token := range tokens {
		wsess := wholeWatch.Session(info.ID, token)
		wsess.Backoff = fastBackoff
		wholes[s] = follow(ctx, t, wsess, nil, &done)
		sess := patched.Session(info.ID, token)
		sess.Backoff = fastBackoff
		patches[s] = follow(ctx, t, sess, func(*client.State) bool {
			mu.Lock()
			defer mu.Unlock()
			if rng.IntN(40) == 0 {
				drops++
				return true
			}
			return false
		}, &done)
	}
	// The players move through their own sessions, on node b.
	moved := atomic.Bool{}
	for s := range seats {
		sess := whole.Session(info.ID, tokens[s])
		done.Go(func() {
			p := &client.Player{Session: sess, Decide: func(st *client.State) string {
				if st.View.Moves > stopAt && moved.CompareAndSwap(false, true) {
					target.Store(must(url.Parse(b.URL)))
					go func() { a.Hub.Drain(ctx); a.API.Close() }()
				}
				return st.View.Legal[int(uint(st.View.Moves*7+s+game*13))%len(st.View.Legal)]
			}}
			if _, err := p.Play(ctx); err != nil {
				t.Errorf("seat %d: %v", s, err)
			}
			sess.Close()
		})
	}
	done.Wait()
	compared := 0
	for s := range tokens {
		w, p := wholes[s], patches[s]
		for moves, states := range p.states {
			for _, got := range states {
				// Once the game is over both say when it changed last: the
				// node that ran it and the others tell it differently
				// (when it decided, when the store wrote), so only a
				// state of the same moment compares.
				playing := got.Game.Status == protocol.StatusPlaying
				var wants []*client.State
				for _, want := range w.states[moves] {
					if playing || want.Game.Updated.Equal(got.Game.Updated) {
						wants = append(wants, want)
					}
				}
				if len(wants) == 0 {
					continue
				}
				compared++
				g := bare(got, false)
				found := false
				for _, want := range wants {
					if reflect.DeepEqual(g, bare(want, playing)) {
						found = true
						break
					}
				}
				if !found {
					gj, _ := json.Marshal(g)
					wj, _ := json.Marshal(wants)
					t.Fatalf("seat %d, move %d: the patches give\n%s\nthe whole states are\n%s", s, moves, gj, wj)
				}
			}
		}
		if !reflect.DeepEqual(p.log, w.log) {
			t.Errorf("seat %d: the logs differ:\n%v\n%v", s, p.log, w.log)
		}
		if p.count > 0 && w.count > 0 {
			t.Logf("seat %d: %d bytes a message with patches, %d whole", s, p.sizes/p.count, w.sizes/w.count)
		}
	}
	if compared < 100 || !moved.Load() {
		t.Errorf("compared %d states, node changed %v", compared, moved.Load())
	}
	t.Logf("%d states compared, %d connections dropped", compared, drops)
}
