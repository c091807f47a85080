package protocol_test

import (
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// meetExamples adds the examples of Play now and challenges.
func meetExamples(add func(string, any)) {
	at := time.Date(2026, 3, 14, 19, 40, 5, 0, time.UTC)
	add("seek-request", protocol.SeekRequest{Min: 3, Max: 4, Pace: "rapid", RatingMin: 1400, RatingMax: 1800, MinFinish: 80, BotsAfter: 60})
	finish, seat := 94, 2
	mine := protocol.SeekInfo{ID: "w4k9qd2m7xbe", Name: "Ann", SignedIn: true, Min: 3, Max: 4, Pace: "rapid", Rating: 1612,
		RatingMin: 1400, RatingMax: 1800, Finish: &finish, MinFinish: 80, BotsAfter: 60, Status: protocol.SeekOpen, Created: at, Mine: true}
	add("seek-answer", protocol.SeekAnswer{Seek: mine})
	guest := protocol.SeekInfo{ID: "p2r7c3vn8fhz", Name: "Bruno", Min: 2, Max: 2, Pace: "blitz", Status: protocol.SeekOpen,
		Created: at.Add(-40 * time.Second)}
	add("seeks-answer", protocol.SeeksAnswer{Seeks: []protocol.SeekInfo{guest, mine}, Mine: []protocol.SeekInfo{mine}})
	add("seek-join", protocol.SeekJoinRequest{Name: "Cleo"})
	paired := mine
	paired.Status, paired.Game, paired.Seat = protocol.SeekPaired, "q7nd2kx4ma", &seat
	add("meet-seek", protocol.MeetMessage{Type: protocol.TypeSeek, Seek: &paired})
	add("meet-seeks", protocol.MeetMessage{Type: protocol.TypeSeeks, Seek: &guest})
	add("seek-seat", protocol.SeekSeatAnswer{Game: protocol.GameInfo{ID: "q7nd2kx4ma", Status: protocol.StatusPlaying, Players: 3,
		Seats: []protocol.SeatInfo{{Name: "Bruno"}, {Name: "Bot 2 (medium)", Bot: "medium"}, {Name: "Cleo"}}, Created: at, Updated: at,
		Invite: protocol.InvitePath("q7nd2kx4ma")}, Seat: 2, Token: "KZ3TQ6J2XWLN5BRH4PAMUE7YCD"})
	add("challenge-request", protocol.ChallengeRequest{To: []string{"Bea", "Cy"}, Pace: "standard", Rated: true})
	c := protocol.ChallengeInfo{ID: "h3m8x2kq9tvd", From: "Ann", To: []protocol.ChallengedInfo{{Name: "Bea", Answer: "accept"}, {Name: "Cy"}},
		Pace: "standard", Rated: true, Status: protocol.ChallengeOpen, Created: at, Expires: at.Add(3 * time.Minute)}
	add("meet-challenge", protocol.MeetMessage{Type: protocol.TypeChallenge, Challenge: &c})
	add("challenge-answer-request", protocol.AnswerRequest{Accept: false, Reason: "later"})
	declined := c
	declined.To = []protocol.ChallengedInfo{{Name: "Bea", Answer: "accept"}, {Name: "Cy", Answer: "decline", Reason: "later"}}
	declined.Status, declined.Mine = protocol.ChallengeDeclined, true
	add("challenge-answer", protocol.ChallengeAnswer{Challenge: declined})
}
