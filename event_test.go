package razzia

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEventsOfAPoliceAuction(t *testing.T) {
	g, err := NewGame(Setup{Players: []string{"Miriam", "Felix", "Elke", "Dennis"},
		Cheques: [][]int{{3, 7, 12}, {4, 8, 11}, {5, 9, 10}, {2, 6, 13}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{"draw car", "draw police", "bid 8", "pass", "bid 13"} {
		if err := g.PlayToken(tok); err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
	}
	want := []string{
		`{"kind":"draw","seat":3,"card":"car"}`,
		`{"kind":"draw","seat":0,"card":"police","police":1}`,
		`{"kind":"auction","seat":0,"cards":["car"],"auction":"police"}`,
		`{"kind":"bid","seat":1,"cheque":8}`,
		`{"kind":"pass","seat":2}`,
		`{"kind":"bid","seat":3,"cheque":13}`,
		// Miriam (3 7 12) is passed over: nothing above 13.
		`{"kind":"win","seat":3,"cards":["car"],"cheque":13,"centre":1,"auction":"police"}`,
	}
	events := g.Events()
	if len(events) != len(want) {
		t.Fatalf("got %d events, want %d: %v", len(events), len(want), events)
	}
	for i, e := range events {
		got, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want[i] {
			t.Errorf("event %d = %s, want %s", i, got, want[i])
		}
	}
}

func TestEventJSONKeepsAnEmptyLot(t *testing.T) {
	for _, e := range []Event{
		{Kind: EventNoWinner, Seat: -1, Auction: AuctionPolice},
		{Kind: EventWin, Seat: 1, Cheque: 9, Centre: 1, Auction: AuctionForced},
	} {
		got, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(got), `"cards":[]`) {
			t.Errorf("%v event encodes as %s, want an empty cards list", e.Kind, got)
		}
	}
}

func TestEventJSONRoundTrip(t *testing.T) {
	g, err := NewGame(Setup{Players: []string{"A", "B", "C"}, Seed: []byte("round trip")})
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		legal := g.LegalMoves()
		if err := g.Play(legal[g.Len()%len(legal)]); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range g.Events() {
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var back Event
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("event %d %s: %v", i, data, err)
		}
		again, _ := json.Marshal(back)
		if string(again) != string(data) {
			t.Errorf("event %d: %s decodes and encodes as %s", i, data, again)
		}
		if e.Kind == EventNoWinner || e.Kind == EventRoundEnd || e.Kind == EventGameOver {
			if back.Seat != -1 {
				t.Errorf("event %d (%v) without a seat decodes with seat %d", i, e.Kind, back.Seat)
			}
		}
	}
	for _, bad := range []string{`{"kind":"nonsense"}`, `{"seat":1}`, `{"kind":"draw","card":"ferrari"}`, `{"kind":"auction","auction":"dutch"}`, `[]`} {
		var e Event
		if err := json.Unmarshal([]byte(bad), &e); err == nil {
			t.Errorf("%s decodes without an error", bad)
		}
	}
}
