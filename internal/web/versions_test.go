package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/web"
)

// record reads a connection's messages until one shows the game over.
func record(ctx context.Context, t *testing.T, c *websocket.Conn, each func(m protocol.Message)) [][]byte {
	var out [][]byte
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Errorf("read: %v", err)
			return out
		}
		out = append(out, data)
		var m protocol.Message
		json.Unmarshal(data, &m)
		if each != nil {
			each(m)
		}
		// Version 2 leaves the phase out: the game's status says it too.
		if bytes.Contains(data, []byte(`"phase":"over"`)) || bytes.Contains(data, []byte(`"status":"finished"`)) {
			return out
		}
	}
}

// TestLiveStates plays a game with one seat followed twice: in protocol
// version 1 and, through versions.js as the page does, in version 2 (asking
// for the whole state once, after ten patches). Every state versions.js gives the page
// is the whole state of the same moment, nulls included; and a patch
// whose base is not the state held is dropped, the whole state asked
// for once.
func TestLiveStates(t *testing.T) {
	t.Parallel() // mostly node starting
	srv := servertest.New(t, servertest.Options{})
	ctx := servertest.Context(t)
	c, _ := client.New(srv.URL)
	info, _, err := c.Create(ctx, []string{"", "easy", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := c.Join(ctx, info.ID, "Ann", 0)
	if err != nil {
		t.Fatal(err)
	}
	dial := func(query string) *websocket.Conn {
		url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/games/" + info.ID + "/ws" + query
		ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
		if err != nil {
			t.Fatal(err)
		}
		ws.SetReadLimit(1 << 20)
		t.Cleanup(func() { ws.CloseNow() })
		return ws
	}
	v1, v2 := dial(""), dial("?protocol=1,2")
	done := make(chan [][]byte)
	go func() {
		patches := 0
		done <- record(ctx, t, v2, func(m protocol.Message) {
			if m.Type == protocol.TypePatch {
				if patches++; patches == 10 {
					v2.Write(ctx, websocket.MessageText, []byte(`{"type":"resync"}`))
				}
			}
		})
	}()
	whole := record(ctx, t, v1, func(m protocol.Message) {
		if m.Type == protocol.TypeState && m.View != nil && m.View.MyTurn() {
			move, _ := json.Marshal(protocol.NewMoveMessage(m.View.Legal[0], m.View.Moves))
			v1.Write(ctx, websocket.MessageText, move)
		}
	})
	patched := <-done

	check := `import { LiveState } from "./versions.mjs";
import { narrate } from "./narrate.mjs";
import { translator } from "./i18n.mjs";
import { readFileSync } from "node:fs";
const msgs = JSON.parse(readFileSync(process.argv[2], "utf8"));
const en = JSON.parse(readFileSync(process.argv[3], "utf8"));
const t = translator(en, en);
const tell = (e, players) => narrate(t, e, players);
const run = (list) => {
  const live = new LiveState();
  const out = [];
  let resyncs = 0;
  for (const m of list) {
    const got = live.accept(m, () => resyncs++, tell);
    if (got) out.push({ msg: got.msg, whole: got.whole });
  }
  return { out, resyncs };
};
// All of them; then without the second patch, before the whole state
// asked for after the tenth.
const gap = msgs.slice();
gap.splice(gap.findIndex((m, i) => m.type === "patch" && i > gap.findIndex((m) => m.type === "patch")), 1);
console.log(JSON.stringify({ all: run(msgs), gap: run(gap) }));
`
	input, _ := json.Marshal(rawList(patched))
	en, err := i18n.JSON("en")
	if err != nil {
		t.Fatal(err)
	}
	node, dir := web.NodeModules(t, map[string][]byte{"check.mjs": []byte(check), "msgs.json": input, "en.json": en})
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "msgs.json"), filepath.Join(dir, "en.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("versions.js: %v\n%s", err, out)
	}
	type given struct {
		Msg   map[string]any `json:"msg"`
		Whole bool           `json:"whole"`
	}
	var res struct {
		All, Gap struct {
			Out     []given
			Resyncs int
		}
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	wholeAt := map[string][]map[string]any{}
	for _, data := range whole {
		var m map[string]any
		json.Unmarshal(data, &m)
		if m["type"] == protocol.TypeState {
			wholeAt[moment(m)] = append(wholeAt[moment(m)], stateOnly(m))
		}
	}
	compared, wholes := 0, 0
	for i, g := range res.All.Out {
		if g.Whole {
			wholes++
		}
		wants := wholeAt[moment(g.Msg)]
		if len(wants) == 0 {
			continue
		}
		compared++
		got := stateOnly(g.Msg)
		found := false
		for _, want := range wants {
			found = found || reflect.DeepEqual(got, want)
		}
		if !found {
			gb, _ := json.Marshal(got)
			wb, _ := json.Marshal(wants)
			t.Fatalf("message %d: versions.js gives\n%s\nthe whole states are\n%s", i, gb, wb)
		}
	}
	// The log the page keeps, its events told by narrate.js and their
	// scores put back, is the server's of version 1.
	var told, want []any
	for _, g := range res.All.Out {
		if g.Whole {
			told = nil
		}
		events, _ := g.Msg["events"].([]any)
		told = append(told, events...)
	}
	for _, data := range whole {
		var m map[string]any
		json.Unmarshal(data, &m)
		if m["type"] == protocol.TypeState {
			events, _ := m["events"].([]any)
			want = append(want, events...)
		}
	}
	if !reflect.DeepEqual(told, want) {
		t.Errorf("the page's log:\n%q\nthe server's:\n%q", told, want)
	}
	if compared < 10 || wholes != 2 || res.All.Resyncs != 0 {
		t.Errorf("compared %d states (%d whole, %d resyncs asked): want many, the first and the one asked for", compared, wholes, res.All.Resyncs)
	}
	// With a patch lost, the rest until the whole state is dropped.
	if res.Gap.Resyncs != 1 || len(res.Gap.Out) >= len(res.All.Out) || !reflect.DeepEqual(last(res.Gap.Out), last(res.All.Out)) {
		t.Errorf("after a lost patch: %d resyncs, %d messages of %d, the last the same: %v", res.Gap.Resyncs, len(res.Gap.Out), len(res.All.Out),
			reflect.DeepEqual(last(res.Gap.Out), last(res.All.Out)))
	}
}

func rawList(msgs [][]byte) []json.RawMessage {
	out := make([]json.RawMessage, len(msgs))
	for i, m := range msgs {
		out[i] = m
	}
	return out
}

// moment names a state message's moment: its game's moves (a moment may
// change several times, and version 2 leaves out when while the game is
// played).
func moment(m map[string]any) string {
	g, _ := m["game"].(map[string]any)
	b, _ := json.Marshal(g["moves"])
	return string(b)
}

// stateOnly is a state message without its events and version, and
// without when the game changed while it is played.
func stateOnly(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != "events" && k != "version" {
			out[k] = v
		}
	}
	if g, ok := out["game"].(map[string]any); ok && g["status"] == string(protocol.StatusPlaying) {
		game := map[string]any{}
		for k, v := range g {
			if k != "updated" {
				game[k] = v
			}
		}
		out["game"] = game
	}
	return out
}

func last[T any](list []T) any {
	if len(list) == 0 {
		return nil
	}
	return list[len(list)-1]
}
