package httpapi_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	protoclient "github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/table"
)

// BenchmarkSpectators measures the server's work per move for a game with
// 2,000 spectators: every subscription takes its update and gets the
// bytes of its state message. "per connection" encodes each one, as the
// server did before; "shared" asks Update.Encoded, as the WebSocket
// handler does now, so the message is encoded once per seat and language.
func BenchmarkSpectators(b *testing.B) {
	for _, shared := range []bool{false, true} {
		b.Run(map[bool]string{false: "per connection", true: "shared"}[shared], func(b *testing.B) {
			benchSpectators(b, 2000, shared)
		})
	}
}

func benchSpectators(b *testing.B, spectators int, shared bool) {
	srv := servertest.New(b, servertest.Options{})
	ctx := servertest.Context(b)
	en := i18n.Default()
	var (
		id     string
		tokens [2]string
		seats  [2]*table.Subscription
		last   [2]table.Update // each player's latest update
		subs   []*table.Subscription
	)
	newGame := func() {
		for _, s := range subs {
			s.Close()
		}
		subs = subs[:0]
		id = srv.Create("", "").ID
		for i := range seats {
			_, tokens[i] = srv.Join(id, []string{"Ann", "Bob"}[i])
		}
		for i := range spectators + 2 {
			token := ""
			if i < 2 {
				token = tokens[i]
			}
			s, err := srv.Hub.Watch(ctx, id, table.Watcher{Token: token})
			if err != nil {
				b.Fatal(err)
			}
			subs = append(subs, s)
			u := <-s.Updates()
			if i < 2 {
				seats[i], last[i] = s, u
			}
		}
	}
	newGame()
	for b.Loop() {
		if last[0].View.Phase == "over" {
			b.StopTimer()
			newGame()
			b.StartTimer()
		}
		mover := last[0].View.ToMove
		v := last[mover].View
		if err := srv.Hub.Play(ctx, id, tokens[mover], v.Legal[0], v.Moves); err != nil {
			b.Fatal(err)
		}
		for _, s := range subs {
			u := <-s.Updates()
			var err error
			if shared {
				_, err = u.Encoded(en.Tag(), func(u table.Update) ([]byte, error) { return httpapi.StateMessage(u, en) })
			} else {
				_, err = httpapi.StateMessage(u, en)
			}
			if err != nil {
				b.Fatal(err)
			}
			for i := range seats {
				if s == seats[i] {
					last[i] = u
				}
			}
		}
	}
}

// BenchmarkReplayRequest measures GET /api/games/{id}/replay of a finished
// game: "uncached" with a cache too small to keep it (the replay is
// computed per request), "cached" as the server runs.
func BenchmarkReplayRequest(b *testing.B) {
	for _, limit := range []int{1, 0} {
		b.Run(map[int]string{1: "uncached", 0: "cached"}[limit], func(b *testing.B) {
			srv := servertest.New(b, servertest.Options{API: httpapi.Options{ReplayCache: limit}})
			id := srv.Create("easy", "easy", "easy", "easy").ID
			srv.WaitOver(id)
			for b.Loop() {
				resp, err := http.Get(srv.URL + "/api/games/" + id + "/replay")
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatal(resp.Status)
				}
				b.SetBytes(n)
			}
		})
	}
}

// BenchmarkLobbyUnderBotAttack measures GET /api/games?status=open while
// 40 clients (each its own address, through a trusted proxy) ask for
// tables of five hard bots, with the server's default limits: at most
// MaxBotGames such games run, and their bots think in the bounded pool,
// so the lobby keeps its speed. Compare with -bench LobbyIdle.
func BenchmarkLobbyUnderBotAttack(b *testing.B) { benchLobby(b, 40) }

// BenchmarkLobbyIdle is the lobby with no game under way.
func BenchmarkLobbyIdle(b *testing.B) { benchLobby(b, 0) }

func benchLobby(b *testing.B, attackers int) {
	srv := botAttack(b, attackers)
	for b.Loop() {
		resp, err := http.Get(srv.URL + "/api/games?status=open")
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// BenchmarkMoveUnderBotAttack measures a person's move over the
// WebSocket, from sending it to both players' receiving the new state,
// while 40 clients ask for tables of hard bots. Compare with -bench
// MoveIdle.
func BenchmarkMoveUnderBotAttack(b *testing.B) { benchMove(b, 40) }

// BenchmarkMoveIdle is a person's move with no other game under way.
func BenchmarkMoveIdle(b *testing.B) { benchMove(b, 0) }

func benchMove(b *testing.B, attackers int) {
	srv := botAttack(b, attackers)
	ctx := servertest.Context(b)
	var (
		conns [2]*protoclient.Conn
		last  [2]*protoclient.State
		id    string
	)
	newGame := func() {
		id = srv.Create("", "").ID
		var toks [2]string
		for i, name := range []string{"Ann", "Bob"} {
			_, toks[i] = srv.Join(id, name)
		}
		for i, tok := range toks {
			conns[i] = srv.Dial(id, tok)
		}
		for i, c := range conns {
			var err error
			if last[i], err = c.Read(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
	newGame()
	for b.Loop() {
		if last[0].Over() {
			b.StopTimer()
			newGame()
			b.StartTimer()
		}
		m := last[0].View.ToMove
		v := last[m].View
		if err := conns[m].Move(ctx, v.Legal[0], v.Moves); err != nil {
			b.Fatal(err)
		}
		for i, c := range conns {
			var err error
			if last[i], err = c.Read(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// botAttack is a server with the default limits, behind a trusted proxy,
// after attackers clients (each its own address) asked for a table of
// five hard bots; it reports how many were created.
func botAttack(b *testing.B, attackers int) *servertest.Server {
	proxies, _ := httpapi.ParseProxies("127.0.0.1,::1")
	// The default limits but on the players' messages and moves: they
	// move as fast as they can.
	srv := servertest.New(b, servertest.Options{LevelBots: true, Limits: true,
		API: httpapi.Options{TrustedProxies: proxies, MessageRate: 1e6, MessageBurst: 1 << 20},
		Hub: table.Options{Limits: table.Limits{SeatMoveRate: 1e6, SeatMoveBurst: 1 << 20}}})
	hard := `{"seats":[{"bot":"hard"},{"bot":"hard"},{"bot":"hard"},{"bot":"hard"},{"bot":"hard"}]}`
	created := 0
	for i := range attackers {
		req, _ := http.NewRequest("POST", srv.URL+"/api/games", strings.NewReader(hard))
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusCreated {
			created++
		}
	}
	b.Cleanup(func() { b.ReportMetric(float64(created), "games") })
	return srv
}

// BenchmarkWatchFinished measures a new spectator of a finished game:
// Hub.Watch and its first update. The game is replayed once and kept.
func BenchmarkWatchFinished(b *testing.B) {
	srv := servertest.New(b, servertest.Options{})
	id := srv.Create("easy", "easy", "easy", "easy").ID
	srv.WaitOver(id)
	ctx := servertest.Context(b)
	for b.Loop() {
		sub, err := srv.Hub.Watch(ctx, id, table.Watcher{})
		if err != nil {
			b.Fatal(err)
		}
		<-sub.Updates()
	}
}
