package razzia

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// exampleHeader is the header of the example in RECORD.md.
const exampleHeader = `"format": "razzia-record/1",
  "players": ["Miriam", "Felix", "Elke", "Dennis"],
  "cheques": [[2, 6, 13], [3, 7, 12], [4, 8, 11], [5, 9, 10]]`

// example returns a record with the RECORD.md header and the given moves.
func example(moves ...string) string {
	m, err := json.Marshal(append([]string{}, moves...))
	if err != nil {
		panic(err)
	}
	return "{\n  " + exampleHeader + ",\n  \"moves\": " + string(m) + "\n}\n"
}

// file returns a record with the given players and moves, cheques absent.
func file(players []string, moves ...string) string {
	p, _ := json.Marshal(players)
	m, _ := json.Marshal(append([]string{}, moves...))
	return fmt.Sprintf(`{"format": "razzia-record/1", "players": %s, "moves": %s}`, p, m)
}

var names = []string{"Miriam", "Felix", "Elke", "Dennis", "Ann", "Bob"}

// readGame reads a record and replays it, as razzia replay does.
func readGame(data string) (*Game, error) {
	rec, err := ReadRecord(strings.NewReader(data))
	if err != nil {
		return nil, err
	}
	return rec.Game()
}

// The moves of E1-E3 on the RECORD.md table: Miriam holds 13 and starts (R6);
// the fourth draw, police, is Dennis's, so the auction starts with Miriam
// (R7, R10).
var exampleMoves = []string{"draw watch", "draw car", "draw bodyguard", "draw police",
	"bid 6", "pass", "bid 8", "pass", "call"}

func TestRecordExample(t *testing.T) {
	g, err := readGame(example(exampleMoves...))
	if err != nil {
		t.Fatal(err)
	}
	s := g.State()
	const miriam, felix, elke = 0, 1, 2
	// R11: Elke takes the row and the 1 face down; her 8 goes to the centre;
	// Miriam keeps her 6.
	h := s.Holdings(elke)
	if h[Watch] != 1 || h[Car] != 1 || h[Bodyguard] != 1 {
		t.Errorf("Elke holds %v, want the watch, the car and the bodyguard", h)
	}
	if s.FaceDown(elke) != ChequesOf(1) || s.Centre() != 8 || s.FaceUp(elke) != ChequesOf(4, 11) {
		t.Errorf("Elke %v up, %v down, centre %d; want 4 11 up, 1 down, centre 8", s.FaceUp(elke), s.FaceDown(elke), s.Centre())
	}
	if s.FaceUp(miriam) != ChequesOf(2, 6, 13) {
		t.Errorf("Miriam holds %v, want 2 6 13", s.FaceUp(miriam))
	}
	// R12, R9: Miriam, left of Dennis, called; Felix is asked first.
	if s.Auction() != AuctionForced || s.Initiator() != miriam || s.ToMove() != felix {
		t.Errorf("auction %v by seat %d, seat %d to move; want forced by Miriam, Felix to move",
			s.Auction(), s.Initiator(), s.ToMove())
	}
	if g.Len() != len(exampleMoves) {
		t.Errorf("%d moves replayed, want %d", g.Len(), len(exampleMoves))
	}
}

// TestRecordExampleAsPrinted replays RECORD.md's example exactly as printed.
// Its moves are illustrative: "bid 7" cannot be Miriam's (she holds 2 6 13,
// and no order of the sets makes those moves legal), so the replay stops
// there with the error RECORD.md describes.
func TestRecordExampleAsPrinted(t *testing.T) {
	printed := `{
  "format": "razzia-record/1",
  "players": ["Miriam", "Felix", "Elke", "Dennis"],
  "cheques": [[2, 6, 13], [3, 7, 12], [4, 8, 11], [5, 9, 10]],
  "moves": ["draw watch", "draw car", "draw bodyguard", "draw police",
            "bid 7", "pass", "bid 9", "pass", "call", "..."]
}`
	g, err := readGame(printed)
	var re *RecordError
	if !errors.As(err, &re) || re.Move != 5 || re.Token != "bid 7" || !errors.Is(err, ErrNotHeld) {
		t.Fatalf("got %v, want move 5 (bid 7) not held", err)
	}
	if g == nil || g.Len() != 4 {
		t.Errorf("the game should hold the 4 moves before the illegal one")
	}
}

