package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/meet"
	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/testclock"
)

// clockServer is a server whose presence and Play now run by clk: the
// test sweeps Play now itself (Meet.Sweep), as each tick would.
func clockServer(t *testing.T, clk *testclock.Clock, o servertest.Options) *servertest.Server {
	o.Presence.Now, o.Presence.AfterFunc = clk.Now, clk.AfterFunc
	o.Meet.Now, o.Meet.Tick = clk.Now, time.Hour
	return servertest.New(t, o)
}

// presenceEvent returns the feed's next event of the kind, within 5 s of
// real time (a socket's close reaches presence in its own goroutine).
func presenceEvent(t *testing.T, f *presence.Feed, kind presence.EventKind) presence.Event {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case e := <-f.Events():
			if e.Kind == kind {
				return e
			}
		case <-timeout:
			t.Fatalf("no presence event %v within 5 s", kind)
			return presence.Event{}
		}
	}
}

// TestSeekLapsesOffline: a guest's Play-now request stays open while its
// person's page is open, past the grace of a new request; once the page
// closed and presence's linger passed (by the clock), the next sweep
// lapses it.
func TestSeekLapsesOffline(t *testing.T) {
	clk := testclock.New()
	srv := clockServer(t, clk, servertest.Options{})
	ctx := servertest.Context(t)
	feed := srv.Presence.Feed()
	defer feed.Close()
	ann := newBrowser(t, srv)
	ann.must(http.MethodGet, "/api/seeks", nil, nil) // the guest cookie
	ws := ann.meetWS()
	presenceEvent(t, feed, presence.Online)
	var mine protocol.SeekAnswer
	ann.must(http.MethodPost, "/api/seeks", protocol.SeekRequest{Min: 2, Pace: "rapid", Name: "Ann"}, &mine)
	status := func() string {
		t.Helper()
		var l protocol.SeeksAnswer
		ann.must(http.MethodGet, "/api/seeks", nil, &l)
		for _, k := range l.Mine {
			if k.ID == mine.Seek.ID {
				return k.Status
			}
		}
		t.Fatalf("Ann's request %s is not hers any more: %+v", mine.Seek.ID, l)
		return ""
	}
	clk.Advance(meet.OnlineGrace + time.Minute)
	srv.Meet.Sweep(ctx)
	if got := status(); got != protocol.SeekOpen {
		t.Fatalf("Ann's request, her page open: %s, want open", got)
	}
	ws.Close(websocket.StatusNormalClosure, "")
	presenceEvent(t, feed, presence.Lingering)
	clk.Advance(presence.DefaultLinger - time.Millisecond)
	srv.Meet.Sweep(ctx)
	if got := status(); got != protocol.SeekOpen {
		t.Fatalf("Ann's request while she lingers: %s, want open", got)
	}
	clk.Advance(time.Millisecond)
	presenceEvent(t, feed, presence.Offline)
	srv.Meet.Sweep(ctx)
	if got := status(); got != protocol.SeekLapsed {
		t.Errorf("Ann's request, Ann offline: %s, want lapsed", got)
	}
}

// TestChallengeLapsesByPace: an unanswered challenge lapses after its
// pace's time (three decisions' at a live pace, between one and five
// minutes; one decision's at a correspondence pace), not a second
// before, and the person challenged hears it on their live socket.
func TestChallengeLapsesByPace(t *testing.T) {
	clk := testclock.New()
	srv := clockServer(t, clk, servertest.Options{})
	ctx := servertest.Context(t)
	ann, bob := newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bob.register("Bob")
	ws := bob.meetWS()
	for _, c := range []struct {
		pace string
		want time.Duration
	}{
		{"blitz", time.Minute},        // 3 × 10 s, raised to a minute
		{"standard", 3 * time.Minute}, // 3 × 1 min
		{"slow", 5 * time.Minute},     // 3 × 2 min, cut to five
		{"day1", 24 * time.Hour},      // one decision
	} {
		var made protocol.ChallengeAnswer
		ann.must(http.MethodPost, "/api/challenges", protocol.ChallengeRequest{To: []string{"Bob"}, Pace: c.pace}, &made)
		status := func() string {
			t.Helper()
			var l protocol.ChallengesAnswer
			ann.must(http.MethodGet, "/api/challenges", nil, &l)
			for _, x := range l.Challenges {
				if x.ID == made.Challenge.ID {
					return x.Status
				}
			}
			t.Fatalf("%s: the challenge %s is not listed: %+v", c.pace, made.Challenge.ID, l)
			return ""
		}
		clk.Advance(c.want - time.Second)
		srv.Meet.Sweep(ctx)
		if got := status(); got != protocol.ChallengeOpen {
			t.Errorf("%s: a second before its time the challenge is %s, want open", c.pace, got)
		}
		clk.Advance(time.Second)
		srv.Meet.Sweep(ctx)
		if got := status(); got != protocol.ChallengeLapsed {
			t.Errorf("%s: at its time the challenge is %s, want lapsed", c.pace, got)
		}
		for {
			m := nextMeet(t, ws, protocol.TypeChallenge)
			if m.Challenge != nil && m.Challenge.ID == made.Challenge.ID && m.Challenge.Status == protocol.ChallengeLapsed {
				break
			}
		}
	}
}

// TestPresenceBoundsWired: two servers on one PostgreSQL database, their
// presence on one test clock, beating as it moves. Ann's live socket on
// one node makes her online on the other at once by the clock (and
// within 5 s of real time); closed, she is offline there Linger after,
// not before: well within a minute of leaving.
func TestPresenceBoundsWired(t *testing.T) {
	clk := testclock.New()
	node := pgNodes(t)
	a := node(servertest.Options{Presence: presence.Options{Now: clk.Now, AfterFunc: clk.AfterFunc}})
	b := node(servertest.Options{Presence: presence.Options{Now: clk.Now, AfterFunc: clk.AfterFunc}})
	feed := b.Presence.Feed()
	defer feed.Close()
	ann := newBrowser(t, a)
	ann.register("Ann")
	start, at := time.Now(), clk.Now()
	live := ann.live("")
	on := presenceEvent(t, feed, presence.Online)
	if on.Status.Name != "Ann" || !b.Presence.Online(on.Status.Key) {
		t.Fatalf("node b: %+v, want Ann online", on)
	}
	if d := time.Since(start); d > 5*time.Second || clk.Now() != at {
		t.Errorf("online on the other node after %v (%v by the clock), want within 5 s", d, clk.Now().Sub(at))
	}
	// A few beats while she is connected change nothing.
	for range 3 {
		clk.Advance(presence.DefaultBeat)
	}
	if !b.Presence.Online(on.Status.Key) {
		t.Fatal("Ann offline on node b while connected")
	}
	live.Close(websocket.StatusNormalClosure, "")
	presenceEvent(t, feed, presence.Lingering)
	left := clk.Now()
	clk.Advance(presence.DefaultLinger - time.Millisecond)
	if !b.Presence.Online(on.Status.Key) {
		t.Fatal("Ann offline on node b before Linger passed")
	}
	clk.Advance(time.Millisecond)
	if e := presenceEvent(t, feed, presence.Offline); e.Status.Key != on.Status.Key {
		t.Fatalf("offline: %+v, want Ann", e)
	}
	if d := clk.Now().Sub(left); d > time.Minute {
		t.Errorf("offline %v after leaving, want within a minute", d)
	}
}
