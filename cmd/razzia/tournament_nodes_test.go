package main

import (
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// TestTournamentNodeKilled: a Swiss tournament on three razzia serve
// processes on one PostgreSQL. The node that directs it (where it was
// created), which also runs round 1's games, is killed with SIGKILL once
// round 1 is seated; the players play on through the nodes alive, another
// node takes the tournament and the games over, round 1 finishes and
// round 2 is played: nothing lost, no table seated twice.
func TestTournamentNodeKilled(t *testing.T) {
	ctx := nodesTest(t)
	const ttl = time.Second
	c := newCluster(t, ctx, pgtest.DirectDB(t), 3, "--lease-ttl", ttl.String(), "--register-burst", "100")
	const secret = "tournament runner password"
	players, err := runnerAccounts(ctx, c.node("n1").url, "Killed", secret, 6)
	if err != nil {
		t.Fatal(err)
	}
	org, err := client.New(c.node("n0").url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := org.SignIn(ctx, "Killed1", secret); err != nil {
		t.Fatal(err)
	}
	tr, err := org.CreateTournament(ctx, protocol.TournamentSettings{Name: "Killed", Format: protocol.FormatSwiss, TableSize: 3,
		Rounds: 2, Pace: "blitz", BreakSeconds: new(int)})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range players {
		if _, err := p.JoinTournament(ctx, tr.ID, ""); err != nil {
			t.Fatal(err)
		}
	}
	feed, err := players[1].WatchTournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := org.Organise(ctx, tr.ID, protocol.ActionStart, ""); err != nil {
		t.Fatal(err)
	}
	for v := range feed {
		if len(v.RoundsPlayed) == 1 && v.RoundsPlayed[0].Tables[0].Ready && v.RoundsPlayed[0].Tables[1].Ready {
			break
		}
	}
	c.stop("n0", syscall.SIGKILL)
	c.start()
	var wg sync.WaitGroup
	final := make([]protocol.Tournament, len(players))
	for i, p := range players {
		wg.Go(func() {
			var err error
			if final[i], err = runnerPlays(ctx, p, tr.ID, "random", uint64(i+1), func(string, ...any) {}); err != nil {
				t.Errorf("Killed%d: %v", i+1, err)
			}
		})
	}
	wg.Wait()
	rec, err := c.st.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != "finished" || len(rec.Tables) != 4 {
		t.Fatalf("the tournament is %s with %d tables, want finished with 2 rounds of 2", rec.Status, len(rec.Tables))
	}
	seen := map[string]bool{}
	for _, tb := range rec.Tables {
		key := fmt.Sprint(tb.Round, "/", tb.Index)
		if seen[key] || seen[tb.Game] || tb.Result == nil {
			t.Errorf("table %s (game %s): seated twice or no result", key, tb.Game)
		}
		seen[key], seen[tb.Game] = true, true
	}
	for i, p := range rec.Players {
		if p.Rank == 0 {
			t.Errorf("player %d (%s) has no final rank", i+1, p.Name)
		}
	}
}
