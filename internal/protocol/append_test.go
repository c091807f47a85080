package protocol

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia"
)

// teller narrates an event in a sentence that names its players, as a
// catalogue does, so that their names reach the events' texts.
type teller struct{}

func (teller) Narrate(e razzia.Event, players []string) string {
	name := "nobody"
	if e.Seat >= 0 && e.Seat < len(players) {
		name = players[e.Seat]
	}
	return fmt.Sprintf("%s: %s «%d»\u2028\xff\x01\n", name, e.Kind, e.Cheque)
}

// checkAppend fails unless AppendJSON appends what json.Marshal makes of m.
func checkAppend(t *testing.T, what string, m *StateMessage) {
	t.Helper()
	want, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("%s: json.Marshal: %v", what, err)
	}
	got, err := m.AppendJSON([]byte("prefix"))
	if err != nil {
		t.Fatalf("%s: AppendJSON: %v", what, err)
	}
	if string(got) != "prefix"+string(want) {
		t.Fatalf("%s:\n got %s\nwant prefix%s", what, got, want)
	}
}

// gameInfo is a game's information with the optional parts set by turns.
func gameInfo(g *razzia.Game, i int, players []string) GameInfo {
	at := time.Date(2026, 11, 22, 20, 0, i%60, i*1_000_123, time.UTC)
	info := GameInfo{ID: "g" + fmt.Sprint(i), Status: StatusPlaying, Players: len(players), Moves: g.Len(),
		Created: at.Add(-time.Hour), Updated: at, Invite: "/g/x"}
	for s, name := range players {
		info.Seats = append(info.Seats, SeatInfo{Name: name, Bot: []string{"", "easy"}[s%2], Account: s == 0,
			Open: s == 3, StandIn: []string{"", "", "hard <&>"}[((s+i)%3+3)%3]})
	}
	if i%3 == 0 {
		seat := i % len(players)
		info.ToMove, info.Rated = &seat, true
		info.Pace = &PaceInfo{ID: "rapid", Kind: "live", DecisionMs: 10000, ReserveMs: 60000, Describe: "<fast> & \u2028"}
	}
	if i%5 == 0 {
		info.Expires = &at
		info.RematchOffer = &RematchOffer{By: 1, State: RematchOpen, Answers: []string{"yes", ""}, Expires: at}
	}
	if g.Over() {
		info.Status, info.Winners = StatusFinished, g.Winners()
	}
	return info
}

