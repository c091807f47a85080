package main

import (
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/client"
)

// TestPlayWaitingRoomGiveUp: q in the waiting room of another's table
// asks whether to keep the seat or give it up; g frees it on the server,
// drops it from the seats kept, and says so; someone else takes it.
func TestPlayWaitingRoomGiveUp(t *testing.T) {
	t.Parallel()
	srv, c := testServer(t, 1000)
	info, _, err := c.Create(t.Context(), []string{"", "", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	link := srv.URL + "/g/" + info.ID
	term := newTerminal(t, 80, 24)
	status := playCommand(t, term, "--name", "Gus", "--lang", "en", link)
	term.waitFor(10*time.Second, "", "1  Gus (you)", "2  — open —")
	term.send("q")
	term.waitFor(5*time.Second, "", "k: keep your seat", "g: give it up for someone else")
	term.send("g")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
	term.waitFor(5*time.Second, "", "You gave up your seat")
	got, _, err := c.Game(t.Context(), info.ID, "")
	if err != nil || !got.Seats[0].Open {
		t.Fatalf("the seat on the server: %+v, %v; want it open", got.Seats, err)
	}
	store, err := client.DefaultSeatStore()
	if err != nil {
		t.Fatal(err)
	}
	// Game ids repeat between the tests' servers: the server tells them apart.
	if kept, err := store.GameSeats(c.URL(), info.ID); err != nil || len(kept) != 0 {
		t.Errorf("the seats kept for the game: %+v, %v; want none", kept, err)
	}
	if seat, _, err := c.Join(t.Context(), info.ID, "Ann", 0); err != nil || seat != 0 {
		t.Errorf("Ann takes the seat given up: %d, %v", seat, err)
	}
}
