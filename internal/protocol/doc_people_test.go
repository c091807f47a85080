package protocol_test

import (
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// peopleExamples adds the examples of the people around the tables: the
// live socket's messages, the online list, a player's presence, follows
// and blocks, and the seats' presence on a table's socket.
func peopleExamples(add func(string, any)) {
	since := time.Date(2026, 11, 24, 18, 2, 11, 0, time.UTC)
	away, seen := true, time.Date(2026, 11, 23, 21, 40, 5, 0, time.UTC)
	people := []protocol.PersonOnline{
		{Name: "Bea", Activity: protocol.ActivityPlaying, Game: "k3x7q2m5ab", Followed: true, Profile: "/p/Bea",
			Rating: &protocol.RatingInfo{Display: 1634, Ordinal: 8.1, Mu: 27.9, Sigma: 6.6, Games: 31},
			Finish: &protocol.FinishRate{Percent: 97, Games: 31, Left: 1}, Since: since},
		{Name: "Ann", Activity: protocol.ActivityLobby, Away: true, Profile: "/p/Ann", You: true,
			Rating: &protocol.RatingInfo{Display: 1500, Mu: 25, Sigma: 8.333, Provisional: true},
			Finish: &protocol.FinishRate{Percent: 100}, Since: since.Add(3 * time.Minute)},
		{Name: "Zoë", Guest: true, Activity: protocol.ActivityWatching, Game: "k3x7q2m5ab", Since: since.Add(5 * time.Minute)},
	}
	add("online-message", protocol.OnlineMessage{Type: protocol.TypeOnline, People: people, Online: 3, Playing: 1})
	add("online-answer", protocol.OnlineAnswer{People: people[2:], Online: 1, Playing: 1})
	add("notice-online", protocol.NoticeMessage{Type: protocol.TypeNotice, Kind: protocol.NoticeOnline, Name: "Bea"})
	add("notice-playing", protocol.NoticeMessage{Type: protocol.TypeNotice, Kind: protocol.NoticePlaying, Name: "Bea", Game: "k3x7q2m5ab"})
	add("away", protocol.AwayMessage{Type: protocol.TypeAway, Away: &away})
	add("player-presence", protocol.PlayerPresence{Name: "Bea", Online: true, Activity: protocol.ActivityPlaying, Game: "k3x7q2m5ab",
		Finish: protocol.FinishRate{Percent: 97, Games: 31, Left: 1}, Followers: 12, Following: true})
	add("player-presence-offline", protocol.PlayerPresence{Name: "Cy", LastSeen: &seen,
		Finish: protocol.FinishRate{Percent: 78, Games: 12, Left: 3}, Followers: 2, Blocking: true})
	add("relations", protocol.RelationsAnswer{Following: []string{"Bea", "Dan"}, Blocking: []string{"Cy"}})
	add("seats-message", protocol.SeatsMessage{Type: protocol.TypeSeats, Seats: []protocol.SeatPresence{
		{Seat: 0, Presence: protocol.SeatConnected}, {Seat: 1, Presence: protocol.SeatAway},
		{Seat: 3, Presence: protocol.SeatGone, LastSeen: &seen}}})
}
