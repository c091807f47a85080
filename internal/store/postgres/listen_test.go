package postgres

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// hear waits for n notices on ch, none of them Missed.
func hear(t *testing.T, ch <-chan store.Notice, n int) []store.Notice {
	t.Helper()
	timeout := time.After(30 * time.Second)
	var got []store.Notice
	for len(got) < n {
		select {
		case m := <-ch:
			if m.Missed {
				t.Fatalf("after %d notices: a Missed notice (the listening connection was made again)", len(got))
			}
			got = append(got, m)
		case <-timeout:
			t.Fatalf("%d of %d notices heard", len(got), n)
		}
	}
	return got
}

// TestListenAllocations: a notification heard costs the listener its
// payload's string and no more, for a subscriber as for a hearer, which
// hears every one in order: the wait is not a context watched per
// notification (a registration a notice), nor pgx's queue, nor pgx's
// decoding of the message. Every node hears several notifications a move.
func TestListenAllocations(t *testing.T) {
	t.Run("Subscribe", func(t *testing.T) {
		listenAllocations(t, func(s *Store) (<-chan store.Notice, error) { return s.Subscribe(t.Context(), "allocs") })
	})
	t.Run("Hear", func(t *testing.T) {
		listenAllocations(t, func(s *Store) (<-chan store.Notice, error) {
			heard := make(chan store.Notice, 4096)
			_, err := s.Hear(t.Context(), func(m store.Notice) { heard <- m }, "allocs")
			return heard, err
		})
	})
}

func listenAllocations(t *testing.T, subscribe func(*Store) (<-chan store.Notice, error)) {
	const n = 2000
	url := pgtest.DirectDB(t) // the proxy would count its own allocations
	s := open(t, url)
	defer s.Close()
	notices, err := subscribe(s)
	if err != nil {
		t.Fatal(err)
	}
	sender, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close(t.Context())
	send := func(n int) {
		t.Helper()
		// One statement, one row: the sender's allocations do not grow
		// with n.
		if _, err := sender.Exec(t.Context(), "SELECT count(pg_notify('allocs', 'payload ' || i)) FROM generate_series(1, $1) AS i", n); err != nil {
			t.Fatal(err)
		}
	}
	send(10) // the connections made, the first buffers grown
	hear(t, notices, 10)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	send(n)
	got := hear(t, notices, n)
	runtime.ReadMemStats(&after)
	for i, m := range got {
		if m.Channel != "allocs" || m.Payload != fmt.Sprint("payload ", i+1) {
			t.Fatalf("notice %d is %+v", i, m)
		}
	}
	per := float64(after.Mallocs-before.Mallocs) / n
	t.Logf("%.2f allocations a notification", per)
	// The payload's string (noticeReader): pgx's decoding took 5 (the
	// message's two byte slices and two strings, the Notification), and a
	// context watched per wait 4 more.
	if per > 1.5 {
		t.Errorf("%.2f allocations a notification heard; want at most 1.5", per)
	}
}

// TestListenInterrupted: a Subscribe to a new channel interrupts the
// listener's wait and keeps its connection (no Missed notice, nothing
// lost): the notices before and after it arrive, and so do those of the
// new channel.
func TestListenInterrupted(t *testing.T) {
	t.Parallel()
	s := open(t, pgtest.DB(t))
	defer s.Close()
	first, err := s.Subscribe(t.Context(), "first")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Publish(t.Context(), "first", "before"); err != nil {
		t.Fatal(err)
	}
	hear(t, first, 1)
	for i := range 20 {
		second, err := s.Subscribe(t.Context(), fmt.Sprintf("second%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Publish(t.Context(), fmt.Sprintf("second%d", i), "new"); err != nil {
			t.Fatal(err)
		}
		if err := s.Publish(t.Context(), "first", fmt.Sprint("after ", i)); err != nil {
			t.Fatal(err)
		}
		if got := hear(t, second, 1); got[0].Payload != "new" {
			t.Fatalf("second%d heard %+v", i, got)
		}
		if got := hear(t, first, 1); got[0].Payload != fmt.Sprint("after ", i) {
			t.Fatalf("first heard %+v, want after %d", got, i)
		}
	}
	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Close did not end the listener's wait")
	}
}

// TestHearClosed: the Store's Close ends a hearer.
func TestHearClosed(t *testing.T) {
	t.Parallel()
	s := open(t, pgtest.DB(t))
	defer s.Close()
	done, err := s.Hear(t.Context(), func(store.Notice) {}, "heard")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Close did not end the hearer")
	}
}
