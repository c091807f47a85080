package client_test

import (
	"errors"
	"testing"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// TestPlayNowClients: two guests' clients pair through Play now; the
// first hears it on the live socket, and each takes its seat with
// the token the server answers.
func TestPlayNowClients(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ctx := servertest.Context(t)
	ann, bob := srv.Client(), srv.Client()
	conn, err := ann.DialLobby(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	a, err := ann.Seek(ctx, protocol.SeekRequest{Min: 2, Pace: "blitz", Name: "Ann"})
	if err != nil || a.Status != protocol.SeekOpen {
		t.Fatalf("Seek = %+v, %v", a, err)
	}
	list, err := bob.Seeks(ctx)
	if err != nil || len(list.Seeks) != 1 || list.Seeks[0].Mine {
		t.Fatalf("Bob's list: %+v, %v", list, err)
	}
	b, err := bob.JoinSeek(ctx, a.ID, "Bob")
	if err != nil || b.Status != protocol.SeekPaired {
		t.Fatalf("JoinSeek = %+v, %v", b, err)
	}
	for {
		m, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == protocol.TypeSeek && m.Seek.Status == protocol.SeekPaired {
			break
		}
	}
	for _, c := range []struct {
		cl *client.Client
		id string
	}{{ann, a.ID}, {bob, b.ID}} {
		seat, err := c.cl.SeekSeat(ctx, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if _, you, err := c.cl.Game(ctx, seat.Game.ID, seat.Token); err != nil || you != seat.Seat {
			t.Errorf("the token holds seat %d (%v), want %d", you, err, seat.Seat)
		}
	}
	if _, err := ann.CancelSeek(ctx, a.ID); !errors.Is(err, protocol.SeekGone) {
		t.Errorf("cancelling a paired request: %v", err)
	}
}

// TestChallengeClients: a signed-in client challenges another, which
// hears it, accepts, and takes its seat.
func TestChallengeClients(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ctx := servertest.Context(t)
	ann, bob := srv.Client(), srv.Client()
	for name, c := range map[string]*client.Client{"Ann": ann, "Bob": bob} {
		if _, err := c.Register(ctx, name, "correct horse battery staple"); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := bob.DialLobby(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c, err := ann.Challenge(ctx, protocol.ChallengeRequest{To: []string{"Bob"}, Pace: "rapid"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := conn.Read(ctx)
	if err != nil || m.Type != protocol.TypeChallenge || m.Challenge.ID != c.ID {
		t.Fatalf("Bob heard %+v, %v", m, err)
	}
	list, err := bob.Challenges(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("Bob's challenges: %+v, %v", list, err)
	}
	got, err := bob.Answer(ctx, c.ID, true, "")
	if err != nil || got.Game == "" {
		t.Fatalf("Answer = %+v, %v", got, err)
	}
	seat, err := bob.ChallengeSeat(ctx, c.ID)
	if err != nil || seat.Seat != 1 {
		t.Fatalf("ChallengeSeat = %+v, %v", seat, err)
	}
	if _, you, err := bob.Game(ctx, got.Game, seat.Token); err != nil || you != 1 {
		t.Errorf("Bob's token holds seat %d (%v)", you, err)
	}
}
