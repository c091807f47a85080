package protocol_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/gametest"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
)

var update = flag.Bool("update", false, "rewrite the generated examples in docs/protocol.md")

const protocolDoc = "../../docs/protocol.md"

// english tells the examples' events, as the server does by default.
var english = i18n.Default()

// exampleInfo is the walk-through's table: Ann and Cy are people, the
// bot is hard.
func exampleInfo(status protocol.Status, moves int) protocol.GameInfo {
	created := time.Date(2026, 3, 14, 19, 2, 11, 0, time.UTC)
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: status, Players: 3,
		Seats: []protocol.SeatInfo{{Name: "Ann"}, {Name: "Bot 2 (hard)", Bot: "hard"}, {Name: "Cy"}},
		Moves: moves, Created: created, Updated: created.Add(161 * time.Second), Invite: protocol.InvitePath("k3x7q2m5ab")}
	if status == protocol.StatusOpen {
		info.Seats[2] = protocol.SeatInfo{Open: true}
		info.Updated = created.Add(29 * time.Second)
		expires := info.Updated.Add(24 * time.Hour) // the server's default wait
		info.Expires = &expires
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
	state := func(info protocol.GameInfo, seat int, view *protocol.View, events []razzia.Event) protocol.StateMessage {
		return protocol.StateMessage{Type: protocol.TypeState, Game: info, Seat: seat, View: view,
			Events: protocol.Events(events, players, english)}
	}
	add("state-open", state(exampleInfo(protocol.StatusOpen, 0), 0, nil, nil))
	add("level-put", protocol.LevelRequest{Level: "expert"})

	play(exampleMoves...)
	s := g.State()
	if s.ToMove() != 2 || s.Phase() != razzia.PhaseTurn {
		t.Fatalf("the script should leave Cy to move in a turn, not %d in %v", s.ToMove(), s.Phase())
	}
	snap := protocol.NewView(g.View(2))
	add("state-connect", state(exampleInfo(protocol.StatusPlaying, len(g.Moves())), 2, &snap, g.Events()))

	// Cy calls; Ann and the bot pass: Cy must bid (R9).
	play("call", "pass")
	n := len(g.Events())
	play("pass")
	snap = protocol.NewView(g.View(2))
	if !snap.Auction.MustBid {
		t.Fatal("the script should end with Cy obliged to bid")
	}
	add("state-mustbid", state(exampleInfo(protocol.StatusPlaying, len(g.Moves())), 2, &snap, g.Events()[n:]))

	// What the engine says to a move that is not legal now.
	err = g.PlayToken("bid 7")
	var me *razzia.MoveError
	if !errors.As(err, &me) {
		t.Fatalf("bid 7 should be illegal, got %v", err)
	}
	add("error-illegal", protocol.ErrorMessage{Type: protocol.TypeError, Code: protocol.IllegalMove, Message: err.Error()})
	err = g.PlayToken("pass")
	add("error-mustbid", protocol.ErrorMessage{Type: protocol.TypeError, Code: protocol.IllegalMove, Message: err.Error()})
	add("move-bid", protocol.NewMoveMessage(snap.Legal[0], snap.Moves))
	typed := snap.LegalMoves[0]
	add("move-typed", protocol.MoveMessage{Type: protocol.TypeMove, Action: typed.Action, Cheque: typed.Cheque, Seq: &snap.Moves})

	var rec bytes.Buffer
	play("bid 4")
	if _, err := g.Record().WriteTo(&rec); err != nil {
		t.Fatal(err)
	}
	out["record"] = strings.TrimRight(rec.String(), "\n")

	// One event of each kind, the first of its kind in a whole game.
	whole := gametest.Random(t, 3, exampleSeed)
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
		b, err := json.Marshal(protocol.Event{Event: e, Text: english.Narrate(e, whole.Players())})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(spaced(b)))
	}
	if len(seen) != 9 || !policeSeen {
		t.Fatalf("the game has %d kinds of event (police: %v), want 9", len(seen), policeSeen)
	}
	out["events"] = strings.Join(lines, "\n")
	moderationExamples(add)
	analysisExamples(t, add)
	puzzleExamples(t, add)
	paceExamples(t, add)
	pushExamples(t, add)
	chatExamples(add)
	rematchExamples(add)
	patchExamples(t, add)
	tournamentExamples(add)
	meetExamples(add)
	peopleExamples(add)
	for name, v := range accountExamples(t) {
		add(name, v)
	}
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

// A generated block of docs/protocol.md: a JSON example, or a table
// between "<!-- generated: NAME -->" and "<!-- end: NAME -->".
var (
	exampleBlock = regexp.MustCompile("(?s)<!-- example: ([a-z-]+) -->\n```json\n(.*?)\n```")
	tableBlock   = regexp.MustCompile("(?s)<!-- generated: ([a-z-]+) -->\n(.*?)\n<!-- end: ([a-z-]+) -->")
)

// codeTables returns the tables of error codes of docs/protocol.md, from
// the protocol's one list.
func codeTables() map[string]string {
	h := []string{"| code | status | retry | when |", "|---|---|---|---|"}
	w := []string{"| code | retry | when |", "|---|---|---|"}
	for _, c := range protocol.Codes() {
		retry := "no"
		if c.Retry {
			retry = "yes"
		}
		if c.HTTP != "" {
			h = append(h, fmt.Sprintf("| `%s` | %d | %s | %s |", c.Code, c.Status, retry, c.HTTP))
		}
		if c.WS != "" {
			w = append(w, fmt.Sprintf("| `%s` | %s | %s |", c.Code, retry, c.WS))
		}
	}
	return map[string]string{"codes-http": strings.Join(h, "\n"), "codes-ws": strings.Join(w, "\n")}
}

// TestProtocolExamples checks that the JSON examples and the tables of
// codes in docs/protocol.md are what the protocol's types and the engine
// produce today; go test ./internal/protocol -run ProtocolExamples -args
// -update rewrites them.
func TestProtocolExamples(t *testing.T) {
	doc, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatal(err)
	}
	want := examples(t)
	tables := codeTables()
	found := map[string]bool{}
	check := func(name, got string, want map[string]string) (string, bool) {
		found[name] = true
		w, ok := want[name]
		if !ok {
			t.Errorf("docs/protocol.md has a generated block %q that nothing generates", name)
			return got, false
		}
		if got != w && !*update {
			t.Errorf("%q is stale (go test ./internal/protocol -run ProtocolExamples -args -update):\ngot:\n%s\nwant:\n%s", name, got, w)
		}
		return w, true
	}
	updated := exampleBlock.ReplaceAllStringFunc(string(doc), func(block string) string {
		m := exampleBlock.FindStringSubmatch(block)
		w, ok := check(m[1], m[2], want)
		if !ok {
			return block
		}
		return "<!-- example: " + m[1] + " -->\n```json\n" + w + "\n```"
	})
	updated = tableBlock.ReplaceAllStringFunc(updated, func(block string) string {
		m := tableBlock.FindStringSubmatch(block)
		w, ok := check(m[1], m[2], tables)
		if !ok || m[1] != m[3] {
			t.Errorf("the generated block %q ends as %q", m[1], m[3])
			return block
		}
		return "<!-- generated: " + m[1] + " -->\n" + w + "\n<!-- end: " + m[1] + " -->"
	})
	for _, names := range []map[string]string{want, tables} {
		for name := range names {
			if !found[name] {
				t.Errorf("docs/protocol.md lacks the generated block %q", name)
			}
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
