package protocol_test

import (
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// paceExamples adds the examples of paces, clocks, take-overs, pre-moves
// and taking a seat back.
func paceExamples(t *testing.T, add func(string, any)) {
	t.Helper()
	add("create-paced", protocol.CreateRequest{Seats: []protocol.SeatRequest{{}, {Bot: "hard"}, {}}, Pace: "rapid"})
	rapid := &protocol.PaceInfo{ID: "rapid", Kind: "live", DecisionMs: 20000, ReserveMs: 180000, GraceMs: 15000}
	add("paces", protocol.PacesAnswer{Paces: []protocol.PaceInfo{
		{ID: "rapid", Kind: "live", DecisionMs: 20000, ReserveMs: 180000, GraceMs: 15000, Name: "Rapid", Describe: "20 s per decision + 3 min reserve"},
		{ID: "day1", Kind: "correspondence", DecisionMs: 86400000, ReserveMs: 604800000, GraceMs: 15000, Name: "Correspondence, 1 day",
			Describe: "1 day per decision, 7 days of vacation"},
	}})
	// Cy ran out of time at move 8 and a bot played for them; Ann decides now.
	at := time.Date(2026, 3, 14, 19, 9, 40, 0, time.UTC)
	serverTime := at.Add(95 * time.Second)
	start := serverTime.Add(-7 * time.Second)
	players := []string{"Ann", "Bot 2 (hard)", "Cy"}
	takeOver := protocol.TakeOver{Seat: 2, Bot: "hard", Reason: protocol.ReasonTimeout, Move: 8, At: at}
	takeOver.Text = english.T("table.timeout", "player", players[2], "bot", "hard")
	add("clock-fields", struct {
		Pace      *protocol.PaceInfo  `json:"pace"`
		Clock     *protocol.ClockView `json:"clock"`
		TakeOvers []protocol.TakeOver `json:"takeOvers"`
	}{rapid, &protocol.ClockView{ReserveMs: []int64{180000, 0, 0}, Running: 0,
		DecisionEnds: start.Add(20 * time.Second).UnixMilli(), Deadline: start.Add(200 * time.Second).UnixMilli(),
		ServerTime: serverTime.UnixMilli()}, []protocol.TakeOver{takeOver}})
	back, backAt := 11, at.Add(3*time.Minute)
	returned := takeOver
	returned.BackMove, returned.BackAt = &back, &backAt
	returned.BackText = english.T("table.back", "player", players[2])
	add("takeover-back", returned)
	add("premove", protocol.PreMoveMessage{Type: protocol.TypePreMove, Move: "bid 9"})
	add("premove-withdraw", protocol.PreMoveMessage{Type: protocol.TypePreMove})
	add("takeback", protocol.PreMoveMessage{Type: protocol.TypeTakeBack})
	add("leave", protocol.PreMoveMessage{Type: protocol.TypeLeave})
	add("continue", protocol.PreMoveMessage{Type: protocol.TypeContinue})
	// Round 1 ended at ended; Ann continued, Cy reads the scores still.
	ended := serverTime.Add(-4 * time.Second)
	add("clock-held", struct {
		Clock *protocol.ClockView `json:"clock"`
	}{&protocol.ClockView{ReserveMs: []int64{180000, 0, 0}, Running: -1, ServerTime: serverTime.UnixMilli(),
		HeldUntil: ended.Add(15 * time.Second).UnixMilli(), Continued: []int{0}}})
	add("premove-state", struct {
		PreMove        string `json:"preMove"`
		PreMoveDropped string `json:"preMoveDropped"`
	}{"bid 9", "the highest bid reached the pre-entered bid"})
	returned.Text, returned.BackText = "", ""
	add("record-meta", protocol.RecordMeta{Pace: rapid, TakeOvers: []protocol.TakeOver{returned}})
}
