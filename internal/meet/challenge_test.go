package meet_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/meet"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// TestChallengeAccepted: everyone challenged accepts, each told at once
// and pushed the challenge; the last accept seats all at a new table of
// the challenge's settings.
func TestChallengeAccepted(t *testing.T) {
	w := newWorld(t)
	ann, bob, cy := w.account("Ann", 1500), w.account("Bob", 1500), w.account("Cy", 1500)
	lb, lc := w.listen(bob), w.listen(cy)
	c, err := w.svc.Challenge(t.Context(), ann, []string{"Bob", "Cy"}, "blitz", true)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Mine || c.Status != protocol.ChallengeOpen || len(c.To) != 2 || c.From != "Ann" {
		t.Fatalf("the challenge: %+v", c)
	}
	for _, l := range []*page{lb, lc} {
		m := next(t, l, protocol.TypeChallenge)
		if m.Challenge.ID != c.ID || m.Challenge.Mine {
			t.Errorf("told %+v", m.Challenge)
		}
	}
	w.mu.Lock()
	pushed := slices.Clone(w.pushed)
	w.mu.Unlock()
	if !slices.Equal(pushed, []string{bob.Account + " " + c.ID, cy.Account + " " + c.ID}) {
		t.Errorf("pushed %v", pushed)
	}
	got, err := w.svc.Answer(t.Context(), bob, c.ID, true, "")
	if err != nil || got.Status != protocol.ChallengeOpen || got.To[0].Answer != "accept" {
		t.Fatalf("the first accept: %+v, %v", got, err)
	}
	got, err = w.svc.Answer(t.Context(), cy, c.ID, true, "")
	if err != nil || got.Status != protocol.ChallengeAccepted || got.Game == "" {
		t.Fatalf("the last accept: %+v, %v", got, err)
	}
	info, _, err := w.hub.Game(t.Context(), got.Game, "")
	if err != nil {
		t.Fatal(err)
	}
	if info.Status != protocol.StatusPlaying || !info.Rated || info.Pace.ID != "blitz" ||
		info.Seats[0].Name != "Ann" || info.Seats[1].Name != "Bob" || info.Seats[2].Name != "Cy" {
		t.Errorf("the table: %+v", info)
	}
	// Each holds their seat with their account's token.
	if _, you, _ := w.hub.Game(t.Context(), got.Game, "seat-"+bob.Account+"-"+got.Game); you != 1 {
		t.Errorf("Bob's token holds seat %d", you)
	}
	if m := next(t, lb, protocol.TypeChallenge); m.Challenge.Status != protocol.ChallengeAccepted && m.Challenge.Game == "" {
		// the first message after the push may be Bob's own accept
		if m := next(t, lb, protocol.TypeChallenge); m.Challenge.Game != got.Game {
			t.Errorf("Bob told %+v", m.Challenge)
		}
	}
	if _, err := w.svc.Answer(t.Context(), cy, c.ID, false, "later"); !errors.Is(err, protocol.ChallengeOver) {
		t.Errorf("answering an accepted challenge: %v", err)
	}
}

// TestChallengeSeatRetried: the last accept of a challenge whose table
// fails to be recorded (the store cut off) is seated at the second try;
// if that fails too, the next sweep seats it and tells everyone where.
// The challenge is not left accepted without a table, and no table given
// up is left waiting.
func TestChallengeSeatRetried(t *testing.T) {
	for _, c := range seatFailures {
		t.Run(c.name, func(t *testing.T) {
			w := newFlaky(t, c.fails)
			ann, bob := w.account("Ann", 1500), w.account("Bob", 1500)
			la := w.listen(ann)
			ch, err := w.svc.Challenge(t.Context(), ann, []string{"Bob"}, "blitz", false)
			if err != nil {
				t.Fatal(err)
			}
			got, err := w.svc.Answer(t.Context(), bob, ch.ID, true, "")
			if err != nil || got.Status != protocol.ChallengeAccepted || (got.Game == "") != (c.fails > 1) {
				t.Fatalf("the accept: %+v, %v", got, err)
			}
			if got.Game == "" {
				w.svc.Sweep(t.Context())
				if got, err = w.svc.Answer(t.Context(), bob, ch.ID, true, ""); !errors.Is(err, protocol.ChallengeOver) {
					t.Fatalf("answering again: %v", err)
				}
				m := next(t, la, protocol.TypeChallenge)
				for m.Challenge.Game == "" {
					m = next(t, la, protocol.TypeChallenge)
				}
				got = *m.Challenge
			}
			if info, _, err := w.hub.Game(t.Context(), got.Game, ""); err != nil || info.Status != protocol.StatusPlaying {
				t.Errorf("the table: %+v, %v", info, err)
			}
			if waiting, err := w.hub.List(t.Context(), store.StatusOpen); err != nil || len(waiting) != 0 {
				t.Errorf("tables waiting: %+v, %v", waiting, err)
			}
			w.svc.Sweep(t.Context()) // seated: a sweep makes no other table
			if playing, err := w.hub.List(t.Context(), store.StatusPlaying); err != nil || len(playing) != 1 {
				t.Errorf("tables in play: %+v, %v; want the one", playing, err)
			}
		})
	}
}