func TestRecordCheques(t *testing.T) {
	// R4 in seat order.
	rulebook := map[int][][]int{
		2: {{2, 5, 6, 9}, {3, 4, 7, 8}},
		3: {{2, 5, 8, 13}, {3, 6, 9, 12}, {4, 7, 10, 11}},
		4: {{2, 6, 13}, {3, 7, 12}, {4, 8, 11}, {5, 9, 10}},
		5: {{2, 7, 16}, {3, 8, 15}, {4, 9, 14}, {5, 10, 13}, {6, 11, 12}},
	}
	tests := []struct {
		name    string
		players int
		cheques string // JSON, "" for absent
		want    [][]int
		starts  int // R6: the holder of the highest cheque
	}{
		{"R4 default 2 players", 2, "", rulebook[2], 0},
		{"R4 default 3 players", 3, "", rulebook[3], 0},
		{"R4 default 4 players", 4, "", rulebook[4], 0},
		{"R4 default 5 players", 5, "", rulebook[5], 0},
		{"R4 null is absent", 4, "null", rulebook[4], 0},
		{"R4 permutation 4 players", 4, "[[5,9,10],[2,6,13],[4,8,11],[3,7,12]]",
			[][]int{{5, 9, 10}, {2, 6, 13}, {4, 8, 11}, {3, 7, 12}}, 1},
		{"R4 permutation 2 players", 2, "[[3,4,7,8],[2,5,6,9]]", [][]int{{3, 4, 7, 8}, {2, 5, 6, 9}}, 1},
		{"R4 permutation 5 players", 5, "[[6,11,12],[5,10,13],[4,9,14],[3,8,15],[2,7,16]]",
			[][]int{{6, 11, 12}, {5, 10, 13}, {4, 9, 14}, {3, 8, 15}, {2, 7, 16}}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := json.Marshal(names[:tt.players])
			cheques := ""
			if tt.cheques != "" {
				cheques = `"cheques": ` + tt.cheques + ","
			}
			g, err := readGame(fmt.Sprintf(`{"format": "razzia-record/1", "players": %s, %s "moves": []}`, p, cheques))
			if err != nil {
				t.Fatal(err)
			}
			s := g.State()
			for seat, set := range tt.want {
				if s.FaceUp(seat) != ChequesOf(set...) || s.FaceDown(seat) != 0 {
					t.Errorf("seat %d holds %v up, %v down; want %v up", seat, s.FaceUp(seat), s.FaceDown(seat), set)
				}
			}
			if s.Centre() != 1 {
				t.Errorf("centre %d, want 1 (R4)", s.Centre())
			}
			if s.ToMove() != tt.starts {
				t.Errorf("seat %d starts, want %d (R6)", s.ToMove(), tt.starts)
			}
		})
	}
}

func TestRecordLenientReading(t *testing.T) {
	tests := []struct {
		name string
		file string
	}{
		{"unknown top-level fields", `{"date": "2024-05-01", "format": "razzia-record/1", "ratings": {"Miriam": 1500},
			"players": ["Miriam", "Felix", "Elke", "Dennis"], "comment": ["a", 1, null, {"x": []}], "event": null,
			"cheques": [[2, 6, 13], [3, 7, 12], [4, 8, 11], [5, 9, 10]],
			"moves": ["draw watch", "draw car", "draw bodyguard", "draw police", "bid 6", "pass", "bid 8", "pass", "call"]}`},
		{"any case", example("DRAW WATCH", "Draw Car", "draw BodyGuard", "dRaW pOlIcE", "BID 6", "PASS", "Bid 8", "Pass", "CALL")},
		{"runs of spaces", example("draw  watch", "  draw car", "draw bodyguard  ", "   draw     police   ",
			"bid   6", " pass ", "bid 8", "pass", "  call  ")},
		{"trailing white space", example(exampleMoves...) + "\n\n  \n"},
	}
	want, err := readGame(example(exampleMoves...))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := readGame(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if g.State() != want.State() || !reflect.DeepEqual(g.Moves(), want.Moves()) {
				t.Errorf("replays differently from the canonical record")
			}
		})
	}
}