// TestAppendJSONAsMarshal: the state message of every view (every seat's
// and a spectator's) at every moment of many games of two to five
// players, with their events (told and untold) and every optional part
// by turns, is appended byte for byte as json.Marshal encodes it.
func TestAppendJSONAsMarshal(t *testing.T) {
	names := []string{"Miriam", `<b>Felix</b> & "co"`, "Zoë", "Ann\\", "Ed"}
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		for seed := range 6 {
			p := names[:players]
			if seed%2 == 0 {
				p = []string{"Miriam", "Felix", "Elke", "Dennis", "Ann"}[:players]
			}
			g, err := razzia.NewGame(razzia.Setup{Players: p, Seed: []byte{byte(players), byte(seed)}})
			if err != nil {
				t.Fatal(err)
			}
			open := &StateMessage{Type: TypeState, Game: gameInfo(g, 0, p), Seat: -1}
			checkAppend(t, "an open table", open)
			prev := 0
			for i := 0; ; i++ {
				public := NewView(g.View(-1))
				var narrator Narrator
				if i%2 == 0 {
					narrator = teller{}
				}
				events := Events(g.EventsSince(prev), p, narrator)
				for seat := -1; seat < players; seat++ {
					m := &StateMessage{Type: TypeState, Game: gameInfo(g, i+seat, p), Seat: seat, View: public.ForSeat(g.View(seat)), Events: events}
					switch (i + seat) % 4 {
					case 0:
						m.Clock = &ClockView{ReserveMs: []int64{60000, 45000}, Running: seat, DecisionEnds: 10000, Deadline: 55000, ServerTime: int64(i)}
					case 1:
						m.TakeOvers = []TakeOver{{Seat: 1, Bot: "easy", Reason: ReasonTimeout, Move: 3, At: time.Unix(int64(i), 5).UTC(), Text: p[1] + " <left>"}}
						m.PreMove = "bid 9"
					case 2:
						m.PreMoveDropped = "a higher bid & more"
					}
					checkAppend(t, fmt.Sprintf("%d players, seed %d, move %d, seat %d", players, seed, g.Len(), seat), m)
				}
				prev = g.Len()
				if g.Over() {
					break
				}
				legal := g.LegalMoves()
				if err := g.Play(legal[(i*7+seed)%len(legal)]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// FuzzAppendJSON: any player names, texts and tokens are escaped as
// json.Marshal escapes them, at any moment of a game.
func FuzzAppendJSON(f *testing.F) {
	f.Add("Miriam", "<b>", "bid 9", 5)
	f.Add("Zoë\u2028\u2029", "a\"b\\c\x00\x1f\x7f", "\xff\xfe", 40)
	f.Add("", "&amp;", "", 0)
	f.Fuzz(func(t *testing.T, name, text, token string, moves int) {
		players := []string{name, "Felix", strings.ToUpper(name)}
		g, err := razzia.NewGame(razzia.Setup{Players: players, Seed: []byte(text)})
		if err != nil {
			t.Skip()
		}
		for i := 0; i < moves%200 && !g.Over(); i++ {
			legal := g.LegalMoves()
			if err := g.Play(legal[i%len(legal)]); err != nil {
				t.Fatal(err)
			}
		}
		for seat := -1; seat < len(players); seat++ {
			v := NewView(g.View(seat))
			v.Phase, v.Row = token, append(v.Row, text, token)
			v.Remaining[text] = moves
			m := &StateMessage{Type: TypeState, Game: gameInfo(g, moves, players), Seat: seat, View: &v,
				Events: Events(g.Events(), players, teller{}), PreMove: token, PreMoveDropped: text}
			checkAppend(t, fmt.Sprintf("seat %d", seat), m)
		}
	})
}

// BenchmarkAppendJSON compares the two encodings of a state in the middle
// of a four-player game.
func BenchmarkAppendJSON(b *testing.B) {
	players := []string{"Miriam", "Felix", "Elke", "Dennis"}
	g, err := razzia.NewGame(razzia.Setup{Players: players, Seed: []byte("bench")})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 60 && !g.Over(); i++ {
		legal := g.LegalMoves()
		if err := g.Play(legal[i%len(legal)]); err != nil {
			b.Fatal(err)
		}
	}
	v := NewView(g.View(g.ToMove()))
	m := &StateMessage{Type: TypeState, Game: gameInfo(g, 1, players), Seat: g.ToMove(), View: &v,
		Events: Events(g.EventsSince(g.Len()-2), players, teller{})}
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendJSON", func(b *testing.B) {
		var buf []byte // reused, as the server reuses its buffers
		for b.Loop() {
			var err error
			if buf, err = m.AppendJSON(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestAppendEventAsMarshal: events of every kind, made up with their rare
// parts and with values no game makes, append as json.Marshal encodes them.
func TestAppendEventAsMarshal(t *testing.T) {
	events := []razzia.Event{
		{Kind: razzia.EventThieves, Seat: 1, Cards: []razzia.Kind{razzia.Car, razzia.Gold}},
		{Kind: razzia.EventThieves, Seat: 1, Cards: []razzia.Kind{}},
		{Kind: razzia.EventNoWinner, Seat: -1, Auction: razzia.AuctionSeventh, Cards: []razzia.Kind{razzia.Ring}},
		{Kind: razzia.EventNoWinner, Seat: -1, Auction: razzia.AuctionPolice},
		{Kind: razzia.EventAuction, Seat: 2, Auction: razzia.AuctionForced},
		{Kind: razzia.EventWin, Seat: 0, Cheque: 9, Centre: 3, Auction: razzia.AuctionPolice, Cards: []razzia.Kind{razzia.Police}},
		{Kind: razzia.EventDraw, Seat: 3, Card: razzia.Police, Police: 4},
		{Kind: razzia.EventRoundEnd, Seat: -1, Round: 2, PoliceLimit: true, Scores: []razzia.Score{{1, -2, 3}, {}}},
		{Kind: razzia.EventGameOver, Seat: -1, Winners: []int{0, 2}},
		{Kind: razzia.EventBid, Seat: -5, Cheque: -1, Round: 7, Winners: []int{}},
		{Kind: 0, Seat: 1},
		{Kind: 42, Seat: 1},
		{Kind: razzia.EventDraw, Seat: 1, Card: 99},
		{Kind: razzia.EventAuction, Seat: 1, Auction: 9},
	}
	for i, e := range events {
		for _, text := range []string{"", "a <b> \u2028 \"c\""} {
			ev := Event{Event: e, Text: text}
			want, werr := json.Marshal([]Event{ev})
			got, gerr := appendEvents(nil, []Event{ev})
			if (werr != nil) != (gerr != nil) || string(got) != string(want) {
				t.Errorf("event %d: got %s (%v), want %s (%v)", i, got, gerr, want, werr)
			}
		}
	}
}

// TestAppendTimeAsMarshal: a time appends as its MarshalJSON makes it,
// in any zone, and fails where it fails.
func TestAppendTimeAsMarshal(t *testing.T) {
	times := []time.Time{
		{},
		time.Date(2026, 11, 25, 3, 4, 5, 0, time.UTC),
		time.Date(2026, 11, 25, 3, 4, 5, 120_000_000, time.UTC),
		time.Date(2026, 11, 25, 3, 4, 5, 1, time.FixedZone("", 5*3600+30*60)),
		time.Date(2026, 11, 25, 3, 4, 5, 1, time.FixedZone("", -7*3600)),
		time.Date(2026, 11, 25, 3, 4, 5, 1, time.FixedZone("", 3600+17)),
		time.Date(2026, 11, 25, 3, 4, 5, 1, time.FixedZone("", 24*3600)),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Unix(1, 2).In(time.Local),
	}
	for _, tm := range times {
		want, werr := tm.MarshalJSON()
		got, gerr := appendTime([]byte("x"), tm)
		if (werr != nil) != (gerr != nil) || werr == nil && string(got) != "x"+string(want) {
			t.Errorf("%v: got %s (%v), want %s (%v)", tm, got, gerr, want, werr)
		}
	}
}

// TestAppendPaceAndClockAsMarshal: a pace and clocks append as
// json.Marshal encodes them, with and without their optional parts.
func TestAppendPaceAndClockAsMarshal(t *testing.T) {
	paces := []PaceInfo{{}, {ID: "rapid", Kind: "live", DecisionMs: 10000, ReserveMs: 60000, GraceMs: 15000, Name: "Rapid <&>", Describe: "vite \u2028 \"é\""},
		{ID: "day1", Kind: "correspondence", DecisionMs: -1}}
	for _, p := range paces {
		want, _ := json.Marshal(&p)
		if got := p.appendJSON(nil); string(got) != string(want) {
			t.Errorf("pace: got %s, want %s", got, want)
		}
	}
	clocks := []ClockView{{}, {ReserveMs: []int64{}, Running: -1}, {ReserveMs: []int64{60000, -3}, Running: 1, DecisionEnds: 5, Deadline: 6, ServerTime: 7, HeldUntil: 8, Continued: []int{0, 2}},
		{Continued: []int{}}}
	for _, c := range clocks {
		want, _ := json.Marshal(&c)
		if got := c.appendJSON(nil); string(got) != string(want) {
			t.Errorf("clock: got %s, want %s", got, want)
		}
	}
}

// TestAppendPatchHead: a patch message made of AppendPatchHead, its
// events encoded once, is AppendJSON's, whatever its base.
func TestAppendPatchHead(t *testing.T) {
	events := []Event{{Event: razzia.Event{Kind: razzia.EventDraw, Seat: 3, Card: razzia.Police, Police: 4}}}
	for _, tc := range []struct {
		name          string
		base, version int64
		events        []Event
	}{
		{"next", 41, 42, events},
		{"from an older version", 39, 42, events},
		{"no events", 41, 42, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patch := json.RawMessage(`{"view":{"seat":1}}`)
			m := PatchMessage{Type: TypePatch, Base: tc.base, Version: tc.version, Events: tc.events, Patch: patch}
			want, err := m.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := AppendEvents(nil, tc.events)
			if err != nil {
				t.Fatal(err)
			}
			got := append(append(AppendPatchHead(nil, tc.base, tc.version, ev), patch...), '}')
			if string(got) != string(want) {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// FuzzAppendString: any string is quoted and escaped as json.Marshal
// does it, and without an allocation when the buffer has room.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"Miriam", "Zoë", "Erdős Pál", "<b>&amp;</b>", "a\"b\\c\x00\x1f\x7f\b\f\n\r\t",
		"\xff\xfe", "\u2028\u2029", "\xe2\x80", "日本語", "\U0001F600", "\ufffd", ""} {
		f.Add(s)
	}
	buf := make([]byte, 0, 1024)
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got[1:], want)
		}
		if len(s) < 100 {
			if n := testing.AllocsPerRun(2, func() { buf = appendString(buf[:0], s) }); n != 0 {
				t.Fatalf("appendString(%q): %v allocations", s, n)
			}
		}
	})
}
