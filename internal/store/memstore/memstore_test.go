package memstore

import (
	"testing"

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
