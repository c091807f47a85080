package razzia

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadRecord feeds arbitrary bytes to ReadRecord and replays what it
// accepts. Nothing panics; an error is a *RecordError naming a move that
// exists, by the token the file gives; what is read writes out and reads
// back the same, and replays the same.
func FuzzReadRecord(f *testing.F) {
	f.Add([]byte(example(exampleMoves...)))
	f.Add([]byte(example("draw police", "bid 13")))
	f.Add([]byte(example("call", "pass", "pass", "pass", "pass")))
	f.Add([]byte(example("draw gold", "draw gold", "draw gold", "draw gold")))
	f.Add([]byte(strings.Replace(example("draw police", "bid 6"), `"bid 6"`, "6", 1)))
	f.Add([]byte(`{"format": "razzia-record/1", "players": ["A", "B"], "cheques": [[3, 4, 7, 8], [2, 5, 6, 9]], "moves": ["DRAW   Thief", "draw"]}`))
	f.Add([]byte(`{"format": "razzia-record/1", "players": ["A"], "moves": []}`))
	f.Add([]byte(`{"format": "razzia-record/2"} trailing`))
	f.Add([]byte(`{"format": "razzia-record/1", "players": ["A", "B"], "moves": [null, "thief car car", 1e400]}`))
	for n := MinPlayers; n <= MaxPlayers; n++ {
		var buf bytes.Buffer
		finished := playSeeded(f, n, []byte("fuzz corpus"), uint64(n))
		if _, err := finished.Record().WriteTo(&buf); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ReadRecord(bytes.NewReader(data))
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) || !errors.Is(err, ErrRecord) {
				t.Fatalf("ReadRecord error %T %v, want a *RecordError wrapping ErrRecord", err, err)
			}
			if re.Move == 0 {
				if re.Token != "" {
					t.Fatalf("a file error names token %q", re.Token)
				}
				return
			}
			// A move that is not a string: the file decodes, and the token
			// is that move's text.
			var raw struct {
				Moves []json.RawMessage `json:"moves"`
			}
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatalf("error %v names move %d of a file that does not decode: %v", re, re.Move, err)
			}
			if re.Move < 1 || re.Move > len(raw.Moves) || re.Token != string(raw.Moves[re.Move-1]) {
				t.Fatalf("error names move %d %q; the file has %d moves", re.Move, re.Token, len(raw.Moves))
			}
			return
		}
		g, gerr := rec.Game()
		checkReplayError(t, rec, g, gerr)

		var out bytes.Buffer
		if _, err := rec.WriteTo(&out); err != nil {
			t.Fatalf("WriteTo: %v", err)
		}
		back, err := ReadRecord(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("reading back what WriteTo wrote: %v\n%s", err, out.Bytes())
		}
		if !reflect.DeepEqual(back, rec) {
			t.Fatalf("read back %#v, wrote %#v", back, rec)
		}
		g2, gerr2 := back.Game()
		checkReplayError(t, back, g2, gerr2)
		if (gerr == nil) != (gerr2 == nil) || g2.State() != g.State() {
			t.Fatalf("the written record replays differently: %v, then %v", gerr, gerr2)
		}
	})
}

// checkReplayError checks what Record.Game returned for a record that
// ReadRecord accepted.
func checkReplayError(t *testing.T, rec *Record, g *Game, err error) {
	t.Helper()
	if g == nil {
		t.Fatalf("Record.Game returned no game (error %v) for a record ReadRecord accepted", err)
	}
	if err == nil {
		if g.Len() != len(rec.Moves) {
			t.Fatalf("%d moves replayed of %d", g.Len(), len(rec.Moves))
		}
		st := g.State()
		if msg := checkState(&st); msg != "" {
			t.Fatalf("after the replay: %s", msg)
		}
		return
	}
	var re *RecordError
	if !errors.As(err, &re) {
		t.Fatalf("Record.Game error %T %v, want a *RecordError", err, err)
	}
	if re.Move < 1 || re.Move > len(rec.Moves) || re.Token != rec.Moves[re.Move-1] {
		t.Fatalf("error names move %d %q; the record has %d moves", re.Move, re.Token, len(rec.Moves))
	}
	if !isSentinel(err) {
		t.Fatalf("error %v matches no sentinel", err)
	}
	if g.Len() != re.Move-1 {
		t.Fatalf("the game holds %d moves, want the %d before move %d", g.Len(), re.Move-1, re.Move)
	}
}

