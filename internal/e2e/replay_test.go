package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
)

// randomRecord plays a whole game of seeded random legal moves.
func randomRecord(t *testing.T, players []string, seed byte) *razzia.Record {
	t.Helper()
	g, err := razzia.NewGame(razzia.Setup{Players: players, Seed: []byte{seed}})
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; ; n++ {
		if g.Over() {
			return g.Record()
		}
		legal := g.LegalMoves()
		if err := g.Play(legal[(n*7+int(seed))%len(legal)]); err != nil {
			t.Fatal(err)
		}
	}
}

// replayStep is what the viewer shows of one step.
type replayStep struct {
	Pos    string   `json:"pos"`    // #replay-pos
	Moves  int      `json:"moves"`  // #table[data-moves]
	Phase  string   `json:"phase"`  // #table[data-phase]
	ToMove int      `json:"toMove"` // #table[data-to-move]
	Events []string `json:"events"` // the sentences of #replay-events
	Table  string   `json:"table"`  // the table's text
	Lang   string   `json:"lang"`
}

const replayStepJS = `(() => {
  const t = document.querySelector("#table");
  const pos = document.querySelector("#replay-pos");
  if (!t || !pos) return null;
  return {
    pos: pos.textContent.trim(),
    moves: Number(t.dataset.moves),
    phase: t.dataset.phase || "",
    toMove: Number(t.dataset.toMove ?? -1),
    events: [...document.querySelectorAll("#replay-events li")].map((li) => li.textContent.trim()),
    table: t.innerText,
    lang: document.documentElement.lang,
  };
})()`

