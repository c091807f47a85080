package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The lease times of the checks: long enough never to lapse during a
// check, short enough to wait for.
const (
	longTTL  = time.Minute
	shortTTL = 30 * time.Millisecond
)

func acquire(t *testing.T, s store.Store, id, node string, ttl time.Duration) store.Lease {
	t.Helper()
	l, err := s.AcquireLease(ctx(t), id, node, ttl)
	if err != nil {
		t.Fatalf("AcquireLease(%s, %s): %v", id, node, err)
	}
	if l.Game != id || l.Node != node || l.Fence <= store.NoFence || l.Expires.IsZero() {
		t.Fatalf("AcquireLease(%s, %s) = %+v", id, node, l)
	}
	return l
}

// waitExpired waits until the store, by its own clock, says that nobody
// holds the game's lease. Only time passing can end a lease, so this polls.
func waitExpired(t *testing.T, s store.Store, id string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l, err := s.Lease(ctx(t), id)
		if err != nil {
			t.Fatalf("Lease(%s): %v", id, err)
		}
		if l.Node == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lease of %s, expiring at %v, is still held at %v", id, l.Expires, time.Now())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sameLease reports whether a and b are one lease, expiry as an instant.
func sameLease(a, b store.Lease) bool {
	return a.Game == b.Game && a.Node == b.Node && a.Fence == b.Fence && a.Expires.Equal(b.Expires)
}

func wantLeaseLost(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("%s = %v, want ErrLeaseLost", what, err)
	}
}

func testLeaseAcquire(t *testing.T, s store.Store) {
	g := newGame("lease00001", store.StatusOpen, 0)
	create(t, s, g)
	before := time.Now()
	a := acquire(t, s, g.ID, "node-a", longTTL)
	// The database's clock may differ a little from the test's.
	if a.Expires.Before(before.Add(longTTL-10*time.Second)) || a.Expires.After(before.Add(longTTL+10*time.Second)) {
		t.Errorf("lease acquired at %v for %v expires at %v", before, longTTL, a.Expires)
	}
	again := acquire(t, s, g.ID, "node-a", 2*longTTL)
	if again.Fence != a.Fence || !again.Expires.After(a.Expires) {
		t.Errorf("acquired again by its holder: %+v, want fence %d and a later expiry than %v", again, a.Fence, a.Expires)
	}
	if _, err := s.AcquireLease(ctx(t), g.ID, "node-b", longTTL); !errors.Is(err, store.ErrLeaseHeld) {
		t.Errorf("AcquireLease by another node = %v, want ErrLeaseHeld", err)
	}
	if l, err := s.Lease(ctx(t), g.ID); err != nil || l.Node != "node-a" || l.Fence != a.Fence || !l.Expires.Equal(again.Expires) {
		t.Errorf("Lease = %+v, %v; want node-a's %+v", l, err, again)
	}
	for name, c := range map[string]struct {
		id, node string
		ttl      time.Duration
		want     error
	}{
		"unknown game":  {"absent0001", "node-a", longTTL, store.ErrNotFound},
		"empty id":      {"", "node-a", longTTL, nil},
		"no node":       {g.ID, "", longTTL, nil},
		"zero ttl":      {g.ID, "node-a", 0, nil},
		"negative ttl":  {g.ID, "node-a", -time.Second, nil},
		"finished game": {"leasedone1", "node-a", longTTL, store.ErrConflict},
		"archived game": {"leasearch1", "node-a", longTTL, store.ErrConflict},
	} {
		t.Run(name, func(t *testing.T) {
			if c.id == "leasedone1" || c.id == "leasearch1" {
				st := store.StatusFinished
				if c.id == "leasearch1" {
					st = store.StatusArchived
				}
				create(t, s, newGame(c.id, st, 0))
			}
			l, err := s.AcquireLease(ctx(t), c.id, c.node, c.ttl)
			if err == nil || c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("AcquireLease = %+v, %v; want an error wrapping %v", l, err, c.want)
			}
		})
	}
	if l, err := s.Lease(ctx(t), "absent0001"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Lease of an unknown game = %+v, %v; want ErrNotFound", l, err)
	}
	if l, err := s.Lease(ctx(t), g.ID); err != nil || l.Node != "node-a" || l.Fence != a.Fence {
		t.Errorf("after refused requests: Lease = %+v, %v; want node-a's fence %d", l, err, a.Fence)
	}
}

