package match_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

func TestAnswerRematch(t *testing.T) {
	seats := []store.Seat{{Name: "Ann"}, {Name: "Bob"}, {Name: "Bot 2", Bot: "easy"}}
	const yes, no = protocol.RematchYes, protocol.RematchNo
	open := func(answers ...string) *protocol.RematchOffer {
		return &protocol.RematchOffer{By: 0, State: protocol.RematchOpen, Answers: answers, Expires: t0.Add(time.Minute), Game: "g2"}
	}
	tests := []struct {
		name    string
		offer   *protocol.RematchOffer
		seat    int
		accept  bool
		tourney bool  // a tournament's table
		want    error // nil: answered
		lapsed  bool
		answers []string
		state   string
	}{
		{name: "first acceptance offers", seat: 1, accept: true, answers: []string{"", yes, yes}, state: protocol.RematchOpen},
		{name: "decline of no offer", seat: 1, want: match.ErrRematch},
		{name: "stranger", seat: -1, accept: true, want: match.ErrNotYourSeat},
		{name: "tournament table offers none", seat: 1, accept: true, tourney: true, want: match.ErrTournamentRematch},
		{name: "tournament table answers none", offer: open(yes, "", yes), seat: 1, accept: true, tourney: true, want: match.ErrTournamentRematch},
		{name: "acceptance", offer: open(yes, "", "", yes), seat: 1, accept: true, answers: []string{yes, yes, "", yes}, state: protocol.RematchOpen},
		{name: "last answer starts it", offer: open(yes, "", yes), seat: 1, accept: true, answers: []string{yes, yes, yes}, state: protocol.RematchStarted},
		{name: "last answer no, still enough", offer: open(yes, "", yes), seat: 1, answers: []string{yes, no, yes}, state: protocol.RematchStarted},
		{name: "answered already", offer: open(yes, no, yes), seat: 1, accept: true, want: match.ErrRematch},
		{name: "one offer per game", offer: &protocol.RematchOffer{State: protocol.RematchLapsed, Answers: []string{yes, no, no}}, seat: 1, accept: true, want: match.ErrRematch},
		{name: "time ran out", offer: &protocol.RematchOffer{State: protocol.RematchOpen, Answers: []string{yes, "", yes}, Expires: t0}, seat: 1, accept: true, lapsed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := seats
			if tt.offer != nil {
				s = make([]store.Seat, len(tt.offer.Answers))
				copy(s, seats)
			}
			var before []string
			if tt.offer != nil {
				before = slices.Clone(tt.offer.Answers)
			}
			made := 0
			next, lapsed, err := match.AnswerRematch(s, tt.tourney, tt.offer, tt.seat, tt.accept, t0, func() (string, time.Duration, error) {
				made++
				return "new", time.Minute, nil
			})
			if tt.offer != nil && !slices.Equal(tt.offer.Answers, before) {
				t.Errorf("the stored offer changed: %v", tt.offer.Answers)
			}
			if tt.want != nil {
				if got := reason(t, err); got != tt.want {
					t.Fatalf("refused as %v, want %v", got, tt.want)
				}
				return
			}
			if err != nil || lapsed != tt.lapsed {
				t.Fatalf("lapsed %v, err %v; want lapsed %v", lapsed, err, tt.lapsed)
			}
			if lapsed {
				return
			}
			if !slices.Equal(next.Answers, tt.answers) || next.State != tt.state {
				t.Errorf("offer %+v, want answers %v, %s", next, tt.answers, tt.state)
			}
			if tt.offer == nil && (made != 1 || next.Game != "new" || next.By != tt.seat || !next.Expires.Equal(t0.Add(time.Minute))) {
				t.Errorf("the new offer %+v (made %d times), want game new by seat %d open a minute", next, made, tt.seat)
			}
		})
	}
	failing := func() (string, time.Duration, error) { return "", 0, errors.New("no id") }
	if _, _, err := match.AnswerRematch(seats, false, nil, 0, true, t0, failing); reason(t, err) != match.ErrInternal {
		t.Errorf("an offer without an id: %v", err)
	}
}

func TestSettle(t *testing.T) {
	const yes, no = protocol.RematchYes, protocol.RematchNo
	for _, tt := range []struct {
		name    string
		answers []string
		want    string
	}{
		{"two accepted", []string{yes, "", yes}, protocol.RematchStarted},
		{"one accepted", []string{yes, no, ""}, protocol.RematchLapsed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := match.Settle(protocol.RematchOffer{State: protocol.RematchOpen, Answers: tt.answers})
			if o.State != tt.want {
				t.Errorf("settled as %s, want %s", o.State, tt.want)
			}
		})
	}
}

// TestCheckRematch: which games may have a rematch (the match's side of
// the Hub's TestRematchRejected).
func TestCheckRematch(t *testing.T) {
	people := []store.Seat{{Name: "Ann"}, {Name: "Bob"}}
	for _, tt := range []struct {
		name   string
		status store.Status
		seats  []store.Seat
		want   error
	}{
		{"a finished game", store.StatusFinished, people, nil},
		{"an open table", store.StatusOpen, people, match.ErrNotOver},
		{"a game in play", store.StatusPlaying, people, match.ErrNotOver},
		{"an expired table", store.StatusExpired, people, match.ErrExpired},
		{"a cancelled table", store.StatusCancelled, people, match.ErrCancelled},
		{"an uploaded record", store.StatusArchived, people, match.ErrBadRequest},
		{"a tutorial", store.StatusFinished, match.NewTutorial("g1", "Ann", hash("Ann"), t0).Seats, match.ErrBadRequest},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := &store.Game{ID: "g1", Status: tt.status, Seats: tt.seats, Updated: t0}
			err := match.CheckRematch(g, time.Hour)
			var r *match.Refusal
			if tt.want == nil && err != nil || tt.want != nil && (!errors.As(err, &r) || !errors.Is(err, tt.want) || r.Msg == "") {
				t.Errorf("CheckRematch = %v, want %v", err, tt.want)
			}
		})
	}
}
