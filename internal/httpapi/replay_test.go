package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
)

// replay asks for a game's replay; query may ask for a language.
func (e *env) replay(id string, query ...string) protocol.ReplayAnswer {
	e.t.Helper()
	resp, err := http.Get(e.URL + "/api/games/" + id + "/replay" + strings.Join(query, ""))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("replay %s: %d %s", id, resp.StatusCode, data)
	}
	var a protocol.ReplayAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		e.t.Fatalf("replay %s: %v in %s", id, err, data)
	}
	return a
}

// checkSteps checks what holds for every replay: one step per move, each
// patch giving a spectator's view after that many moves, and the events of
// all steps together are the game's events. It returns the views: the
// start's, then one per step.
func checkSteps(t *testing.T, a protocol.ReplayAnswer, rec *razzia.Record) []protocol.View {
	t.Helper()
	if len(a.Steps) != len(rec.Moves) {
		t.Fatalf("%d steps for %d moves", len(a.Steps), len(rec.Moves))
	}
	views, err := a.Views()
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range views {
		if v.Moves != i || v.Seat != -1 || len(v.Legal) != 0 {
			t.Errorf("view %d: moves %d, seat %d, legal %v", i, v.Moves, v.Seat, v.Legal)
		}
	}
	var got []string
	for i, s := range a.Steps {
		if s.Move != rec.Moves[i] || len(s.Events) == 0 {
			t.Errorf("step %d is move %q (want %q) and caused %d events", i+1, s.Move, rec.Moves[i], len(s.Events))
		}
		for _, ev := range s.Events {
			if ev.Text == "" {
				t.Errorf("step %d: an event without its sentence: %+v", i+1, ev)
			}
			b, _ := json.Marshal(ev.Event)
			got = append(got, string(b))
		}
	}
	g, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, ev := range g.Events() {
		b, _ := json.Marshal(ev)
		want = append(want, string(b))
	}
	if !slices.Equal(got, want) {
		t.Errorf("the steps' events differ from the game's:\n got %v\nwant %v", got, want)
	}
	last := views[len(views)-1]
	wantLast := protocol.NewView(g.View(-1))
	lb, _ := json.Marshal(last)
	wb, _ := json.Marshal(wantLast)
	if string(lb) != string(wb) {
		t.Errorf("the last step\n%s\nis not the record's end\n%s", lb, wb)
	}
	return views
}

func (e *env) record(id string) *razzia.Record {
	e.t.Helper()
	resp, err := http.Get(e.URL + "/api/games/" + id + "/record")
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	rec, err := razzia.ReadRecord(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return rec
}

func TestReplay(t *testing.T) {
	e := newEnv(t, httpapi.Options{})

	t.Run("finished", func(t *testing.T) {
		id := e.create("easy", "medium", "easy")
		e.WaitOver(id)
		a := e.replay(id)
		rec := e.record(id)
		views := checkSteps(t, a, rec)
		// The answer for a finished game is kept: asked again, it is the same.
		if again := e.replay(id); !slices.Equal(mustJSON(t, again), mustJSON(t, a)) {
			t.Error("the replay changed when asked again")
		}
		// Asked in German, the sentences are German; the rest is the same.
		de := e.replay(id, "?lang=de")
		if first := de.Steps[0].Events[0]; !strings.Contains(first.Text, "zieht") || first.Event.Kind != a.Steps[0].Events[0].Kind {
			t.Errorf("in German the first event is %+v", first)
		}
		last := views[len(views)-1]
		if a.Game.ID != id || a.Game.Status != "finished" || a.Game.Moves != len(rec.Moves) ||
			last.Phase != "over" || !slices.Equal(last.Winners, a.Game.Winners) || len(last.Winners) == 0 {
			t.Errorf("game %+v, last step phase %s winners %v", a.Game, last.Phase, last.Winners)
		}
		// The server's deal (R4) is replayed, not the rulebook's order.
		for seat, set := range rec.Cheques {
			if got := a.Start.Seats[seat].FaceUp; !slices.Equal(got, set) {
				t.Errorf("seat %d starts with %v, the record deals %v", seat, got, set)
			}
		}
	})

	t.Run("archived", func(t *testing.T) {
		body := `{"format":"razzia-record/1","players":["Ann","Bob"],"moves":["draw car","draw police","pass","pass"]}`
		resp, v := e.do("POST", "/api/records", body)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("upload: %d %v", resp.StatusCode, v)
		}
		id := v["game"].(map[string]any)["id"].(string)
		a := e.replay(id)
		views := checkSteps(t, a, e.record(id))
		if a.Game.Status != "archived" || len(views) != 5 {
			t.Fatalf("game %+v with %d steps", a.Game, len(a.Steps))
		}
		// View i shows the table after move i, and step i the events move i caused.
		want := []struct {
			row     []string
			police  int
			phase   string
			toMove  int
			events  string
			auction bool
		}{
			{nil, 0, "turn", 0, ``, false},
			{[]string{"car"}, 0, "turn", 1, `{"kind":"draw","seat":0,"card":"car"}`, false},
			{[]string{"car"}, 1, "auction", 0, `{"kind":"draw","seat":1,"card":"police","police":1}|{"kind":"auction","seat":1,"cards":["car"],"auction":"police"}`, true},
			{[]string{"car"}, 1, "auction", 1, `{"kind":"pass","seat":0}`, true},
			{[]string{"car"}, 1, "turn", 0, `{"kind":"pass","seat":1}|{"kind":"nowinner","cards":["car"],"auction":"police"}`, false},
		}
		for i, w := range want {
			v := views[i]
			var evs []string
			if i > 0 {
				for _, ev := range a.Steps[i-1].Events {
					b, _ := json.Marshal(ev.Event)
					evs = append(evs, string(b))
				}
			}
			if !slices.Equal(v.Row, w.row) && len(v.Row)+len(w.row) > 0 ||
				v.Police != w.police || v.Phase != w.phase || v.ToMove != w.toMove ||
				strings.Join(evs, "|") != w.events || (v.Auction != nil) != w.auction {
				b, _ := json.Marshal(v)
				t.Errorf("step %d: %s, events %v", i, b, evs)
			}
		}
	})

	t.Run("playing", func(t *testing.T) {
		id := e.create("", "easy")
		e.join(id, "Ann") // seat 0 moves first: the game waits for Ann
		a := e.replay(id)
		if a.Game.Status != "playing" || len(a.Steps) != 0 || a.Start.Phase != "turn" || a.Start.ToMove != 0 {
			t.Errorf("game %+v with %d steps", a.Game, len(a.Steps))
		}
	})

	errs := []struct {
		name, path string
		status     int
		code       string
	}{
		{"open game", "", http.StatusConflict, "not_started"},
		{"unknown game", "/api/games/aaaaaaaaaa/replay", http.StatusNotFound, "not_found"},
		{"malformed id", "/api/games/NOT-AN-ID/replay", http.StatusNotFound, "not_found"},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			if c.path == "" {
				c.path = "/api/games/" + e.create("", "easy") + "/replay"
			}
			resp, v := e.do("GET", c.path, "")
			wantError(t, resp, v, c.status, c.code)
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
