package table

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestEncodedOncePerKey checks that the watchers of one change who see the
// same thing share one encoding, and that an encoding under way holds up
// only the watchers who need the same message.
func TestEncodedOncePerKey(t *testing.T) {
	c := &change{}
	var calls atomic.Int32
	encode := func(u Update) ([]byte, error) {
		calls.Add(1)
		return []byte{byte(u.Seat)}, nil
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if b, err := (&Update{Seat: 2, change: c}).Encoded("en", encode); err != nil || len(b) != 1 || b[0] != 2 {
				t.Errorf("Encoded = %v, %v", b, err)
			}
		})
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("8 watchers of one seat: %d encodings, want 1", n)
	}
	(&Update{Seat: 2, change: c}).Encoded("nl", encode)
	(&Update{Seat: 3, change: c}).Encoded("en", encode)
	if n := calls.Load(); n != 3 {
		t.Errorf("another language and another seat: %d encodings in all, want 3", n)
	}

	// Seat 0's encoding blocks until seat 1's is done.
	started, release := make(chan struct{}), make(chan struct{})
	go (&Update{Seat: 0, change: c}).Encoded("en", func(Update) ([]byte, error) {
		close(started)
		<-release
		return nil, nil
	})
	<-started
	done := make(chan struct{})
	go func() {
		(&Update{Seat: 1, change: c}).Encoded("en", encode)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Error("seat 1's message waited for seat 0's encoding")
	}
	close(release)
}
