package protocol_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/rating"
)

// accountExamples returns the generated examples of the account API:
// the walk-through's Ann registers, plays the rated three-player game
// (she wins, the hard bot is second, Cy third) and looks at her profile.
// The ratings are the model's (internal/rating) for that game, with the
// hard bot at a fixed rating.
func accountExamples(t *testing.T) map[string]any {
	t.Helper()
	m := rating.Default()
	hard := rating.Rating{Mu: 31.2, Sigma: 1.1}
	after, err := m.Rate([]rating.Rating{m.New(), hard, m.New()}, []int{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	info := func(r rating.Rating, games int) protocol.RatingInfo {
		return protocol.RatingInfo{Display: r.Display(), Ordinal: round(r.Ordinal()), Mu: round(r.Mu), Sigma: round(r.Sigma), Games: games, Provisional: games < 10}
	}
	created := time.Date(2026, 3, 14, 18, 55, 3, 0, time.UTC)
	finished := time.Date(2026, 3, 14, 19, 31, 40, 0, time.UTC)
	used := finished.Add(time.Hour)
	ann := protocol.AccountInfo{Name: "Ann", Created: created, Rating: info(after[0], 1), Password: true,
		Passkeys: []protocol.PasskeyInfo{{ID: "q8Zr0V3nQ2yN7kYh1wX5aA", Name: "Passkey", Created: created.Add(2 * time.Minute), Used: &used}},
		Profile:  protocol.ProfilePath("Ann")}
	game := exampleInfo(protocol.StatusFinished, 64)
	game.Rated = true
	game.Seats[0].Account, game.Seats[2].Account = true, true
	game.Winners = []int{0}
	change := round(after[0].Ordinal() - m.New().Ordinal())
	shown := rating.DisplayChange(m.New(), after[0])
	played := protocol.PlayedGame{Game: game.ID, At: finished, Rated: true, Rank: 1, Score: 41, Seat: 0, Players: 3,
		Seats: []protocol.ResultSeat{{Name: "Ann", Rank: 1, Score: 41}, {Name: "Bot 2 (hard)", Bot: "hard", Rank: 2, Score: 33},
			{Name: "Cy", Rank: 3, Score: 18}},
		Replay: protocol.ReplayPath(game.ID), Change: &change, DisplayChange: &shown}
	live := exampleInfo(protocol.StatusPlaying, 8)
	live.ID, live.Invite = "p4w9c2n8rt", protocol.InvitePath("p4w9c2n8rt")
	live.Rated = true
	live.Seats[0].Account, live.Seats[2].Account = true, true
	toMove := 0
	live.ToMove = &toMove
	hardInfo := info(hard, 0)
	hardInfo.Provisional = false
	return map[string]any{
		"account-register": protocol.RegisterRequest{Name: "Ann", Password: "correct horse battery staple"},
		"account-session": protocol.SessionAnswer{Account: protocol.AccountInfo{Name: "Ann", Created: created, Rating: info(m.New(), 0),
			Password: true, Passkeys: []protocol.PasskeyInfo{}, Profile: protocol.ProfilePath("Ann")},
			Claimed: []string{"k3x7q2m5ab"}, Token: "MFRGGZDFMZTWQ2LKNNWG23TPOB"},
		"account-info":     protocol.AccountAnswer{Account: ann},
		"account-password": protocol.PasswordRequest{Old: "correct horse battery staple", New: "a longer secret of mine"},
		"passkey-register": protocol.PasskeyBeginRequest{Name: "Ann"},
		"passkey-begin": protocol.PasskeyBeginAnswer{Ceremony: "NBSWY3DPFQQHO33SNRSCC3DFMM",
			Options: json.RawMessage(`{"publicKey":{"rp":{"name":"Razzia","id":"razzia.example"},` +
				`"user":{"name":"Ann","displayName":"Ann","id":"3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},` +
				`"challenge":"kF0y6Y2lqQ8h3CqzT8Yb1mW9w4d6e7f8g9h0i1j2k3l","pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-257}],` +
				`"timeout":300000,"authenticatorSelection":{"residentKey":"required","requireResidentKey":true,"userVerification":"preferred"}}}`)},
		"passkey-finish": protocol.PasskeyFinishRequest{Ceremony: "NBSWY3DPFQQHO33SNRSCC3DFMM", Label: "Laptop",
			Credential: json.RawMessage(`{"id":"q8Zr0V3nQ2yN7kYh1wX5aA","rawId":"q8Zr0V3nQ2yN7kYh1wX5aA","type":"public-key",` +
				`"response":{"clientDataJSON":"eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIi...","attestationObject":"o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YV...",` +
				`"transports":["internal"]},"clientExtensionResults":{}}`)},
		"profile": protocol.ProfileAnswer{Profile: protocol.Profile{Name: "Ann", Created: created, Rating: info(after[0], 1),
			History:   []protocol.RatingPoint{{Game: game.ID, At: finished, Ordinal: round(after[0].Ordinal()), Mu: round(after[0].Mu), Sigma: round(after[0].Sigma)}},
			ByPlayers: []protocol.PlayerCount{{Players: 3, Played: 1, Won: 1}},
			Categories: []protocol.CategoryMean{{Category: "thieves", Mine: 2, Opponents: 1}, {Category: "bodyguards", Mine: 4, Opponents: 2},
				{Category: "cars", Mine: 9, Opponents: 3}, {Category: "jewels", Mine: 10, Opponents: 5}, {Category: "gold", Mine: 6, Opponents: 4},
				{Category: "businesses", Mine: 8, Opponents: 6.5}, {Category: "cheques", Mine: 4, Opponents: 6}},
			Bots:             []protocol.BotRecord{{Level: "hard", Rating: hardInfo, Games: 1, Wins: 1}},
			Recent:           []protocol.PlayedGame{played},
			ProvisionalGames: 10,
			Games:            protocol.GameCounts{Rated: 1, Casual: 4}}},
		"leaderboard": protocol.LeaderboardAnswer{MinGames: 10,
			Players: []protocol.LeaderEntry{{Rank: 1, Name: "Eve", Rating: protocol.RatingInfo{Display: rating.Rating{Mu: 27.9, Sigma: 2.17}.Display(), Ordinal: 21.4, Mu: 27.9, Sigma: 2.17, Games: 52},
				Profile: protocol.ProfilePath("Eve")}},
			Bots: []protocol.BotRecord{{Level: "hard", Rating: hardInfo}}},
		"my-games": protocol.MyGamesAnswer{Games: []protocol.MyGame{{Game: live, Seat: 0, YourTurn: true}, {Game: game, Seat: 0}}},
	}
}

// round keeps two decimals, as an example shows them.
func round(x float64) float64 {
	if x < 0 {
		return -round(-x)
	}
	return float64(int64(x*100+0.5)) / 100
}