// FuzzParseMove: ParseMove never panics; a parsed move's String is a
// canonical lower-case token that parses back to the same move.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{
		"draw police", "draw", "DRAW   RealEstate", "  draw car  ", "thief car driver", "thief driver car",
		"thief ring ring ring ring ring ring", "thief ring ring ring ring ring ring ring", "thief police",
		"thief", "call", "CALL", "call 3", "pass", "bid 9", "bid 16", "bid 17", "bid 0", "bid -1", "bid +9",
		"bid 09", "bid 9 9", "bid", "draw ferrari", "draw car car", "", "   ", "steal car", "draw\tcar",
		"draw racetrac\u212a", "draw\u00a0car", "bid \u0669", "thief gold gold gold",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, token string) {
		m, err := ParseMove(token)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || !(errors.Is(err, ErrSyntax) || errors.Is(err, ErrUnknownCard)) {
				t.Fatalf("ParseMove(%q) error %T %v, want a *SyntaxError", token, err, err)
			}
			if err.Error() == "" {
				t.Fatalf("ParseMove(%q): empty message", token)
			}
			if m != (Move{}) {
				t.Fatalf("ParseMove(%q) returned %v with an error", token, m)
			}
			return
		}
		if m.Action < ActionDraw || m.Action > ActionPass {
			t.Fatalf("ParseMove(%q) = %#v: no action", token, m)
		}
		s := m.String()
		if s != strings.ToLower(s) || strings.Join(strings.Fields(s), " ") != s || !isASCII(s) {
			t.Fatalf("ParseMove(%q).String() = %q is not a canonical token", token, s)
		}
		back, err := ParseMove(s)
		if err != nil || back != m {
			t.Fatalf("ParseMove(%q) = %#v; its String %q parses to %#v, %v", token, m, s, back, err)
		}
		if text, err := m.MarshalText(); err != nil || string(text) != s {
			t.Fatalf("MarshalText = %q, %v; String = %q", text, err, s)
		}
		// The verb is the token's first word, in any case.
		if verb := strings.Fields(token)[0]; !strings.EqualFold(verb, strings.Fields(s)[0]) {
			t.Fatalf("ParseMove(%q) = %q: another verb", token, s)
		}
		if m.Action == ActionThieves && m.Taken() != len(strings.Fields(token))-1 {
			t.Fatalf("ParseMove(%q) = %q takes %d cards", token, s, m.Taken())
		}
	})
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fuzzMove decodes one move from the script at i and returns it and the
// next position. Most opcodes pick a legal move, so games get far; the rest
// build well-formed moves (any record token could spell them) that may or
// may not be legal.
func fuzzMove(script []byte, i int, legal []Move) (Move, int) {
	next := func() byte {
		if i >= len(script) {
			return 0
		}
		i++
		return script[i-1]
	}
	op := next()
	switch op % 10 {
	case 0, 1, 2, 3:
		if len(legal) == 0 {
			return Draw(NoKind), i
		}
		return legal[int(next())%len(legal)], i
	case 4:
		return Draw(Kind(next() % (numKinds + 2))), i // NoKind, every card, and not a card
	case 5:
		return Bid(int(next() % (MaxCheque + 3))), i // 0 and 17, 18 too
	case 6:
		return Pass(), i
	case 7:
		return Call(), i
	default:
		n := 1 + int(next())%(MaxTake+1)
		kinds := make([]Kind, n)
		for j := range kinds {
			kinds[j] = Kind(next() % numKinds)
		}
		return Thieves(kinds...), i
	}
}