func TestRecordErrors(t *testing.T) {
	finished := playSeeded(t, 3, []byte("record errors"), 7).Record()
	over := append(append([]string(nil), finished.Moves...), "draw police")

	tests := []struct {
		name  string
		file  string
		want  error  // the sentinel
		move  int    // the 1-based index, 0 for a malformed file
		token string // the token as written
		msg   string // part of the message a person reads
	}{
		// Malformed files: move 0, ErrRecord.
		{"not JSON", "razzia!", ErrRecord, 0, "", "JSON"},
		{"empty", "", ErrRecord, 0, "", "JSON"},
		{"JSON array", `["draw police"]`, ErrRecord, 0, "", "JSON"},
		{"trailing data", example("draw police") + `{"format": "razzia-record/1"}`, ErrRecord, 0, "", "after"},
		{"trailing garbage", example("draw police") + "x", ErrRecord, 0, "", "after"},
		{"truncated", example("draw police")[:40], ErrRecord, 0, "", "JSON"},
		{"missing format", `{"players": ["A", "B"], "moves": []}`, ErrRecord, 0, "", "format"},
		{"wrong format", `{"format": "razzia-record/2", "players": ["A", "B"], "moves": []}`, ErrRecord, 0, "", "razzia-record/2"},
		{"format not a string", `{"format": 1, "players": ["A", "B"], "moves": []}`, ErrRecord, 0, "", "format"},
		{"missing moves", `{"format": "razzia-record/1", "players": ["A", "B"]}`, ErrRecord, 0, "", "moves"},
		{"missing players", `{"format": "razzia-record/1", "moves": []}`, ErrRecord, 0, "", "players"},
		{"1 player", file(names[:1]), ErrRecord, 0, "", "1 player"},
		{"6 players", file(names[:6]), ErrRecord, 0, "", "6 players"},
		{"empty name", file([]string{"Miriam", ""}), ErrRecord, 0, "", "name"},
		{"cheques not a set of R4", strings.Replace(example(), "[5, 9, 10]", "[5, 9, 11]", 1), ErrRecord, 0, "", "cheques"},
		{"cheque set twice", strings.Replace(example(), "[5, 9, 10]", "[2, 6, 13]", 1), ErrRecord, 0, "", "cheques"},
		{"too few cheque sets", strings.Replace(example(), ", [5, 9, 10]", "", 1), ErrRecord, 0, "", "cheque"},
		{"too many cheque sets", strings.Replace(example(), "[5, 9, 10]", "[5, 9, 10], [14, 15, 16]", 1), ErrRecord, 0, "", "cheque"},
		{"cheque sets of 5 players", strings.Replace(example(), "[[2, 6, 13], [3, 7, 12], [4, 8, 11], [5, 9, 10]]",
			"[[2, 7, 16], [3, 8, 15], [4, 9, 14], [5, 10, 13]]", 1), ErrRecord, 0, "", "cheque"},
		{"cheque repeated in a set", strings.Replace(example(), "[5, 9, 10]", "[5, 9, 10, 10]", 1), ErrRecord, 0, "", "cheque"},
		{"cheque not a number", strings.Replace(example(), "[5, 9, 10]", `[5, 9, "10"]`, 1), ErrRecord, 0, "", "JSON"},

		// A move that is not a string: the index of the move, the text as written.
		{"non-string move", strings.Replace(example("draw police", "bid 6"), `"bid 6"`, "6", 1), ErrRecord, 2, "6", "string"},
		{"object move", strings.Replace(example("draw car", "draw car"), `"draw car"]`, `{"draw": "car"}]`, 1),
			ErrRecord, 2, `{"draw": "car"}`, "string"},

		// Illegal or malformed moves: the 1-based index and the token.
		{"unknown card", example("draw watch", "draw ferrari"), ErrUnknownCard, 2, "draw ferrari", "ferrari"},
		{"R5 draw of a used-up card", example("draw gold", "draw gold", "draw gold", "draw gold"), ErrUsedUp, 4, "draw gold", "gold"},
		// Miriam holds 13 and draws first (R6); Felix is asked first (R10).
		{"R10 bid not held", example("draw police", "bid 13"), ErrNotHeld, 2, "bid 13", "Felix cannot bid 13"},
		{"R10 bid not held, as written", example("draw police", "BID  13"), ErrNotHeld, 2, "BID  13", "3, 7 and 12"},
		{"R10 bid not higher", example("draw police", "bid 7", "bid 4"), ErrBidTooLow, 3, "bid 4", "Elke"},
		{"R9 the caller must bid", example("call", "pass", "pass", "pass", "pass"), ErrMustBid, 5, "pass", "Miriam"},
		{"R10 pass outside an auction", example("pass"), ErrNoAuction, 1, "pass", "Miriam"},
		{"R7 draw during an auction", example("draw police", "draw car"), ErrInAuction, 2, "draw car", "Felix"},
		{"R8 thief without a thief", example("draw car", "thief car"), ErrNoThief, 2, "thief car", "Felix"},
		{"bare draw", example("draw watch", "draw"), ErrSyntax, 2, "draw", "draw"},
		{"empty move", example(""), ErrSyntax, 1, "", "empty"},
		{"unknown verb", example("steal car"), ErrSyntax, 1, "steal car", "steal"},
		{"bid without cheque", example("draw police", "bid"), ErrSyntax, 2, "bid", "bid"},
		{"bid out of range", example("draw police", "bid 17"), ErrSyntax, 2, "bid 17", "16"},
		{"bid not a number", example("draw police", "bid six"), ErrSyntax, 2, "bid six", "bid"},
		{"draw two cards", example("draw car watch"), ErrSyntax, 1, "draw car watch", "one card"},
		{"call with an argument", example("call 3"), ErrSyntax, 1, "call 3", "call"},
		{"R14 move after the game is over", file(finished.Players, over...), ErrGameOver, len(over), "draw police", "over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := ReadRecord(strings.NewReader(tt.file))
			var g *Game
			if err == nil {
				if tt.move == 0 {
					t.Fatalf("ReadRecord accepted a malformed file")
				}
				g, err = rec.Game()
			}
			if err == nil {
				t.Fatalf("no error, want %v", tt.want)
			}
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("error %T %v, want a *RecordError", err, err)
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
			if re.Move != tt.move || re.Token != tt.token {
				t.Errorf("move %d %q, want %d %q", re.Move, re.Token, tt.move, tt.token)
			}
			msg := err.Error()
			if !strings.Contains(strings.ToLower(msg), strings.ToLower(tt.msg)) {
				t.Errorf("message %q does not mention %q", msg, tt.msg)
			}
			if tt.move > 0 && !strings.Contains(msg, fmt.Sprintf("move %d", tt.move)) {
				t.Errorf("message %q does not name move %d", msg, tt.move)
			}
			if rec == nil {
				return
			}
			// RECORD.md: moves before the illegal one are never dropped.
			if g == nil {
				t.Fatal("Record.Game returned no game with the move error")
			}
			if g.Len() != tt.move-1 {
				t.Fatalf("the game holds %d moves, want the %d before the illegal one", g.Len(), tt.move-1)
			}
			for i, m := range g.Moves() {
				if want, _ := ParseMove(rec.Moves[i]); m != want {
					t.Errorf("move %d is %v, the record says %q", i+1, m, rec.Moves[i])
				}
			}
		})
	}
}

