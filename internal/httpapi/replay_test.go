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

// checkSteps checks what holds for every replay: one step per move plus
// the start, each a spectator's view after that many moves, and the
// events of all steps together are the game's events.
func checkSteps(t *testing.T, a protocol.ReplayAnswer, rec *razzia.Record) {
	t.Helper()
	if len(a.Steps) != len(rec.Moves)+1 {
		t.Fatalf("%d steps for %d moves", len(a.Steps), len(rec.Moves))
	}
	var got []string
	for i, s := range a.Steps {
		if s.View.Moves != i || s.View.Seat != -1 || len(s.View.Legal) != 0 || s.Events == nil {
			t.Errorf("step %d: moves %d, seat %d, legal %v, events %v", i, s.View.Moves, s.View.Seat, s.View.Legal, s.Events)
		}
		if i > 0 && len(s.Events) == 0 {
			t.Errorf("step %d (%s) caused no event", i, rec.Moves[i-1])
		}
		for _, ev := range s.Events {
			if ev.Text == "" {
				t.Errorf("step %d: an event without its sentence: %+v", i, ev)
			}
			b, _ := json.Marshal(ev.Event)
			got = append(got, string(b))
		}
	}
	if len(a.Steps[0].Events) != 0 {
		t.Errorf("the start has events %v", a.Steps[0].Events)
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
	last := a.Steps[len(a.Steps)-1].View
	wantLast := protocol.NewView(g.View(-1))
	lb, _ := json.Marshal(last)
	wb, _ := json.Marshal(wantLast)
	if string(lb) != string(wb) {
		t.Errorf("the last step\n%s\nis not the record's end\n%s", lb, wb)
	}
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
		checkSteps(t, a, rec)
		// The answer for a finished game is kept: asked again, it is the same.
		if again := e.replay(id); !slices.Equal(mustJSON(t, again), mustJSON(t, a)) {
			t.Error("the replay changed when asked again")
		}
		// Asked in German, the sentences are German; the rest is the same.
		de := e.replay(id, "?lang=de")
		if first := de.Steps[1].Events[0]; !strings.Contains(first.Text, "zieht") || first.Event.Kind != a.Steps[1].Events[0].Kind {
			t.Errorf("in German the first event is %+v", first)
		}
		last := a.Steps[len(a.Steps)-1].View
		if a.Game.ID != id || a.Game.Status != "finished" || a.Game.Moves != len(rec.Moves) ||
			last.Phase != "over" || !slices.Equal(last.Winners, a.Game.Winners) || len(last.Winners) == 0 {
			t.Errorf("game %+v, last step phase %s winners %v", a.Game, last.Phase, last.Winners)
		}
		// The server's deal (R4) is replayed, not the rulebook's order.
		for seat, set := range rec.Cheques {
			if got := a.Steps[0].View.Seats[seat].FaceUp; !slices.Equal(got, set) {
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
		checkSteps(t, a, e.record(id))
		if a.Game.Status != "archived" || len(a.Steps) != 5 {
			t.Fatalf("game %+v with %d steps", a.Game, len(a.Steps))
		}
		// Step i shows the table after move i, and the events move i caused.
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
			s := a.Steps[i]
			var evs []string
			for _, ev := range s.Events {
				b, _ := json.Marshal(ev.Event)
				evs = append(evs, string(b))
			}
			if !slices.Equal(s.View.Row, w.row) && len(s.View.Row)+len(w.row) > 0 ||
				s.View.Police != w.police || s.View.Phase != w.phase || s.View.ToMove != w.toMove ||
				strings.Join(evs, "|") != w.events || (s.View.Auction != nil) != w.auction {
				b, _ := json.Marshal(s)
				t.Errorf("step %d: %s", i, b)
			}
		}
	})

	t.Run("playing", func(t *testing.T) {
		id := e.create("", "easy")
		e.join(id, "Ann") // seat 0 moves first: the game waits for Ann
		a := e.replay(id)
		if a.Game.Status != "playing" || len(a.Steps) != 1 || a.Steps[0].View.Phase != "turn" || a.Steps[0].View.ToMove != 0 {
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