// FuzzMoves drives a Game with a sequence of moves, legal or not. An illegal
// move returns a *MoveError matching a sentinel and changes nothing; a legal
// one is applied exactly as State.Apply would. Check accepts exactly the
// moves LegalMoves offers. The record of what was played replays the same.
func FuzzMoves(f *testing.F) {
	f.Add(byte(2), []byte("seed"), make([]byte, 600))
	f.Add(byte(3), []byte("seed"), legalScript(300))
	f.Add(byte(4+128), []byte("five"), legalScript(400))
	f.Add(byte(0), []byte{}, []byte{4, 1, 4, 0, 0, 0, 4, 11, 4, 11, 4, 11, 4, 11, 6, 5, 9, 7, 6, 6, 6, 6, 8, 2, 10, 9})
	f.Add(byte(1), []byte("x"), []byte{7, 6, 6, 6, 6, 5, 13, 5, 2, 8, 3, 10, 10, 10, 0, 0, 4, 19, 4, 20, 5, 0, 5, 17})
	f.Add(byte(3), []byte("long"), bytes.Repeat([]byte{0, 7, 4, 10, 8, 0, 3, 7, 9, 5, 16}, 120))
	f.Fuzz(func(t *testing.T, players byte, seed []byte, script []byte) {
		n := MinPlayers + int(players)%(MaxPlayers-MinPlayers+1)
		setup := Setup{Players: names[:n], Seed: seed}
		if players >= 128 {
			setup.Cheques = DealCheques(n, rand.New(rand.NewPCG(uint64(players), uint64(len(seed)))))
		}
		g, err := NewGame(setup)
		if err != nil {
			t.Fatal(err)
		}
		if len(script) > 4000 {
			script = script[:4000]
		}
		for i := 0; i < len(script); {
			before := g.State()
			legal := g.LegalMoves()
			var m Move
			m, i = fuzzMove(script, i, legal)
			moves := g.Len()
			checkErr := before.Check(m)
			if (checkErr == nil) != offered(legal, &before, m) {
				t.Fatalf("Check(%v) = %v, but LegalMoves %v", m, checkErr, legal)
			}
			err := g.Play(m)
			after := g.State()
			if err != nil {
				var me *MoveError
				if !errors.As(err, &me) || !isSentinel(err) {
					t.Fatalf("Play(%v) error %T %v, want a *MoveError matching a sentinel", m, err, err)
				}
				noChance := len(seed) == 0 && m == Draw(NoKind) && before.Phase() == PhaseTurn
				if checkErr == nil && !(noChance && errors.Is(err, ErrNoChance)) {
					t.Fatalf("Play(%v) = %v, but Check accepts it", m, err)
				}
				if after != before || g.Len() != moves {
					t.Fatalf("the illegal move %v changed the game", m)
				}
				if me.Seat != before.ToMove() || (me.Seat >= 0 && me.Player != names[me.Seat]) {
					t.Fatalf("error %v names seat %d %q, seat %d is to move", err, me.Seat, me.Player, before.ToMove())
				}
				continue
			}
			if checkErr != nil {
				t.Fatalf("Play(%v) succeeded, but Check says %v", m, checkErr)
			}
			if g.Len() != moves+1 {
				t.Fatalf("Play(%v) recorded %d moves, had %d", m, g.Len(), moves)
			}
			played := g.Moves()[moves]
			if m == Draw(NoKind) {
				if played.Action != ActionDraw || played.Card == NoKind || before.Remaining(played.Card) == 0 {
					t.Fatalf("the seed drew %v", played)
				}
			} else if played != m {
				t.Fatalf("Play(%v) recorded %v", m, played)
			}
			want := before
			want.Apply(played)
			if after != want {
				t.Fatalf("Play(%v) left another state than Apply(%v)", m, played)
			}
			if msg := checkState(&after); msg != "" {
				t.Fatalf("after %v: %s", played, msg)
			}
		}

		// Every move played made at least one event.
		if len(g.Events()) < g.Len() {
			t.Fatalf("%d events for %d moves", len(g.Events()), g.Len())
		}

		// The record of the moves played replays to the same game.
		var out bytes.Buffer
		if _, err := g.Record().WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		replay, err := readGame(out.String())
		if err != nil {
			t.Fatalf("the game's own record does not replay: %v", err)
		}
		if replay.State() != g.State() || !reflect.DeepEqual(replay.Moves(), g.Moves()) {
			t.Fatalf("the record replays to another game")
		}
	})
}

// TestCheckRejectsStrayFields: a Move is one record token and comparable
// with ==, so Check (and so Game.Play) refuses moves whose fields other than
// the action's own are set, such as a pass carrying a cheque. Accepting them
// let Game.Moves hold a move that differs from the one its record replays
// to, and took a bot that filled in the wrong field at its action's word.
func TestCheckRejectsStrayFields(t *testing.T) {
	turn, err := NewState(4, nil)
	if err != nil {
		t.Fatal(err)
	}
	auction := turn
	auction.Apply(Draw(Police))
	tests := []struct {
		name string
		s    State
		m    Move
	}{
		{"pass with a cheque", auction, Move{Action: ActionPass, Cheque: 12}},
		{"bid with a card", auction, Move{Action: ActionBid, Cheque: 12, Card: Car}},
		{"call with a cheque", turn, Move{Action: ActionCall, Cheque: 13}},
		{"draw with thieves' cards", turn, Move{Action: ActionDraw, Card: Car, Take: [MaxTake]Kind{Car}}},
		{"draw with a cheque", turn, Move{Action: ActionDraw, Cheque: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.s.Check(tt.m); err == nil {
				t.Errorf("Check accepts %#v (%v), which no token spells", tt.m, tt.m)
			}
		})
	}
}

// legalScript returns a FuzzMoves script of n legal choices, varied so
// that every action comes up.
func legalScript(n int) []byte {
	script := make([]byte, 0, 2*n)
	for i := range n {
		script = append(script, 0, byte(i*37))
	}
	return script
}

// TestFuzzMoveDecoder checks that the fuzz scripts reach every action and
// the end of the game, so FuzzMoves's seed corpus means something.
func TestFuzzMoveDecoder(t *testing.T) {
	g, err := NewGame(Setup{Players: names[:3], Seed: []byte("seed")})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[Action]bool{}
	script := legalScript(300)
	for i := 0; i < len(script); {
		var m Move
		m, i = fuzzMove(script, i, g.LegalMoves())
		if g.Play(m) == nil {
			seen[m.Action] = true
		}
	}
	if !g.Over() {
		t.Errorf("300 legal choices did not finish a 3-player game")
	}
	for _, a := range []Action{ActionDraw, ActionCall, ActionBid, ActionPass} {
		if !seen[a] {
			t.Errorf("no legal %v played", a)
		}
	}
}