// TestRecordRoundTrip: a Game's record, written and read again, is the same
// record and replays to the same game.
func TestRecordRoundTrip(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for _, dealt := range []bool{false, true} {
			t.Run(fmt.Sprintf("%dplayers/dealt=%v", n, dealt), func(t *testing.T) {
				setup := Setup{Players: names[:n], Seed: fmt.Appendf(nil, "round trip %d", n)}
				if dealt {
					setup.Cheques = [][]int{}
					sets := rulesSets[n]
					for i := range sets {
						setup.Cheques = append(setup.Cheques, sets[(i+1)%n]) // a rotation is a permutation
					}
				}
				g, err := NewGame(setup)
				if err != nil {
					t.Fatal(err)
				}
				for !g.Over() {
					legal := g.LegalMoves()
					if err := g.Play(legal[g.Len()*7%len(legal)]); err != nil {
						t.Fatal(err)
					}
				}
				rec := g.Record()
				var buf bytes.Buffer
				written, err := rec.WriteTo(&buf)
				if err != nil || written != int64(buf.Len()) {
					t.Fatalf("WriteTo = %d, %v; wrote %d bytes", written, err, buf.Len())
				}
				text := buf.String()
				// RECORD.md: tokens are lower case; WriteTo writes one move per line.
				if strings.Count(text, "\n") < len(rec.Moves) {
					t.Errorf("%d lines for %d moves", strings.Count(text, "\n"), len(rec.Moves))
				}
				for _, tok := range rec.Moves {
					if tok != strings.ToLower(tok) || strings.Join(strings.Fields(tok), " ") != tok {
						t.Errorf("token %q is not canonical", tok)
					}
				}
				back, err := ReadRecord(&buf)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(back, rec) {
					t.Errorf("read back %+v, wrote %+v", back, rec)
				}
				if dealt != (back.Cheques != nil) {
					t.Errorf("cheques %v written for dealt=%v", back.Cheques, dealt)
				}
				replay, err := back.Game()
				if err != nil {
					t.Fatal(err)
				}
				if replay.State() != g.State() || !reflect.DeepEqual(replay.Moves(), g.Moves()) {
					t.Errorf("the replay differs from the game")
				}
				if !reflect.DeepEqual(replay.Events(), g.Events()) {
					t.Errorf("the replay's events differ from the game's")
				}
			})
		}
	}
}

