package memstore

import (
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return New() })
}

func TestClosed(t *testing.T) {
	s := New()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game(t.Context(), "x"); err == nil {
		t.Error("Game after Close succeeded")
	}
	if _, err := s.List(t.Context(), store.StatusOpen, 0); err == nil {
		t.Error("List after Close succeeded")
	}
}

func TestStamps(t *testing.T) {
	storetest.RunStamps(t, func(_ *testing.T, now func() time.Time) store.Store { return NewOptions(Options{Now: now}) })
}

// TestHearerWrites: a hearer hears as the store's lock is released
// (storeLock), so one that calls the store does not wait for itself.
func TestHearerWrites(t *testing.T) { storetest.HearerWrites(t, New()) }

// TestHearerHoldsNoWrite: a hearer held up holds up the goroutine that
// delivers to it, not the store's lock.
func TestHearerHoldsNoWrite(t *testing.T) { storetest.HearerHoldsNoWrite(t, New()) }