// testLeaseFencedWrites: with a lease held, only its fence writes.
func testLeaseFencedWrites(t *testing.T, s store.Store) {
	g := newGame("fence00001", store.StatusOpen, 0)
	create(t, s, g)
	a := acquire(t, s, g.ID, "node-a", longTTL)
	if err := s.TakeSeat(ctx(t), g.ID, a.Fence, 0, store.Seat{Name: "Bo", TokenHash: hash(1)}, store.StatusPlaying); err != nil {
		t.Fatalf("TakeSeat with the lease's fence: %v", err)
	}
	if err := s.AppendMove(ctx(t), g.ID, a.Fence, 0, "draw", store.StatusPlaying); err != nil {
		t.Fatalf("AppendMove with the lease's fence: %v", err)
	}
	want := get(t, s, g.ID)
	h := newGame("fence00002", store.StatusOpen, 0)
	create(t, s, h)
	for _, f := range []store.Fence{store.NoFence, a.Fence + 1, a.Fence - 1, -1} {
		wantLeaseLost(t, fmt.Sprintf("AppendMove with fence %d", f), s.AppendMove(ctx(t), g.ID, f, 1, "bid 9", store.StatusFinished))
		wantLeaseLost(t, fmt.Sprintf("TakeSeat with fence %d", f), s.TakeSeat(ctx(t), g.ID, f, 0, store.Seat{Name: "Mallory", TokenHash: hash(0xee)}, store.StatusFinished))
	}
	checkGame(t, s, want)
	// A game nobody holds takes no fenced write.
	wantLeaseLost(t, "AppendMove to an unleased game with a fence", s.AppendMove(ctx(t), h.ID, a.Fence, 0, "draw", store.StatusPlaying))
	checkGame(t, s, h)
	if err := s.TakeSeat(ctx(t), h.ID, store.NoFence, 0, store.Seat{Name: "Cy", TokenHash: hash(2)}, store.StatusOpen); err != nil {
		t.Errorf("TakeSeat without a lease on a game nobody holds: %v", err)
	}
	// The order of the checks: a wrong index with a good fence is a
	// conflict, a good index with a wrong fence is a lost lease.
	if err := s.AppendMove(ctx(t), g.ID, a.Fence, 5, "pass", store.StatusPlaying); !errors.Is(err, store.ErrConflict) {
		t.Errorf("AppendMove at a wrong index with the fence = %v, want ErrConflict", err)
	}
}

