package protocol_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// briefGameCases are messages whose game information DecodeBrief reads by
// hand: whole ones as servers send them, and odd ones off its path.
func briefGameCases(t testing.TB) map[string][]byte {
	at := time.Date(2026, 11, 22, 21, 0, 0, 123456789, time.FixedZone("x", 3600))
	seat := 2
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusFinished, Players: 3, Moves: 80,
		Seats:   []protocol.SeatInfo{{Name: "Ann", Account: true}, {Bot: "easy"}, {Name: "Zoë <&>", StandIn: "medium"}, {Open: true}},
		Created: at, Updated: at.Add(time.Second), Winners: []int{0, 2}, Invite: "/g/k3x7q2m5ab", Expires: &at, Rated: true,
		Pace: &protocol.PaceInfo{ID: "rapid", Kind: "live", DecisionMs: 1, ReserveMs: 2}, ToMove: &seat, RematchOf: "a", Rematch: "b",
		RematchOffer: &protocol.RematchOffer{By: 1, State: protocol.RematchOpen, Answers: []string{"yes"}, Expires: at}}
	full, err := json.Marshal(protocol.StateMessage{Type: protocol.TypeState, Game: info, Seat: 1})
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{
		"whole game":          full,
		"no seats":            []byte(`{"game":{"id":"a","seats":[],"created":"2026-01-02T03:04:05Z"}}`),
		"null seats":          []byte(`{"game":{"seats":null,"status":null,"updated":null,"rated":null}}`),
		"null game":           []byte(`{"game":null,"seat":1}`),
		"game not an object":  []byte(`{"game":[1]}`),
		"seat not an object":  []byte(`{"game":{"seats":[{"name":"a"},null]}}`),
		"seat of a number":    []byte(`{"game":{"seats":[7]}}`),
		"seat's wrong type":   []byte(`{"game":{"seats":[{"open":"yes"}]}}`),
		"seat's cased key":    []byte(`{"game":{"seats":[{"Name":"a"}]}}`),
		"seat's key twice":    []byte(`{"game":{"seats":[{"bot":"a","bot":"b"}]}}`),
		"game's key twice":    []byte(`{"game":{"moves":1,"moves":2}}`),
		"game's cased key":    []byte(`{"game":{"Moves":1}}`),
		"bad time":            []byte(`{"game":{"updated":"yesterday"}}`),
		"time of a number":    []byte(`{"game":{"created":5}}`),
		"escaped name":        []byte(`{"game":{"seats":[{"name":"A\u00e9\"b","open":false}]}}`),
		"unknown game member": []byte(`{"game":{"x":{"y":[1]},"id":"b","rated":false}}`),
		"spaces":              []byte("{\"game\" : { \"seats\" : [ { \"name\" : \"a\" } , { } ] , \"moves\" : 3 } }"),
	}
}

// TestDecodeBriefGameInfo: the game's information decodes as
// json.Unmarshal decodes it, whole or odd.
func TestDecodeBriefGameInfo(t *testing.T) {
	for name, data := range briefGameCases(t) {
		t.Run(name, func(t *testing.T) { checkBrief(t, data) })
	}
}

func FuzzDecodeBriefGameInfo(f *testing.F) {
	for _, data := range briefGameCases(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkBrief(t, data) })
}
