package client

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSeatStore(t *testing.T) {
	s := &SeatStore{Path: filepath.Join(t.TempDir(), "razzia", "seats.json")}
	if got, err := s.Seats("http://a"); err != nil || len(got) != 0 {
		t.Fatalf("an empty store has %v, %v", got, err)
	}
	a := SavedSeat{Server: "http://a", Game: "aaaaaaaaaa", Seat: 1, Name: "Ann", Token: "t1"}
	b := SavedSeat{Server: "http://b", Game: "bbbbbbbbbb", Seat: 0, Name: "Ann", Token: "t2"}
	for _, x := range []SavedSeat{a, b, {Server: "http://a", Game: "aaaaaaaaaa", Seat: 2, Token: "t3"}} {
		if err := s.Save(x); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(s.Path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the file's mode is %v (%v), want 0600: tokens are secrets", fi.Mode(), err)
	}
	got, err := s.GameSeats("http://a", "aaaaaaaaaa")
	if err != nil || len(got) != 2 || got[0].Token != "t3" || got[1].Token != "t1" {
		t.Errorf("GameSeats = %+v, %v; want two seats, the newer (t3) first", got, err)
	}
	// The same seat saved again replaces the one kept; another seat of the
	// same game is kept beside it (two people at one computer).
	if err := s.Save(SavedSeat{Server: "http://a", Game: "aaaaaaaaaa", Seat: 2, Token: "t4"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GameSeats("http://a", "aaaaaaaaaa"); len(got) != 2 || got[0].Token != "t4" || got[1].Token != "t1" {
		t.Errorf("after saving seat 2 again: %+v; want t4 and t1", got)
	}
	if err := s.Drop(a); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GameSeats("http://a", "aaaaaaaaaa"); len(got) != 1 || got[0].Token != "t4" {
		t.Errorf("after dropping t1: %+v; want t4 alone", got)
	}
	if err := s.Forget("http://a", "aaaaaaaaaa"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GameSeats("http://a", "aaaaaaaaaa"); len(got) != 0 {
		t.Error("a forgotten seat is still there")
	}
	if got, _ := s.GameSeats("http://b", "bbbbbbbbbb"); len(got) != 1 {
		t.Error("forgetting a seat lost another server's")
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(s.Path), ".seats-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestSeatStoreCheckLeavesNothing: checking a store whose folders do not
// exist yet leaves none behind (a command that fails next keeps nothing);
// the seat saved after the check makes them.
func TestSeatStoreCheckLeavesNothing(t *testing.T) {
	home := t.TempDir()
	s := &SeatStore{Path: filepath.Join(home, "config", "razzia", "seats.json")}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(home); len(left) != 0 {
		t.Errorf("the check left %v in %s", left, home)
	}
	if err := s.Save(SavedSeat{Server: "http://a", Game: "aaaaaaaaaa", Token: "t1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Seats("http://a"); err != nil || len(got) != 1 {
		t.Errorf("after a check the store has %v, %v; want the seat saved", got, err)
	}
}

// Saves at the same time all arrive: none overwrites another's.
func TestSeatStoreConcurrent(t *testing.T) {
	s := &SeatStore{Path: filepath.Join(t.TempDir(), "seats.json")}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if err := s.Save(SavedSeat{Server: "http://a", Game: fmt.Sprintf("game%06d", i), Token: "t"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if seats, _ := s.Seats("http://a"); len(seats) != 20 {
		t.Errorf("%d seats kept of 20", len(seats))
	}
}

// A file that is not the store's is an error naming it, and is left as
// it was.
func TestSeatStoreDamaged(t *testing.T) {
	s := &SeatStore{Path: filepath.Join(t.TempDir(), "seats.json")}
	if err := os.WriteFile(s.Path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := s.Save(SavedSeat{Server: "http://a", Game: "aaaaaaaaaa"})
	if err == nil || !strings.Contains(err.Error(), s.Path) {
		t.Errorf("Save over a damaged file: %v", err)
	}
	if data, _ := os.ReadFile(s.Path); string(data) != "{not json" {
		t.Errorf("the damaged file was changed: %q", data)
	}
}

// A server that takes the connection and never answers is a failed
// attempt after DialTimeout, told to OnDrop, not a wait without end.
func TestSessionSilentServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	c, err := New("http://" + ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := c.Session("k3x7q2m5ab", "tok")
	s.DialTimeout = 50 * time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	dropped := make(chan error, 1)
	s.OnDrop = func(err error, _ time.Duration) {
		select {
		case dropped <- err:
		default:
		}
		cancel()
	}
	go s.Next(ctx)
	select {
	case err := <-dropped:
		if !strings.Contains(err.Error(), "cannot connect") {
			t.Errorf("OnDrop heard %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the session still waits for a server that never answers")
	}
}