// TestReplayViewer uploads a record in the lobby, opens its replay from
// the table page and steps through it with the buttons, the keys and the
// slider: every step shows the table after that many moves and what the
// move did, in words.
func TestReplayViewer(t *testing.T) {
	srv := newServer(t)
	players := []string{"Ann", "Bob", "Cy"}
	rec := randomRecord(t, players, 5)
	file := filepath.Join(t.TempDir(), "game.json")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	n := len(rec.Moves)

	p := newPage(t, srv, "viewer", 1280, 900)
	p.open("/")
	p.do("upload a record", chromedp.SetUploadFiles(chromedp.CSS("#upload"), []string{file}))
	path := waitFor[string](p, "the uploaded game's page", `/^\/g\/[a-z2-7]{10}$/.test(location.pathname) && location.pathname`, 10*time.Second)
	id := strings.TrimPrefix(path, "/g/")
	waitFor[bool](p, "the archived table", `document.querySelector("#table").dataset.status === "archived"`, 10*time.Second)

	// The game-end screen of the table page links its replay.
	link := waitFor[string](p, "the replay's link", `(() => { const a = document.querySelector("#game-end #end-replay"); return a && a.getClientRects().length > 0 ? a.getAttribute("href") : ""; })()`, 5*time.Second)
	if link == "/g/"+id+"/replay" {
		p.click("#end-replay")
	} else {
		t.Errorf("the table page of an archived game has no visible #end-replay to /g/%s/replay (href %q)", id, link)
		p.open("/g/" + id + "/replay")
	}

	en, _ := i18n.Lookup("en")
	// want returns what step k must show: the record replayed that far
	// by the engine, and its narration of move k.
	want := func(k int) (protocol.View, []string) {
		t.Helper()
		g, err := razzia.NewGame(razzia.Setup{Players: rec.Players, Cheques: rec.Cheques})
		if err != nil {
			t.Fatal(err)
		}
		logged := 0
		for i := range k {
			logged = len(g.Events())
			if err := g.PlayToken(rec.Moves[i]); err != nil {
				t.Fatal(err)
			}
		}
		var sentences []string
		if k > 0 {
			for _, e := range g.Events()[logged:] {
				sentences = append(sentences, en.Narrate(e, players))
			}
		}
		return protocol.NewView(g.View(-1)), sentences
	}
	// at waits for step k and checks it.
	at := func(how string, k int) replayStep {
		t.Helper()
		pos := fmt.Sprintf("%d / %d", k, n)
		waitFor[bool](p, fmt.Sprintf("#replay-pos %q after %s", pos, how),
			fmt.Sprintf(`(() => { const e = document.querySelector("#replay-pos"); return !!e && e.textContent.trim() === %q; })()`, pos), 5*time.Second)
		got := eval[replayStep](p, replayStepJS)
		view, sentences := want(k)
		if got.Moves != k || got.Phase != view.Phase || got.ToMove != view.ToMove {
			t.Errorf("%s: step %d shows moves %d, phase %s, to move %d; want phase %s, to move %d",
				how, k, got.Moves, got.Phase, got.ToMove, view.Phase, view.ToMove)
		}
		if k > 0 && strings.Join(got.Events, "|") != strings.Join(sentences, "|") {
			t.Errorf("%s: step %d tells\n%q\nwant\n%q", how, k, got.Events, sentences)
		}
		if k == 0 && len(got.Events) == 0 {
			t.Errorf("%s: the start says nothing", how)
		}
		for _, name := range players {
			if !strings.Contains(got.Table, name) {
				t.Errorf("%s: step %d: the table does not show %s", how, k, name)
			}
		}
		return got
	}

	// Opened without a step, the replay plays by itself; Home stops it.
	waitFor[bool](p, "the replay to play by itself", `(() => { const e = document.querySelector("#replay-pos"); return !!e && /^[1-9]/.test(e.textContent); })()`, 5*time.Second)
	if eval[string](p, `document.querySelector("#replay-play").getAttribute("aria-pressed")`) != "true" {
		t.Error("the play button does not show that the replay plays")
	}
	p.do("Home", chromedp.KeyEvent(kb.Home))
	start := at("opening the replay", 0)
	if eval[string](p, `document.querySelector("#replay-play").getAttribute("aria-pressed")`) != "false" {
		t.Error("Home did not stop the replay")
	}
	if strings.Contains(start.Table, "You are watching") {
		t.Error("the replay says \"You are watching\"")
	}
	p.click("#replay-next")
	at("next", 1)
	p.click("#replay-next")
	p.click("#replay-next")
	three := at("next twice more", 3)
	p.click("#replay-prev")
	at("previous", 2)
	p.do("→", chromedp.KeyEvent(kb.ArrowRight))
	if again := at("→", 3); again.Table != three.Table {
		t.Errorf("step 3 shows differently the second time:\n%s\n---\n%s", three.Table, again.Table)
	}
	p.do("←", chromedp.KeyEvent(kb.ArrowLeft))
	at("←", 2)

	// The slider jumps.
	mid := n / 2
	p.setSelect("#replay-slider", fmt.Sprint(mid))
	at("the slider", mid)
	p.click("#replay-next")
	at("next after the slider", mid+1)

	// The rounds' buttons jump to each round's first move.
	for r := 1; r <= 3; r++ {
		first := 0
		for k := 0; k <= n; k++ {
			if v, _ := want(k); v.Round == r && v.Phase != "over" {
				first = k
				break
			}
		}
		p.click(fmt.Sprintf(`#replay-rounds button[data-round="round-%d"]`, r))
		if got := at(fmt.Sprintf("the button of round %d", r), first); got.Phase == "over" {
			t.Errorf("round %d's button shows the end", r)
		}
	}
	p.do("End", chromedp.KeyEvent(kb.End))
	end := at("End", n)
	if end.Phase != "over" {
		t.Errorf("the last step is not the end: phase %q", end.Phase)
	}
	game, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	final := game.State()
	result := waitFor[string](p, "#result at the end", `(() => { const r = document.querySelector("#result"); return r && r.getClientRects().length > 0 && r.innerText.trim(); })()`, 5*time.Second)
	for _, w := range final.Winners() {
		if !strings.Contains(result, players[w]) {
			t.Errorf("#result %q does not name the winner %s", result, players[w])
		}
	}
	if !eval[bool](p, `document.querySelector("#replay-next").disabled && document.querySelector("#replay-last").disabled`) {
		t.Error("next and last are enabled at the end")
	}
	p.do("Home", chromedp.KeyEvent(kb.Home))
	if back := at("Home", 0); back.Table != start.Table {
		t.Errorf("the start shows differently the second time:\n%s\n---\n%s", start.Table, back.Table)
	}
	p.click("#replay-last")
	at("last", n)
	p.click("#replay-first")
	at("first", 0)
	if !eval[bool](p, `document.querySelector("#replay-prev").disabled && document.querySelector("#replay-first").disabled`) {
		t.Error("previous and first are enabled at the start")
	}

	// The same language switch as every page: the sentences follow.
	p.click("#replay-next")
	at("next", 1)
	p.setSelect("#lang", "nl")
	waitFor[bool](p, "html[lang=nl]", `document.documentElement.lang === "nl"`, 5*time.Second)
	nl, _ := i18n.Lookup("nl")
	_, sentences := want(1)
	e := game.Events()
	wantNL := nl.Narrate(e[0], players)
	got := waitFor[string](p, "a Dutch sentence", fmt.Sprintf(`(() => { const li = document.querySelector("#replay-events li"); return li && li.textContent.trim() === %q && li.textContent; })()`, wantNL), 5*time.Second)
	if got == sentences[0] {
		t.Errorf("the sentence %q did not change with the language", got)
	}

	// A link to a step opens at that step (in English again).
	p.setSelect("#lang", "en")
	waitFor[bool](p, "html[lang=en]", `document.documentElement.lang === "en"`, 5*time.Second)
	p.open(fmt.Sprintf("/g/%s/replay#%d", id, mid))
	at("a link to a step", mid)
}

// TestReplayErrors: a replay that cannot be shown says why, in words.
func TestReplayErrors(t *testing.T) {
	srv := newServer(t)
	cat := srv.catalogue(t, "en")
	open := srv.create(t, "", "easy")
	p := newPage(t, srv, "viewer", 1280, 900)
	for _, c := range []struct{ path, key string }{
		{"/g/aaaaaaaaaa/replay", "error.not_found"},
		{"/g/" + open + "/replay", "web.replay.error.not_started"},
	} {
		p.open(c.path)
		msg := waitFor[string](p, "an explanation in #status-message", `(() => { const m = document.querySelector("#status-message"); return m && m.innerText.trim(); })()`, 5*time.Second)
		if text, ok := cat[c.key]; ok && msg != text || msg == "" || strings.Contains(msg, c.key) {
			t.Errorf("%s: #status-message says %q, want %q", c.path, msg, cat[c.key])
		}
		if eval[bool](p, `!document.querySelector("#replay-controls").hidden`) {
			t.Errorf("%s: the controls show without a replay", c.path)
		}
		// A dead link offers the way back to the lobby, in words.
		back := eval[string](p, `(() => { const a = document.querySelector("main a[href='/']"); return a && a.getClientRects().length > 0 ? a.innerText.trim() : ""; })()`)
		if back == "" || back != cat["web.gone.lobby"] {
			t.Errorf("%s: no visible link to the lobby in the page (%q)", c.path, back)
		}
	}
}