// TestChallengeDeclined: one decline ends the challenge for everyone,
// with its reason.
func TestChallengeDeclined(t *testing.T) {
	w := newWorld(t)
	ann, bob := w.account("Ann", 1500), w.account("Bob", 1500)
	la := w.listen(ann)
	c, err := w.svc.Challenge(t.Context(), ann, []string{"bob"}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.svc.Answer(t.Context(), bob, c.ID, false, "tomorrow"); !errors.Is(err, protocol.BadRequest) {
		t.Errorf("a reason not in the list: %v", err)
	}
	got, err := w.svc.Answer(t.Context(), bob, c.ID, false, "pace")
	if err != nil || got.Status != protocol.ChallengeDeclined || got.To[0].Reason != "pace" {
		t.Fatalf("the decline: %+v, %v", got, err)
	}
	for {
		m := next(t, la, protocol.TypeChallenge)
		if m.Challenge.Status == protocol.ChallengeDeclined {
			if m.Challenge.To[0].Reason != "pace" || !m.Challenge.Mine {
				t.Errorf("Ann told %+v", m.Challenge)
			}
			break
		}
	}
	if _, err := w.svc.Answer(t.Context(), bob, c.ID, true, ""); !errors.Is(err, protocol.ChallengeOver) {
		t.Errorf("an accept after the decline: %v", err)
	}
	list, err := w.svc.Challenges(t.Context(), bob)
	if err != nil || len(list) != 1 || list[0].Status != protocol.ChallengeDeclined {
		t.Errorf("Bob's challenges: %+v, %v", list, err)
	}
}

// TestChallengeLapsed: a challenge not answered in its pace's time
// lapses, and both sides are told.
func TestChallengeLapsed(t *testing.T) {
	w := newWorld(t)
	ann, bob := w.account("Ann", 1500), w.account("Bob", 1500)
	lb := w.listen(bob)
	c, err := w.svc.Challenge(t.Context(), ann, []string{"Bob"}, "rapid", false)
	if err != nil {
		t.Fatal(err)
	}
	rapid, _ := pace.Lookup("rapid")
	if got := c.Expires.Sub(c.Created); got != meet.LapseAfter(rapid) || got != time.Minute {
		t.Errorf("a rapid challenge waits %v", got)
	}
	w.clock.add(time.Minute - time.Millisecond)
	w.svc.Sweep(t.Context())
	if got, _ := w.st.Challenge(t.Context(), c.ID); got.Status != store.ChallengeOpen {
		t.Fatalf("before its time: %s", got.Status)
	}
	w.clock.add(time.Millisecond)
	w.svc.Sweep(t.Context())
	for {
		m := next(t, lb, protocol.TypeChallenge)
		if m.Challenge.Status == protocol.ChallengeLapsed {
			break
		}
	}
	if _, err := w.svc.Answer(t.Context(), bob, c.ID, true, ""); !errors.Is(err, protocol.ChallengeOver) {
		t.Errorf("an accept after the lapse: %v", err)
	}
}

func TestLapseAfter(t *testing.T) {
	for id, want := range map[string]time.Duration{"blitz": time.Minute, "rapid": time.Minute, "standard": 3 * time.Minute,
		"slow": 5 * time.Minute, "untimed": 3 * time.Minute, "day1": 24 * time.Hour, "day3": 72 * time.Hour} {
		p, _ := pace.Lookup(id)
		if got := meet.LapseAfter(p); got != want {
			t.Errorf("LapseAfter(%s) = %v, want %v", id, got, want)
		}
	}
}

// TestChallengeRefused: a guest's challenge, to oneself, to nobody, to
// too many, to an unknown name, at a pace that cannot be met, to a
// blocked person or one who blocks, and past the limit: each refused
// with its code, nothing stored, nobody told.
func TestChallengeRefused(t *testing.T) {
	w := newWorld(t)
	ann, bob, cy := w.account("Ann", 1500), w.account("Bob", 1500), w.account("Cy", 1500)
	w.account("Dee", 1500)
	w.blocks[[2]string{ann.Account, bob.Account}] = true // Ann blocks Bob
	for _, tc := range []struct {
		name  string
		p     meet.Person
		to    []string
		pace  string
		rated bool
		code  protocol.Code
	}{
		{"a guest", guest("Gus"), []string{"Ann"}, "", false, protocol.AccountRequired},
		{"oneself", ann, []string{"ANN"}, "", false, protocol.ChallengeSelf},
		{"nobody", ann, nil, "", false, protocol.BadRequest},
		{"five", ann, []string{"Bob", "Cy", "Dee", "Eve", "Fay"}, "", false, protocol.UnmetSettings},
		{"twice", ann, []string{"Cy", "cy"}, "", false, protocol.UnmetSettings},
		{"unknown", ann, []string{"Nobody"}, "", false, protocol.NotFound},
		{"untimed rated", ann, []string{"Cy"}, "untimed", true, protocol.UnmetSettings},
		{"no such pace", ann, []string{"Cy"}, "warp", false, protocol.UnmetSettings},
		{"one blocked", ann, []string{"Bob"}, "", false, protocol.Blocked},
		{"by one who blocks", bob, []string{"Ann"}, "", false, protocol.Blocked},
		{"among others", cy, []string{"Dee", "Ann"}, "", false, protocol.BadRequest}, // not blocked: see below
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := w.svc.Challenge(t.Context(), tc.p, tc.to, tc.pace, tc.rated)
			if tc.name == "among others" {
				if err != nil {
					t.Errorf("Cy challenges Dee and Ann: %v", err)
				}
				return
			}
			var e *meet.Error
			if !errors.Is(err, tc.code) || !errors.As(err, &e) || e.Msg == "" {
				t.Errorf("Challenge = %v, want %s", err, tc.code)
			}
		})
	}
	long := strings.Repeat("x", 3000)
	if _, err := w.svc.Challenge(t.Context(), ann, []string{long}, "", false); !errors.Is(err, protocol.NotFound) || len(err.Error()) > 200 {
		t.Errorf("a challenge to a 3000-letter name: %d bytes of %v, want a short not_found", len(err.Error()), err)
	}
	for _, p := range []meet.Person{ann, bob} {
		if list, _ := w.svc.Challenges(t.Context(), p); len(list) != 0 && p == bob {
			t.Errorf("%s has challenges %+v", p.Name, list)
		}
	}
	w.mu.Lock()
	n := len(w.pushed)
	w.mu.Unlock()
	if n != 2 { // Cy's challenge to Dee and Ann
		t.Errorf("%d pushed, want 2", n)
	}
	for i := range 5 {
		if _, err := w.svc.Challenge(t.Context(), ann, []string{"Cy"}, "", false); err != nil && i < 5 {
			t.Fatalf("challenge %d: %v", i+1, err)
		}
	}
	if _, err := w.svc.Challenge(t.Context(), ann, []string{"Cy"}, "", false); !errors.Is(err, protocol.TooManyChallenges) {
		t.Errorf("a sixth open challenge: %v", err)
	}
	// Cancelled, one frees its place; a cancelled one is over.
	list, _ := w.svc.Challenges(t.Context(), ann)
	i := slices.IndexFunc(list, func(c protocol.ChallengeInfo) bool { return c.Mine })
	if _, err := w.svc.CancelChallenge(t.Context(), cy, list[i].ID); !errors.Is(err, protocol.NotFound) {
		t.Errorf("cancelled by another: %v", err)
	}
	if _, err := w.svc.CancelChallenge(t.Context(), ann, list[i].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.svc.Answer(t.Context(), cy, list[i].ID, true, ""); !errors.Is(err, protocol.ChallengeOver) {
		t.Errorf("an accept of a cancelled challenge: %v", err)
	}
	if _, err := w.svc.Challenge(t.Context(), ann, []string{"Cy"}, "", false); err != nil {
		t.Errorf("after a cancel: %v", err)
	}
}