// testLeaseTakeOver: a lapsed lease is taken over with a higher fence, and
// the old holder can neither write nor renew.
func testLeaseTakeOver(t *testing.T, s store.Store) {
	g := newGame("takeover01", store.StatusPlaying, 0)
	create(t, s, g)
	a := acquire(t, s, g.ID, "node-a", shortTTL)
	waitExpired(t, s, g.ID)
	// Lapsed, not yet taken: node-a must not commit all the same.
	wantLeaseLost(t, "AppendMove after the lease lapsed", s.AppendMove(ctx(t), g.ID, a.Fence, 0, "draw", store.StatusPlaying))
	if _, err := s.RenewLease(ctx(t), a, longTTL); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("RenewLease after the lease lapsed = %v, want ErrLeaseLost", err)
	}
	if ids, err := s.Unowned(ctx(t), 0); err != nil || !slices.Contains(ids, g.ID) {
		t.Errorf("Unowned = %q, %v; want it to hold %s", ids, err, g.ID)
	}
	b := acquire(t, s, g.ID, "node-b", longTTL)
	if b.Fence != a.Fence+1 {
		t.Errorf("taken over with fence %d, want %d", b.Fence, a.Fence+1)
	}
	if err := s.AppendMove(ctx(t), g.ID, b.Fence, 0, "draw", store.StatusPlaying); err != nil {
		t.Fatalf("AppendMove by the new holder: %v", err)
	}
	wantLeaseLost(t, "AppendMove by the old holder", s.AppendMove(ctx(t), g.ID, a.Fence, 1, "draw police", store.StatusPlaying))
	if _, err := s.AcquireLease(ctx(t), g.ID, "node-a", longTTL); !errors.Is(err, store.ErrLeaseHeld) {
		t.Errorf("AcquireLease by the old holder = %v, want ErrLeaseHeld", err)
	}
	if ids, err := s.Unowned(ctx(t), 0); err != nil || slices.Contains(ids, g.ID) {
		t.Errorf("Unowned = %q, %v; want no %s", ids, err, g.ID)
	}
	// The same node after its own lease lapsed is a new holder too: what it
	// had in flight under the old fence must not commit.
	c := acquire(t, s, "takeover01", "node-b", longTTL)
	if c.Fence != b.Fence {
		t.Errorf("renewed by acquiring: fence %d, want %d", c.Fence, b.Fence)
	}
	h := newGame("takeover02", store.StatusOpen, 0)
	create(t, s, h)
	d := acquire(t, s, h.ID, "node-b", shortTTL)
	waitExpired(t, s, h.ID)
	e := acquire(t, s, h.ID, "node-b", longTTL)
	if e.Fence != d.Fence+1 {
		t.Errorf("acquired again after it lapsed: fence %d, want %d", e.Fence, d.Fence+1)
	}
	wantLeaseLost(t, "TakeSeat with the lapsed fence", s.TakeSeat(ctx(t), h.ID, d.Fence, 0, store.Seat{Name: "Bo", TokenHash: hash(1)}, store.StatusOpen))
	if got := get(t, s, g.ID); !slices.Equal(got.Moves, []string{"draw"}) {
		t.Errorf("moves %q, want only the new holder's", got.Moves)
	}
}

func testLeaseRenewRelease(t *testing.T, s store.Store) {
	g := newGame("release001", store.StatusPlaying, 0)
	create(t, s, g)
	a := acquire(t, s, g.ID, "node-a", longTTL)
	r, err := s.RenewLease(ctx(t), a, 2*longTTL)
	if err != nil || r.Fence != a.Fence || r.Node != "node-a" || !r.Expires.After(a.Expires) {
		t.Fatalf("RenewLease = %+v, %v; want fence %d expiring after %v", r, err, a.Fence, a.Expires)
	}
	for name, l := range map[string]store.Lease{
		"another fence": {Game: g.ID, Node: "node-a", Fence: a.Fence + 1},
		"another node":  {Game: g.ID, Node: "node-b", Fence: a.Fence},
	} {
		if _, err := s.RenewLease(ctx(t), l, longTTL); !errors.Is(err, store.ErrLeaseLost) {
			t.Errorf("RenewLease with %s = %v, want ErrLeaseLost", name, err)
		}
		wantLeaseLost(t, "ReleaseLease with "+name, s.ReleaseLease(ctx(t), l))
	}
	if _, err := s.RenewLease(ctx(t), store.Lease{Game: "absent0001", Node: "node-a", Fence: 1}, longTTL); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RenewLease of an unknown game = %v, want ErrNotFound", err)
	}
	if _, err := s.RenewLease(ctx(t), a, 0); err == nil {
		t.Error("RenewLease for 0s succeeded")
	}
	if err := s.ReleaseLease(ctx(t), a); err != nil {
		t.Fatalf("ReleaseLease: %v", err)
	}
	if l, err := s.Lease(ctx(t), g.ID); err != nil || l.Node != "" || l.Fence != a.Fence {
		t.Errorf("after release: Lease = %+v, %v; want no holder, fence %d", l, err, a.Fence)
	}
	wantLeaseLost(t, "ReleaseLease twice", s.ReleaseLease(ctx(t), a))
	wantLeaseLost(t, "AppendMove after release", s.AppendMove(ctx(t), g.ID, a.Fence, 0, "draw", store.StatusPlaying))
	// Released: another node takes it at once, not after the lease time.
	b := acquire(t, s, g.ID, "node-b", longTTL)
	if b.Fence != a.Fence+1 {
		t.Errorf("acquired after release with fence %d, want %d", b.Fence, a.Fence+1)
	}
	if err := s.ReleaseLease(ctx(t), b); err != nil {
		t.Fatal(err)
	}
	// Nobody holds it: a write without a lease goes through.
	if err := s.AppendMove(ctx(t), g.ID, store.NoFence, 0, "draw", store.StatusPlaying); err != nil {
		t.Errorf("AppendMove without a lease after release: %v", err)
	}
}

