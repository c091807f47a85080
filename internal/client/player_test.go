package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// seatSession joins the seat of the game under the name and returns its
// session, closed at the test's end.
func seatSession(t *testing.T, c *client.Client, id, name string, seat int) *client.Session {
	t.Helper()
	_, token, err := c.Join(servertest.Context(t), id, name, seat)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Session(id, token)
	t.Cleanup(func() { s.Close() })
	s.Backoff = fastBackoff
	return s
}

// TestPlayerReplacesIllegal plays a seat whose every decision is illegal:
// each is refused and replaced by the safe move, once, and the game ends.
func TestPlayerReplacesIllegal(t *testing.T) {
	srv := servertest.New(t, servertest.Options{LevelBots: true})
	c := newClient(t, srv)
	ctx := servertest.Context(t)
	info, _, err := c.Create(ctx, []string{"", "easy", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	s := seatSession(t, c, info.ID, "Ann", 0)
	decisions, refusals := 0, 0
	p := &client.Player{
		Session: s,
		Decide:  func(*client.State) string { decisions++; return "bid 99" },
		OnRefused: func(e *client.Error, move string) {
			if !e.MoveMatters() {
				return // the game moved on
			}
			if e.Code != protocol.IllegalMove || move != "bid 99" {
				t.Errorf("refused %q with %v, want only the illegal bid", move, e)
			}
			refusals++
		},
	}
	st, err := p.Play(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Over() || decisions == 0 || refusals != decisions {
		t.Errorf("over %v after %d decisions and %d refusals; want every decision refused once and replaced", st.Over(), decisions, refusals)
	}
}

// TestPlayerRetriesTemporary: at a tight message rate the moves refused
// for a while are sent again, each after the seat loop's wait (which the
// test shortens to the server's refill), and the game ends.
func TestPlayerRetriesTemporary(t *testing.T) {
	srv := servertest.New(t, servertest.Options{LevelBots: true, API: httpapi.Options{MessageRate: 20, MessageBurst: 1}})
	c := newClient(t, srv)
	ctx := servertest.Context(t)
	info, _, err := c.Create(ctx, []string{"", "", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	var players []*client.Player
	var limited, short, unnamed atomic.Int32
	brief := newClient(t, srv) // the load generator's messages: the brief part
	brief.Brief = true
	refill := func(ctx context.Context, d time.Duration) bool {
		if d < client.MinRetry {
			short.Add(1)
		}
		select {
		case <-time.After(60 * time.Millisecond): // the server's rate refills a message every 50 ms
			return true
		case <-ctx.Done():
			return false
		}
	}
	for seat := range 2 {
		s := seatSession(t, []*client.Client{c, brief}[seat], info.ID, []string{"Ann", "Bob"}[seat], seat)
		players = append(players, &client.Player{Session: s, Wait: refill,
			Decide: func(st *client.State) string { return st.View.Legal[0] },
			OnRefused: func(e *client.Error, _ string) {
				if e.Code == protocol.RateLimited {
					limited.Add(1)
				}
				if e.Code == protocol.RateLimited && e.RetryAfter <= 0 {
					unnamed.Add(1)
				}
			}})
	}
	done := make(chan error, 1)
	go func() { _, err := players[1].Play(ctx); done <- err }()
	st, err := players[0].Play(ctx)
	if err != nil || !st.Over() {
		t.Fatalf("Play = %v, %v", st, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if limited.Load() == 0 {
		t.Error("no move was refused for the rate: the test tests nothing")
	}
	if unnamed.Load() != 0 {
		t.Errorf("%d rate_limited refusals lost the server's retryAfter", unnamed.Load())
	}
	if short.Load() != 0 {
		t.Errorf("%d resends asked for a wait under MinRetry", short.Load())
	}
}

// TestPlayerNoSeat: a session that only watches is told so.
func TestPlayerNoSeat(t *testing.T) {
	srv := servertest.New(t, servertest.Options{LevelBots: true})
	c := newClient(t, srv)
	ctx := servertest.Context(t)
	info, _, err := c.Create(ctx, []string{"easy", "easy", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Session(info.ID, "")
	defer s.Close()
	p := &client.Player{Session: s, Decide: func(*client.State) string { return "" }}
	if _, err := p.Play(ctx); err != client.ErrNoSeat {
		t.Errorf("Play = %v, want ErrNoSeat", err)
	}
}

func TestMoveMatters(t *testing.T) {
	for _, tc := range []struct {
		code protocol.Code
		want bool
	}{
		{protocol.Stale, false},
		{protocol.GameOver, false},
		{protocol.NotStarted, false},
		{protocol.IllegalMove, true},
		{protocol.RateLimited, true},
		{protocol.NotYourTurn, true},
	} {
		t.Run(string(tc.code), func(t *testing.T) {
			if got := (&client.Error{Code: tc.code}).MoveMatters(); got != tc.want {
				t.Errorf("MoveMatters = %v, want %v", got, tc.want)
			}
		})
	}
}

// refusalCases reads the rule every seat loop follows after a refusal
// (testdata/refusals.json), which the page's script is checked against
// too.
func refusalCases(t *testing.T) []struct {
	Code protocol.Code `json:"code"`
	Next client.Next   `json:"next"`
} {
	t.Helper()
	b, err := os.ReadFile("testdata/refusals.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Code protocol.Code `json:"code"`
			Next client.Next   `json:"next"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	return table.Cases
}

// TestResendRule: the Go client's bound on resends is the shared
// table's, which the page's script is checked against too.
func TestResendRule(t *testing.T) {
	b, err := os.ReadFile("testdata/refusals.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Resend struct {
			MinRetryMs int `json:"minRetryMs"`
			MaxResends int `json:"maxResends"`
		} `json:"resend"`
	}
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	r := table.Resend
	if client.MinRetry != time.Duration(r.MinRetryMs)*time.Millisecond || client.MaxResends != r.MaxResends || r.MaxResends < 1 {
		t.Errorf("MinRetry %v, MaxResends %d; the table says %d ms, %d", client.MinRetry, client.MaxResends, r.MinRetryMs, r.MaxResends)
	}
	for _, c := range []struct{ retryAfter, want time.Duration }{
		{0, client.MinRetry},
		{time.Second, client.MinRetry},
		{5 * time.Second, 5 * time.Second},
	} {
		if got := client.RetryWait(c.retryAfter); got != c.want {
			t.Errorf("RetryWait(%v) = %v, want %v", c.retryAfter, got, c.want)
		}
	}
}

// TestAfterRefusal: the Go client follows the shared table, which names
// every code of the catalogue once.
func TestAfterRefusal(t *testing.T) {
	seen := map[protocol.Code]bool{}
	for _, c := range refusalCases(t) {
		if seen[c.Code] {
			t.Errorf("%s is in the table twice", c.Code)
		}
		seen[c.Code] = true
		if got := client.AfterRefusal(c.Code); got != c.Next {
			t.Errorf("after %s: %s, the table says %s", c.Code, got, c.Next)
		}
	}
	for _, ci := range protocol.Codes() {
		if !seen[ci.Code] {
			t.Errorf("%s is not in testdata/refusals.json: say what a seat does after it", ci.Code)
		}
	}
}

// TestPlayerNoGame: a session whose game the server refuses (there is no
// such game) ends Play with the refusal, rather than dialling again
// without a pause until the context ends.
func TestPlayerNoGame(t *testing.T) {
	srv := servertest.New(t, servertest.Options{LevelBots: true})
	c := newClient(t, srv)
	ctx, cancel := context.WithTimeout(servertest.Context(t), 10*time.Second)
	defer cancel()
	s := c.Session("aaaaaaaaaa", "")
	defer s.Close()
	p := &client.Player{Session: s, Decide: func(*client.State) string { return "" }}
	if _, err := p.Play(ctx); !errors.Is(err, protocol.NotFound) {
		t.Errorf("Play = %v, want not_found", err)
	}
}

// TestPlayerSendsNothing: a decision of "" sends nothing, and the seat
// is not asked again for that position; OnSent hears the moves sent.
func TestPlayerSendsNothing(t *testing.T) {
	srv := servertest.New(t, servertest.Options{LevelBots: true})
	c := newClient(t, srv)
	ctx, cancel := context.WithTimeout(servertest.Context(t), 30*time.Second)
	defer cancel()
	info, _, err := c.Create(ctx, []string{"", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	s := seatSession(t, c, info.ID, "Ann", 0)
	asked := map[int]int{}
	var sent []int
	p := &client.Player{
		Session: s,
		Decide: func(st *client.State) string {
			asked[st.View.Moves]++
			switch st.View.Moves {
			case 0:
				// Passed: someone else (the person at another client)
				// plays the first move.
				go s.Move(ctx, st.View.Legal[0], 0)
				return ""
			case 1, 2:
				return st.View.Legal[0]
			}
			cancel()
			return ""
		},
		OnSent: func(_ string, seq int) { sent = append(sent, seq) },
	}
	p.Play(ctx)
	if asked[0] != 1 || slices.Contains(sent, 0) || len(sent) == 0 {
		t.Errorf("asked %d times at move 0, sent for %v; want asked once, nothing sent for it and the later moves heard", asked[0], sent)
	}
}