// TestRecordFieldNamesExact: RECORD.md names the fields "format",
// "players", "cheques" and "moves", and ignores unknown fields. A field
// "Moves" or "MOVES" is unknown: encoding/json alone would match it without
// regard to case and let it replace the real list, so the same file would
// replay differently here and in any other reader that follows RECORD.md.
func TestRecordFieldNamesExact(t *testing.T) {
	tests := []struct {
		name string
		file string
	}{
		{"Moves after moves", `{"format": "razzia-record/1", "players": ["A", "B"], "moves": ["draw car"], "Moves": ["draw police"]}`},
		{"PLAYERS after players", `{"format": "razzia-record/1", "players": ["A", "B"], "PLAYERS": ["A", "B", "C"], "moves": ["draw car"]}`},
		{"Format only", `{"Format": "razzia-record/1", "players": ["A", "B"], "moves": ["draw car"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := ReadRecord(strings.NewReader(tt.file))
			if tt.name == "Format only" {
				if err == nil {
					t.Errorf(`a record with "Format" but no "format" was accepted`)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Players) != 2 || !reflect.DeepEqual(rec.Moves, []string{"draw car"}) {
				t.Errorf("read players %q and moves %q; the differently cased field should be ignored", rec.Players, rec.Moves)
			}
		})
	}
}

// TestRecordDocExample replays the example of docs/RECORD.md, as printed
// there but for its closing "..." placeholder, so the documentation cannot
// drift into an illegal game again.
func TestRecordDocExample(t *testing.T) {
	doc, err := os.ReadFile("docs/RECORD.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```json\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/RECORD.md has no json example")
	}
	block = strings.Replace(block, `, "..."]`, `]`, 1)
	g, err := readGame(block)
	if err != nil {
		t.Fatalf("the example of docs/RECORD.md does not replay: %v", err)
	}
	if got := g.Len(); got != len(exampleMoves) {
		t.Errorf("the example replays %d moves, want %d", got, len(exampleMoves))
	}
}
