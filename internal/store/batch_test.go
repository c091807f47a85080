package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestBatcherFirst: while a group is handled and many items wait, an
// item sent first joins the very next group.
func TestBatcherFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			mu      sync.Mutex
			groups  [][]string
			release = make(chan struct{})
		)
		b := NewBatcher(2, 0, func(g []string) {
			mu.Lock()
			groups = append(groups, slices.Clone(g))
			first := len(groups) == 1
			mu.Unlock()
			if first {
				<-release
			}
		})
		ctx := context.Background()
		go b.Send(ctx, "busy")
		synctest.Wait() // the first group is being handled
		for i := range 6 {
			go b.Send(ctx, fmt.Sprintf("move %d", i))
		}
		synctest.Wait() // the moves wait
		if err := b.SendFirst("renewal"); err != nil {
			t.Fatal(err)
		}
		close(release)
		b.Close()
		if len(groups) < 2 || !slices.Contains(groups[1], "renewal") {
			t.Fatalf("groups %q: want the renewal in the second", groups)
		}
		n := 0
		for _, g := range groups {
			n += len(g)
		}
		if n != 8 {
			t.Errorf("groups %q: %d items handled, want 8", groups, n)
		}
	})
}

// TestBatcherFirstAlone: an item sent first to an idle Batcher is
// handled at once, ticks or not; after Close SendFirst fails.
func TestBatcherFirstAlone(t *testing.T) {
	for _, tick := range []time.Duration{0, time.Second} {
		synctest.Test(t, func(t *testing.T) {
			got := make(chan []int, 1)
			b := NewBatcher(4, tick, func(g []int) { got <- slices.Clone(g) })
			if err := b.SendFirst(7); err != nil {
				t.Fatal(err)
			}
			if g := <-got; !slices.Equal(g, []int{7}) {
				t.Errorf("tick %v: group %v, want [7]", tick, g)
			}
			b.Close()
			if err := b.SendFirst(8); err != ErrClosed {
				t.Errorf("SendFirst after Close = %v, want ErrClosed", err)
			}
		})
	}
}

// TestBatcherMore: the items sent while a group is handled join it when
// the handler asks for more, up to the group's maximum, and the rest form
// the next group; each item is handled once.
func TestBatcherMore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			b      *Batcher[string]
			groups [][]string
		)
		ctx := context.Background()
		b = NewBatcher(3, 0, func(g []string) {
			if len(groups) == 0 { // items come while the first group runs
				for _, item := range []string{"late 1", "late 2", "late 3"} {
					if err := b.Send(ctx, item); err != nil {
						t.Error(err)
					}
				}
				g = b.More(g)
			}
			groups = append(groups, slices.Clone(g))
		})
		if err := b.Send(ctx, "first"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		b.Close()
		want := [][]string{{"first", "late 1", "late 2"}, {"late 3"}}
		if !slices.EqualFunc(groups, want, slices.Equal) {
			t.Errorf("groups %q, want %q", groups, want)
		}
	})
}

// TestBatcherSendsAlone: an item sent to an idle Batcher without a tick
// is handled by its sender, which returns once it is; items sent
// meanwhile wait, and are handled after it by the Batcher's goroutine,
// never two groups at once. With a tick, a sender only queues its item.
func TestBatcherSendsAlone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			mu            sync.Mutex
			groups        [][]string
			running, most int
			release       = make(chan struct{})
			sentA, sentB  atomic.Bool
		)
		b := NewBatcher(4, 0, func(g []string) {
			mu.Lock()
			groups = append(groups, slices.Clone(g))
			running++
			most = max(most, running)
			mu.Unlock()
			if g[0] == "a" {
				<-release
			}
			mu.Lock()
			running--
			mu.Unlock()
		})
		ctx := context.Background()
		go func() { b.Send(ctx, "a"); sentA.Store(true) }()
		synctest.Wait()
		if sentA.Load() {
			t.Fatal("Send returned before its item was handled")
		}
		go func() { b.Send(ctx, "b"); sentB.Store(true) }()
		synctest.Wait()
		if !sentB.Load() {
			t.Fatal("a Send while another's item is handled did not return at once")
		}
		close(release)
		synctest.Wait()
		b.Close()
		if !sentA.Load() || !slices.EqualFunc(groups, [][]string{{"a"}, {"b"}}, slices.Equal) || most != 1 {
			t.Errorf("returned %v, groups %q, at most %d at once: want true, [a] [b], 1", sentA.Load(), groups, most)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		b := NewBatcher(4, time.Second, func([]string) { <-release })
		var sent atomic.Bool
		go func() { b.Send(context.Background(), "a"); sent.Store(true) }()
		synctest.Wait()
		if !sent.Load() {
			t.Error("with a tick, Send waited for its item to be handled")
		}
		close(release)
		b.Close()
	})
}
