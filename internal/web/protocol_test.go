package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

var update = flag.Bool("update", false, "rewrite the generated examples in docs/protocol.md")

const protocolDoc = "../../docs/protocol.md"

// The server's JSON, as docs/protocol.md describes it; the examples below
// fill them with the engine's real Snapshot and Event output.
type (
	seatInfo struct {
		Name string `json:"name"`
		Bot  string `json:"bot"`
		Open bool   `json:"open"`
	}
	gameInfo struct {
		ID      string     `json:"id"`
		Status  string     `json:"status"`
		Players int        `json:"players"`
		Seats   []seatInfo `json:"seats"`
		Moves   int        `json:"moves"`
		Created string     `json:"created"`
		Updated string     `json:"updated"`
		Winners []int      `json:"winners,omitempty"`
		Invite  string     `json:"invite"`
	}
	errorMsg struct {
		Type    string `json:"type"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	moveMsg struct {
		Type string `json:"type"`
		Move string `json:"move"`
		Seq  int    `json:"seq"`
	}
	stateMsg struct {
		Type   string           `json:"type"`
		Game   gameInfo         `json:"game"`
		Seat   int              `json:"seat"`
		View   *razzia.Snapshot `json:"view"`
		Events []razzia.Event   `json:"events"`
	}
)

// exampleGame is the walk-through's table: Ann and Cy are people, Bob a bot.
func exampleInfo(status string, moves int) gameInfo {
	info := gameInfo{ID: "k3x9q2m7ab", Status: status, Players: 3,
		Seats: []seatInfo{{"Ann", "", false}, {"Bot 2 (hard)", "hard", false}, {"Cy", "", false}},
		Moves: moves, Created: "2026-03-14T19:02:11Z", Updated: "2026-03-14T19:04:52Z", Invite: "/g/k3x9q2m7ab"}
	if status == "open" {
		info.Seats[2] = seatInfo{"", "", true}
		info.Updated = "2026-03-14T19:02:40Z"
	}
	return info
}

// exampleMoves is the scripted start of the walk-through's game, with the
// cards named as in a record (the rulebook's cheque sets in seat order).
var exampleMoves = []string{
	"draw car", "draw thief", "draw police", // Cy's police starts an auction
	"bid 5", "pass", "bid 7", // Ann bids 5, Bob passes, Cy wins with 7
	"draw driver", "draw gold", // Ann, Bob; now Cy's turn, with a thief
}

// examples returns every generated example of the document by name.
func examples(t *testing.T) map[string]string {
	t.Helper()
	players := []string{"Ann", "Bot 2 (hard)", "Cy"}
	g, err := razzia.NewGame(razzia.Setup{Players: players})
	if err != nil {
		t.Fatal(err)
	}
	play := func(tokens ...string) {
		for _, tok := range tokens {
			if err := g.PlayToken(tok); err != nil {
				t.Fatalf("%s: %v", tok, err)
			}
		}
	}
	out := map[string]string{}
	add := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = pretty(b)
	}
	add("state-open", stateMsg{Type: "state", Game: exampleInfo("open", 0), Seat: 0, Events: []razzia.Event{}})

	play(exampleMoves...)
	s := g.State()
	if s.ToMove() != 2 || s.Phase() != razzia.PhaseTurn {
		t.Fatalf("the script should leave Cy to move in a turn, not %d in %v", s.ToMove(), s.Phase())
	}
	snap := g.View(2).Snapshot()
	add("state-connect", stateMsg{Type: "state", Game: exampleInfo("playing", g.Len()),
		Seat: 2, View: &snap, Events: g.Events()})

	// Cy calls; Ann and the bot pass: Cy must bid (R9).
	play("call", "pass")
	n := len(g.Events())
	play("pass")
	snap = g.View(2).Snapshot()
	if !snap.Auction.MustBid {
		t.Fatal("the script should end with Cy obliged to bid")
	}
	add("state-mustbid", stateMsg{Type: "state", Game: exampleInfo("playing", g.Len()),
		Seat: 2, View: &snap, Events: g.Events()[n:]})

	// What the engine says to a move that is not legal now.
	err = g.PlayToken("bid 7")
	var me *razzia.MoveError
	if !errors.As(err, &me) {
		t.Fatalf("bid 7 should be illegal, got %v", err)
	}
	add("error-illegal", errorMsg{"error", "illegal_move", err.Error()})
	err = g.PlayToken("pass")
	add("error-mustbid", errorMsg{"error", "illegal_move", err.Error()})
	add("move-bid", moveMsg{"move", snap.Legal[0], snap.Moves})

	var rec bytes.Buffer
	play("bid 4")
	if _, err := g.Record().WriteTo(&rec); err != nil {
		t.Fatal(err)
	}
	out["record"] = strings.TrimRight(rec.String(), "\n")

	// One event of each kind, the first of its kind in a whole game.
	whole := playRandom(t, 3, exampleSeed)
	seen := map[razzia.EventKind]bool{}
	policeSeen := false
	var lines []string
	for _, e := range whole.Events() {
		// A police draw too: its event carries the count on the track.
		police := e.Kind == razzia.EventDraw && e.Card == razzia.Police
		if seen[e.Kind] && !(police && !policeSeen) {
			continue
		}
		seen[e.Kind] = true
		policeSeen = policeSeen || police
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(spaced(b)))
	}
	if len(seen) != 9 || !policeSeen {
		t.Fatalf("the game has %d kinds of event (police: %v), want 9", len(seen), policeSeen)
	}
	out["events"] = strings.Join(lines, "\n")
	return out
}

// pretty indents JSON, keeping any value that fits in a line on one line.
func pretty(b []byte) string {
	var buf bytes.Buffer
	prettyValue(&buf, b, "")
	return buf.String()
}

func prettyValue(buf *bytes.Buffer, raw []byte, indent string) {
	var compact bytes.Buffer
	json.Compact(&compact, raw)
	c := spaced(compact.Bytes())
	if len(indent)+len(c) <= 96 || (c[0] != '{' && c[0] != '[') {
		buf.Write(c)
		return
	}
	dec := json.NewDecoder(bytes.NewReader(compact.Bytes()))
	open, _ := dec.Token()
	closing := "]"
	if open == json.Delim('{') {
		closing = "}"
	}
	buf.WriteString(open.(json.Delim).String())
	first := true
	for dec.More() {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		buf.WriteString("\n" + indent + "  ")
		if closing == "}" {
			key, _ := dec.Token()
			k, _ := json.Marshal(key)
			buf.Write(k)
			buf.WriteString(": ")
		}
		var v json.RawMessage
		dec.Decode(&v)
		prettyValue(buf, v, indent+"  ")
	}
	buf.WriteString("\n" + indent + closing)
}

var exampleBlock = regexp.MustCompile("(?s)<!-- example: ([a-z-]+) -->\n```json\n(.*?)\n```")

// TestProtocolExamples checks that the JSON examples in docs/protocol.md
// are what the engine produces today; go test ./internal/web -run ProtocolExamples
// -args -update rewrites them.
func TestProtocolExamples(t *testing.T) {
	doc, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	want := examples(t)
	found := map[string]bool{}
	updated := exampleBlock.ReplaceAllStringFunc(string(doc), func(block string) string {
		m := exampleBlock.FindStringSubmatch(block)
		name, got := m[1], m[2]
		found[name] = true
		w, ok := want[name]
		if !ok {
			t.Errorf("docs/protocol.md has an example %q that nothing generates", name)
			return block
		}
		if got != w && !*update {
			t.Errorf("example %q is stale (go test ./internal/web -run ProtocolExamples -args -update):\ngot:\n%s\nwant:\n%s", name, got, w)
		}
		return "<!-- example: " + name + " -->\n```json\n" + w + "\n```"
	})
	for name := range want {
		if !found[name] {
			t.Errorf("docs/protocol.md lacks the example %q", name)
		}
	}
	if *update && updated != string(doc) {
		if err := os.WriteFile(protocolDoc, []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestProtocolJSON checks that every JSON block of docs/protocol.md parses,
// hand-written ones included, so no example misleads a bot author.
func TestProtocolJSON(t *testing.T) {
	doc, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)\n```").FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 10 {
		t.Fatalf("only %d JSON blocks found", len(blocks))
	}
	for i, b := range blocks {
		text := b[1]
		// A block may hold one value per line (JSON Lines), such as events.
		dec := json.NewDecoder(strings.NewReader(text))
		for {
			var v any
			if err := dec.Decode(&v); err != nil {
				if err.Error() == "EOF" {
					break
				}
				t.Errorf("JSON block %d does not parse: %v\n%s", i+1, err, text)
				break
			}
		}
	}
}

// exampleSeed picks a random game whose events show every kind.
const exampleSeed = 2

// spaced puts a space after each comma and colon of compact JSON, outside
// strings, as people write it.
func spaced(c []byte) []byte {
	var out []byte
	in, esc := false, false
	for _, b := range c {
		out = append(out, b)
		switch {
		case esc:
			esc = false
		case in && b == '\\':
			esc = true
		case b == '"':
			in = !in
		case !in && (b == ',' || b == ':'):
			out = append(out, ' ')
		}
	}
	return out
}
