package httpapi_test

import (
	"io"
	"net/http"
	"testing"

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
			s, err := srv.Hub.Watch(ctx, id, token)
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