func testUnowned(t *testing.T, s store.Store) {
	type game struct {
		id     string
		status store.Status
		lease  string // "", "live", "lapsed", "released"
	}
	games := []game{
		{"unowned001", store.StatusOpen, ""},
		{"unowned002", store.StatusPlaying, ""},
		{"unowned003", store.StatusPlaying, "live"},
		{"unowned004", store.StatusFinished, ""},
		{"unowned005", store.StatusArchived, ""},
		{"unowned006", store.StatusPlaying, "lapsed"},
		{"unowned007", store.StatusOpen, "released"},
		{"unowned008", store.StatusOpen, "live"},
	}
	for i, g := range games {
		create(t, s, newGame(g.id, g.status, time.Duration(i)*time.Minute))
		switch g.lease {
		case "live":
			acquire(t, s, g.id, "node-a", longTTL)
		case "lapsed":
			acquire(t, s, g.id, "node-a", shortTTL)
			waitExpired(t, s, g.id)
		case "released":
			if err := s.ReleaseLease(ctx(t), acquire(t, s, g.id, "node-a", longTTL)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Playing first, then by the last update, oldest first.
	want := []string{"unowned002", "unowned006", "unowned001", "unowned007"}
	for _, limit := range []int{0, -1, 4, 10, 2} {
		ids, err := s.Unowned(ctx(t), limit)
		w := want
		if limit > 0 && limit < len(w) {
			w = w[:limit]
		}
		if err != nil || !slices.Equal(ids, w) {
			t.Errorf("Unowned(%d) = %q, %v; want %q", limit, ids, err, w)
		}
	}
}

// testLeaseRace has many nodes race for one game: exactly one wins.
func testLeaseRace(t *testing.T, s store.Store) {
	const nodes = 8
	g := newGame("leaserace1", store.StatusPlaying, 0)
	create(t, s, g)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		winners []store.Lease
	)
	for n := range nodes {
		wg.Go(func() {
			l, err := s.AcquireLease(ctx(t), g.ID, fmt.Sprintf("node-%d", n), longTTL)
			switch {
			case err == nil:
				mu.Lock()
				winners = append(winners, l)
				mu.Unlock()
			case !errors.Is(err, store.ErrLeaseHeld):
				t.Errorf("node %d: AcquireLease: %v", n, err)
			}
		})
	}
	wg.Wait()
	if len(winners) != 1 || winners[0].Fence != 1 {
		t.Fatalf("winners %+v, want exactly one with fence 1", winners)
	}
}

// testRenewLeases renews many leases at once: those still held, and no
// other.
func testRenewLeases(t *testing.T, s store.Store) {
	ids := []string{"renewall01", "renewall02", "renewall03", "renewall04", "renewall05"}
	for _, id := range ids {
		create(t, s, newGame(id, store.StatusPlaying, 0))
	}
	held := acquire(t, s, ids[0], "node-a", longTTL)
	held2 := acquire(t, s, ids[1], "node-a", longTTL)
	lapsed := acquire(t, s, ids[2], "node-a", shortTTL)
	waitExpired(t, s, ids[2])
	taken := acquire(t, s, ids[3], "node-a", shortTTL)
	waitExpired(t, s, ids[3])
	acquire(t, s, ids[3], "node-b", longTTL)
	released := acquire(t, s, ids[4], "node-a", longTTL)
	if err := s.ReleaseLease(ctx(t), released); err != nil {
		t.Fatal(err)
	}
	wrongFence := held2
	wrongFence.Fence++
	unknown := store.Lease{Game: "absent0001", Node: "node-a", Fence: 1}
	got, err := s.RenewLeases(ctx(t), []store.Lease{held2, lapsed, unknown, taken, held, released, wrongFence}, 2*longTTL)
	if err != nil {
		t.Fatalf("RenewLeases: %v", err)
	}
	if len(got) != 2 || got[0].Game != held2.Game || got[1].Game != held.Game {
		t.Fatalf("RenewLeases renewed %+v; want %s and %s, in that order", got, held2.Game, held.Game)
	}
	for i, want := range []store.Lease{held2, held} {
		if got[i].Node != want.Node || got[i].Fence != want.Fence || !got[i].Expires.After(want.Expires) {
			t.Errorf("renewed %+v, want %+v with a later expiry", got[i], want)
		}
		if l, err := s.Lease(ctx(t), want.Game); err != nil || !l.Expires.Equal(got[i].Expires) {
			t.Errorf("Lease(%s) = %+v, %v; want the renewed expiry %v", want.Game, l, err, got[i].Expires)
		}
	}
	// What was not renewed is as it was.
	if l, err := s.Lease(ctx(t), ids[3]); err != nil || l.Node != "node-b" {
		t.Errorf("Lease of the game taken over = %+v, %v; want node-b's", l, err)
	}
	for _, id := range []string{ids[2], ids[4]} {
		if l, err := s.Lease(ctx(t), id); err != nil || l.Node != "" {
			t.Errorf("Lease(%s) = %+v, %v; want no holder", id, l, err)
		}
	}
	wantLeaseLost(t, "AppendMove with the lapsed fence", s.AppendMove(ctx(t), ids[2], lapsed.Fence, 0, "draw", store.StatusPlaying))
	if got, err := s.RenewLeases(ctx(t), nil, longTTL); err != nil || len(got) != 0 {
		t.Errorf("RenewLeases of none = %+v, %v", got, err)
	}
	if _, err := s.RenewLeases(ctx(t), []store.Lease{held}, 0); err == nil {
		t.Error("RenewLeases for 0s succeeded")
	}
}

// testCreateOwned creates a game with its lease in one step: held at
// once, never unowned, announced with its holder; refused whole when the
// id exists or the game is not live.
func testCreateOwned(t *testing.T, s store.Store) {
	ch := subscribe(t, s, store.ChangesChannel)
	g := newGame("owned00001", store.StatusOpen, 0)
	before := time.Now()
	l, err := s.CreateOwnedGame(ctx(t), g.Clone(), "node-a", longTTL)
	if err != nil {
		t.Fatalf("CreateOwnedGame: %v", err)
	}
	if l.Game != g.ID || l.Node != "node-a" || l.Fence <= store.NoFence ||
		l.Expires.Before(before.Add(longTTL-10*time.Second)) || l.Expires.After(before.Add(longTTL+10*time.Second)) {
		t.Errorf("CreateOwnedGame at %v for %v = %+v", before, longTTL, l)
	}
	checkGame(t, s, g)
	if got, err := s.Lease(ctx(t), g.ID); err != nil || !sameLease(got, l) {
		t.Errorf("Lease = %+v, %v; want %+v", got, err, l)
	}
	if ids, err := s.Unowned(ctx(t), 0); err != nil || len(ids) != 0 {
		t.Errorf("Unowned = %q, %v; want none", ids, err)
	}
	if _, err := s.AcquireLease(ctx(t), g.ID, "node-b", longTTL); !errors.Is(err, store.ErrLeaseHeld) {
		t.Errorf("AcquireLease by another node = %v, want ErrLeaseHeld", err)
	}
	wantLeaseLost(t, "TakeSeat without the fence", s.TakeSeat(ctx(t), g.ID, store.NoFence, 0, store.Seat{Name: "Bo", TokenHash: hash(1)}, store.StatusPlaying))
	if err := s.TakeSeat(ctx(t), g.ID, l.Fence, 0, store.Seat{Name: "Bo", TokenHash: hash(1)}, store.StatusPlaying); err != nil {
		t.Errorf("TakeSeat with the fence: %v", err)
	}
	if c := nextChange(t, ch); c != (store.Change{Game: g.ID, Kind: store.ChangeCreated, Status: store.StatusOpen, Node: "node-a", Fence: l.Fence}) {
		t.Errorf("the change of the creation = %+v, want it with node-a's lease", c)
	}

	again := newGame(g.ID, store.StatusPlaying, 0)
	if _, err := s.CreateOwnedGame(ctx(t), again, "node-b", longTTL); !errors.Is(err, store.ErrConflict) {
		t.Errorf("CreateOwnedGame of an existing id = %v, want ErrConflict", err)
	}
	if got, err := s.Lease(ctx(t), g.ID); err != nil || !sameLease(got, l) {
		t.Errorf("after a refused creation Lease = %+v, %v; want %+v", got, err, l)
	}
	for name, c := range map[string]struct {
		g        *store.Game
		node     string
		ttl      time.Duration
		notFound string // the id that must not be stored
	}{
		"finished": {newGame("owned00002", store.StatusFinished, 0), "node-a", longTTL, "owned00002"},
		"archived": {newGame("owned00003", store.StatusArchived, 0), "node-a", longTTL, "owned00003"},
		"no node":  {newGame("owned00004", store.StatusOpen, 0), "", longTTL, "owned00004"},
		"no ttl":   {newGame("owned00005", store.StatusOpen, 0), "node-a", 0, "owned00005"},
	} {
		if _, err := s.CreateOwnedGame(ctx(t), c.g, c.node, c.ttl); err == nil {
			t.Errorf("%s: CreateOwnedGame succeeded", name)
		}
		if _, err := s.Game(ctx(t), c.notFound); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: the refused game is stored: %v", name, err)
		}
	}
}

// testCreateOwnedNeverUnowned scans for unowned games, as another node
// does, while games are created with their leases: the scan never sees
// one, and so another node can never take one.
func testCreateOwnedNeverUnowned(t *testing.T, s store.Store) {
	const games = 40
	done := make(chan struct{})
	var (
		wg    sync.WaitGroup
		taken []string
	)
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			ids, err := s.Unowned(ctx(t), 0)
			if err != nil {
				t.Errorf("Unowned: %v", err)
				return
			}
			for _, id := range ids {
				if _, err := s.AcquireLease(ctx(t), id, "node-b", longTTL); err == nil {
					taken = append(taken, id)
				}
			}
		}
	})
	for i := range games {
		g := newGame(fmt.Sprintf("ownedrace%02d", i), store.StatusOpen, 0)
		if _, err := s.CreateOwnedGame(ctx(t), g, "node-a", longTTL); err != nil {
			t.Errorf("CreateOwnedGame(%s): %v", g.ID, err)
		}
	}
	close(done)
	wg.Wait()
	if len(taken) > 0 {
		t.Errorf("another node took %q, created with their leases", taken)
	}
}
