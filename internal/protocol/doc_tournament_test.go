package protocol_test

import (
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// tournamentExamples adds the examples of tournaments: a Swiss evening
// of a club, seen by one of its players during round 2.
func tournamentExamples(add func(string, any)) {
	start := time.Date(2026, 3, 14, 19, 0, 0, 0, time.UTC)
	brk := 60
	set := protocol.TournamentSettings{Name: "Tuesday club night", Format: protocol.FormatSwiss, TableSize: 4, Pace: "rapid",
		Rated: true, Start: &start, Rounds: 4, BreakSeconds: &brk, MaxPlayers: 24, Password: "door code", Fill: false,
		Absent: protocol.AbsentBot, TooFew: protocol.TooFewWait}
	add("tournament-create", set)
	add("tournament-join", protocol.TournamentRequest{Password: "door code"})
	add("tournament-remove", protocol.TournamentRequest{Name: "Dan"})
	summary := protocol.TournamentSummary{ID: "t4k8w2cm9q", Name: "Tuesday club night", Format: protocol.FormatSwiss,
		Status: protocol.TournamentRunning, Organiser: "Ann", Start: &start, TableSize: 4, Pace: "rapid", Rated: true,
		Private: true, Rounds: 4, Round: 2, Players: 7, Max: 24}
	add("tournament-list", protocol.TournamentList{Coming: []protocol.TournamentSummary{}, Running: []protocol.TournamentSummary{summary},
		Finished: []protocol.TournamentSummary{}})
	set.Password = ""
	started := start.Add(2 * time.Minute)
	total := func(n int) *int { return &n }
	pts := func(x float64) *float64 { return &x }
	t := protocol.Tournament{TournamentSummary: summary, Version: 31, Settings: set, Started: &started,
		People: []protocol.TournamentPerson{{Name: "Ann", Rating: 1612, Status: protocol.PlayerIn}, {Name: "Bea", Rating: 1540, Status: protocol.PlayerIn},
			{Name: "Cy", Rating: 1500, Status: protocol.PlayerPaused}},
		Ranking: []protocol.TournamentLine{
			{Rank: 1, Name: "Bea", Points: 1, Buchholz: 0.67, Games: 1, Wins: 1, Score: 38, Sheet: []float64{1}, Status: protocol.PlayerIn},
			{Rank: 2, Name: "Ann", Points: 0.67, Buchholz: 1.33, Games: 1, Wins: 0, Score: 31, Sheet: []float64{0.67}, Status: protocol.PlayerIn},
		},
		RoundsPlayed: []protocol.TournamentRound{
			{Number: 1, Tables: []protocol.TournamentTable{{Index: 1, Game: "q7nd2kx4ma", Ready: true, Over: true, Seats: []protocol.TournamentSeat{
				{Name: "Bea", Total: total(38), Points: pts(1)}, {Name: "Ann", Total: total(31), Points: pts(0.67)},
				{Name: "Cy", Total: total(12), Points: pts(0), Forfeited: true}, {Name: "Dan", Total: total(20), Points: pts(0.33)}}}}},
			{Number: 2, Tables: []protocol.TournamentTable{{Index: 1, Game: "m2p6xk3rdt", Ready: true, Seats: []protocol.TournamentSeat{
				{Name: "Ann"}, {Name: "Bea"}, {Name: "Eve"}, {Name: "Bot", Bot: true}}}}},
		},
		You: &protocol.TournamentYou{Name: "Ann", Joined: true, Status: protocol.PlayerIn, Game: "m2p6xk3rdt"},
	}
	add("tournament", t)
	add("tournament-message", protocol.TournamentMessage{Type: protocol.TypeTournament, Tournament: protocol.Tournament{
		TournamentSummary: summary, Version: 32, Settings: set, Started: &started, Next: ptrTime(start.Add(40 * time.Minute)),
		People: []protocol.TournamentPerson{}, Ranking: []protocol.TournamentLine{}, RoundsPlayed: []protocol.TournamentRound{}}})
	add("tournament-deal", protocol.TournamentDeal{Deal: 14, Players: 4, Cheques: [][]int{{2, 6, 13}, {3, 7, 12}, {4, 5, 11}, {1, 8, 10}},
		Cards: []string{"ring", "police", "car", "thief", "gold", "restaurant"}})
	add("tournament-entries", protocol.TournamentEntries{Tournaments: []protocol.TournamentEntry{
		{ID: "t4k8w2cm9q", Name: "Tuesday club night", Format: protocol.FormatSwiss, Status: protocol.TournamentFinished,
			Start: started, Rank: 2, Points: 2.67, Players: 7}}})
}

func ptrTime(t time.Time) *time.Time { return &t }
