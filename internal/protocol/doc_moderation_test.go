package protocol_test

import (
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// moderationExamples adds the examples of moderation: a report, the
// operators' list, an action and its answer, a person's record and the
// live message telling them, and a chat line removed.
func moderationExamples(add func(string, any)) {
	at := time.Date(2026, 11, 24, 19, 12, 5, 0, time.UTC)
	until := at.Add(72 * time.Hour)
	line := 4
	add("report-request", protocol.ReportRequest{Player: "Cy", Game: "k3x7q2m5ab", Kind: protocol.ReportChat,
		Reason: "insults after every bid", Lines: []int{4}})
	add("report-answer", protocol.ReportAnswer{ID: "q2vb7hmt4kd9xwze"})
	suspend := protocol.ActionInfo{ID: "m8rj3pqxc2n6tt4a", Kind: protocol.ActionSuspend, Player: "Cy", Operator: "Ann",
		Reason: "insults in the chat, a second time", Game: "k3x7q2m5ab", Until: &until, At: at, Report: "q2vb7hmt4kd9xwze"}
	strike := protocol.ActionInfo{ID: "d4kw9sze2bq7mvxr", Kind: protocol.ActionStrike, Player: "Cy", Operator: "Ann",
		Reason: "an insult", Game: "k3x7q2m5ab", Line: &line, At: at.Add(-time.Minute)}
	add("reports-answer", protocol.ReportsAnswer{Reports: []protocol.ReportInfo{{
		ID: "q2vb7hmt4kd9xwze", Reporter: "Bea", Player: "Cy", Kind: protocol.ReportChat, Reason: "insults after every bid",
		At: at.Add(-20 * time.Minute),
		Game: protocol.GameLink{ID: "k3x7q2m5ab", Status: protocol.StatusPlaying, URL: "/g/k3x7q2m5ab",
			Seats: []protocol.SeatInfo{{Name: "Bea", Account: true}, {Name: "Cy", Account: true}, {Name: "Bot 3 (hard)", Bot: "hard"}}},
		Lines: []protocol.ModLine{{Seq: 4, Name: "Cy", Channel: protocol.ChannelPlayers, Text: "you bid like a fool",
			At: at.Add(-22 * time.Minute), Removed: true}},
		Standing: protocol.Standing{}}}, Actions: []protocol.ActionInfo{strike}})
	add("action-request", protocol.ActionRequest{Kind: protocol.ActionSuspend, Player: "Cy",
		Reason: "insults in the chat, a second time", Hours: 72, Report: "q2vb7hmt4kd9xwze"})
	add("action-strike", protocol.ActionRequest{Kind: protocol.ActionStrike, Game: "k3x7q2m5ab", Line: &line, Reason: "an insult"})
	standing := protocol.Standing{Suspended: true, SuspendedUntil: &until}
	add("action-answer", protocol.ActionAnswer{Action: suspend, Standing: standing, Removed: []string{"k3x7q2m5ab"}})
	add("moderation-me", protocol.ModerationAnswer{Standing: standing, Actions: []protocol.ActionInfo{suspend, strike}})
	add("moderation-message", protocol.ModerationMessage{Type: protocol.TypeModeration, Action: suspend, Standing: standing})
	add("chat-removed", protocol.ChatMessage{Type: protocol.TypeChat, Muted: []int{},
		Lines: []protocol.ChatLine{{Seq: 4, Seat: 1, Name: "Cy", Channel: protocol.ChannelPlayers, Move: 17,
			At: at.Add(-22 * time.Minute), Removed: true}}})
}
