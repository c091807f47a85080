package client_test

import (
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestNodeRestart: a node that stops hands its games over and closes its
// WebSockets with 1012; the session reconnects at once through the same
// address (a load balancer, here a proxy that now sends it to the other
// node), not after its backoff, and plays on.
func TestNodeRestart(t *testing.T) {
	a, b, proxy, target := twoNodes(t)
	c, err := client.New(proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := servertest.Context(t)
	info, _, err := c.Create(ctx, []string{"", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := c.Join(ctx, info.ID, "Ann", 0)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Session(info.ID, token)
	defer s.Close()
	s.Backoff = func(int) time.Duration { return time.Hour } // never, within the test
	var waits []time.Duration
	s.OnDrop = func(_ error, d time.Duration) { waits = append(waits, d) }

	moved := false
	var stopped sync.WaitGroup
	last, _ := playToEnd(t, ctx, s, func(st *client.State) {
		if moved || st.View == nil || st.View.Moves < 6 {
			return
		}
		moved = true
		target.Store(must(url.Parse(b.URL)))
		// As razzia serve stops on SIGTERM; in a goroutine of its own,
		// since Close waits for the client, which reads in this one, to
		// answer its close frame.
		stopped.Go(func() {
			if err := a.Hub.Drain(ctx); err != nil {
				t.Errorf("Drain: %v", err)
			}
			a.API.Close()
		})
	})
	stopped.Wait()
	if !moved || !last.Over() {
		t.Fatalf("moved %v, over %v", moved, last.Over())
	}
	if len(waits) != 1 || waits[0] >= time.Second {
		t.Errorf("waits before reconnecting %v, want one under a second", waits)
	}
}

// twoNodes starts two servers on one store, two nodes of a cluster, and a
// proxy in front of them that sends every request to target's node, a's
// to begin with, as a load balancer would.
func twoNodes(t *testing.T) (a, b *servertest.Server, proxy *httptest.Server, target *atomic.Pointer[url.URL]) {
	st := memstore.New()
	shared := func(*memstore.Store) store.Store { return st }
	a = servertest.New(t, servertest.Options{Store: shared})
	b = servertest.New(t, servertest.Options{Store: shared})
	target = &atomic.Pointer[url.URL]{}
	target.Store(must(url.Parse(a.URL)))
	proxy = httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target.Load()) }})
	t.Cleanup(proxy.Close)
	return a, b, proxy, target
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
