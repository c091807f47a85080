package e2e

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// watchPatchesJS counts, for each state message the page's socket
// receives, the nodes the page changed for it: every node of a subtree
// added or removed, every attribute and text changed (a MutationObserver
// over the whole document, its records taken as each message is handled).
// A state whose events are an opponent's bid and passes is counted apart; size
// is the table's nodes, text included.
const watchPatchesJS = `(() => {
  const table = document.querySelector("#table");
  const size = (n) => { let k = 1; for (let c = n.firstChild; c; c = c.nextSibling) k += size(c); return k; };
  const touched = (recs) => recs.reduce((a, r) => a + (r.type !== "childList" ? 1 :
    [...r.addedNodes, ...r.removedNodes].reduce((x, n) => x + size(n), 0)), 0);
  // Records are delivered between the socket's listeners too.
  let seen = [];
  const obs = new MutationObserver((recs) => { seen = seen.concat(recs); });
  obs.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  const out = window.__patches = { bids: [], all: [], big: [], size: 0, built: [], bidsBuilt: [], chat: [] };
  // The nodes the page made, in the page or not: a redraw that builds the
  // whole table to keep most of it still pays for all of it.
  let made = 0;
  const create = Document.prototype.createElement, createNS = Document.prototype.createElementNS, createText = Document.prototype.createTextNode;
  const clone = Node.prototype.cloneNode;
  Document.prototype.createElement = function (...a) { made++; return create.apply(this, a); };
  Document.prototype.createElementNS = function (...a) { made++; return createNS.apply(this, a); };
  Document.prototype.createTextNode = function (...a) { made++; return createText.apply(this, a); };
  Node.prototype.cloneNode = function (...a) { const c = clone.apply(this, a); made += size(c); return c; };
  // The chat panel's elements built (their classes begin with "chat-"),
  // counted apart: a state message seldom changes the chat.
  let chat = 0;
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (name === "class" && !this.isConnected && String(value).startsWith("chat-")) chat++;
    return setAttribute.call(this, name, value);
  };
  const ws = window.__tableSocket();
  // Added after the page's own listener, so it runs after the redraw.
  ws.addEventListener("message", (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    const n = touched(seen.concat(obs.takeRecords()));
    seen = [];
    const built = made, chatBuilt = chat;
    made = 0;
    chat = 0;
    // A whole state, or version 2's patch of one (its events beside it).
    if (m.type !== "state" && m.type !== "patch") return;
    const me = m.seat ?? Number(table.dataset.seat);
    out.size = Math.max(out.size, size(table));
    out.all.push(n);
    out.built.push(built);
    out.chat.push(chatBuilt);
    if (n > 400) out.big.push(n + ": " + (m.events || []).map((e) => e.kind).join(","));
    const events = m.events || [];
    // The bots answer at once, so a message may carry several moves: an
    // opponent's bid, with the passes around it.
    if (events.length > 0 && events.every((e) => e.kind === "bid" || e.kind === "pass") && events.some((e) => e.kind === "bid" && e.seat !== me)) {
      out.bids.push(n);
      out.bidsBuilt.push(built);
    }
  });
  return true;
})()`

type patches struct {
	Big       []string `json:"big"` // the messages that changed over 400 nodes, with their events
	Bids      []int    `json:"bids"`
	All       []int    `json:"all"`
	Size      int      `json:"size"`
	Built     []int    `json:"built"`     // the nodes made for each message
	BidsBuilt []int    `json:"bidsBuilt"` // and for each opponent's bid
	Chat      []int    `json:"chat"`      // the chat panel's elements built for each message
}

// TestStatePatches: a state message changes only what changed. At a
// five-player table on a desktop, an opponent's bid touches a few dozen
// nodes of a table of thousands; the strips stay the same elements, and a
// reader's focus on the scores stays there while the others play.
func TestStatePatches(t *testing.T) {
	p := seated(t, "easy", "easy", "easy", "easy")
	// Round 2: the side panel has a score table to read.
	p.playTo("round 2", spending, func(tableState) bool {
		return eval[bool](p, `!!document.querySelector("#scores .score-wrap") && !document.querySelector("#round-end[aria-modal]")`)
	})
	eval[bool](p, watchPatchesJS)
	eval[bool](p, `(() => { document.querySelector("#seats").__kept = 1; document.querySelector("#log").__kept = 1; return true; })()`)
	// Each of our moves, then the scores in hand while the others play.
	lost, watched := 0, 0
	for moved := 0; moved < 12 || (moved < 60 && eval[int](p, `window.__patches.bids.length`) < 3); {
		st := p.state()
		if st.Phase == "over" {
			break
		}
		if st.Overlay > 0 {
			p.click("#round-continue")
			waitFor[bool](p, "the overlay to close", `!document.querySelector("#round-end[aria-modal]")`, 5*time.Second)
			continue
		}
		if st.Seat != st.ToMove || len(st.Legal) == 0 {
			p.playTo("our turn", func(st tableState) string { return choose(st.Legal) }, func(st tableState) bool { return st.Seat == st.ToMove && len(st.Legal) > 0 })
			continue
		}
		token := choose(st.Legal)
		key := map[string]string{"draw": "d", "pass": "p"}[token]
		moved++
		if key == "" {
			p.move(st, token)
			continue
		}
		// The reader is in the scores and plays by the keyboard.
		if f := eval[string](p, `(() => { const w = document.querySelector("#scores .score-wrap"); if (!w) return "no scores";
  w.focus(); window.__focus = w; return document.activeElement === w ? "" : "not focused"; })()`); f != "" {
			t.Fatalf("the scores: %s", f)
		}
		n := eval[int](p, `window.__patches.all.length`)
		p.do("press "+key, chromedp.KeyEvent(key))
		waitFor[bool](p, "the table after our move and the others'", fmt.Sprintf(`(() => { const e = document.querySelector("#table");
  return Number(e.dataset.moves) > %d && (e.dataset.phase === "over" || !!document.querySelector("#round-end[aria-modal]") ||
    (e.dataset.seat === e.dataset.toMove && !!document.querySelector("#table button[data-move]:not([disabled])"))); })()`, st.Moves), 10*time.Second)
		if eval[int](p, `window.__patches.all.length`) <= n+1 {
			continue // nobody else moved
		}
		watched++
		// A round's end takes the focus to its button, as a dialog does,
		// and the game's end is a new screen.
		if !eval[bool](p, `document.activeElement === window.__focus && window.__focus.isConnected ||
  !!document.querySelector("#round-end[aria-modal]") || document.querySelector("#table").dataset.phase === "over"`) {
			lost++
		}
	}
	if watched == 0 {
		t.Fatalf("the focus was never put on the scores: the test proves nothing (%+v, %d sockets)", eval[patches](p, `window.__patches`), eval[int](p, `window.__sockets.length`))
	}
	got := eval[patches](p, `window.__patches`)
	t.Logf("nodes changed per state message: %v; by an opponent's bid: %v; the table has %d nodes; over 400: %q", got.All, got.Bids, got.Size, got.Big)
	t.Logf("nodes made per state message: %v; for an opponent's bid: %v; chat elements: %v", got.Built, got.BidsBuilt, got.Chat)
	// Nobody wrote in the chat and the seats stayed taken: the panel shows
	// what it showed, built anew for no message (the game's end may).
	rebuilt := 0
	for _, n := range got.Chat[:max(0, len(got.Chat)-1)] {
		if n > 0 {
			rebuilt++
		}
	}
	if rebuilt > 0 {
		t.Errorf("the chat panel was built again for %d of %d state messages that did not change it: elements %v", rebuilt, len(got.Chat), got.Chat)
	}
	if lost > 0 {
		t.Errorf("the focus on the scores was lost %d times while the others played", lost)
	}
	if !eval[bool](p, `document.querySelector("#seats").__kept === 1 && document.querySelector("#log").__kept === 1`) {
		t.Errorf("the strips or the log were built anew")
	}
	if len(got.Bids) == 0 {
		t.Fatalf("no opponent bid seen in %d state messages: the test proves nothing", len(got.All))
	}
	// A bid changes the bidder's part, the turn, the auction's high bid,
	// the newest event and a line of the log: a few dozen nodes.
	const bound = 60
	if most := slices.Max(got.Bids); most > bound || most*20 > got.Size {
		t.Errorf("an opponent's bid changed up to %d nodes of the table's %d; want at most %d", most, got.Size, bound)
	}
	// And builds little more: the parts it leaves as they were (the
	// strips of the players it did not concern, the board) are not built
	// to be thrown away.
	const made = 250
	if most := slices.Max(got.BidsBuilt); most > made || most*4 > got.Size {
		t.Errorf("an opponent's bid built up to %d nodes for a table of %d; want at most %d", most, got.Size, made)
	}
}

// TestStatePatchTrace measures what a state message costs a mid-range
// phone: a five-player game against bots under a Chrome trace with the CPU
// slowed four times (animations on, as a player has them; touched, never
// hovered by a mouse, at a desktop's size to draw every part). For each state
// message it takes the task that handled it and the frame that drew it
// next (style, layout, paint), prints the longest and the median of each,
// and fails when one took 50 ms or more. It prints what the longest were
// made of too (logCosts): the message (type and events), the shares of
// script, GC, style, layout and paint, and the functions the profile
// found, shares that a busy machine does not change much. A figure is
// only worth reading from a quiet machine, so the test runs when
// RAZZIA_TRACE=1 (RAZZIA_TRACE_OUT=FILE keeps the trace, for DevTools):
//
//	RAZZIA_TRACE=1 go test ./internal/e2e -run 'TestStatePatchTrace$' -count=1 -v
func TestStatePatchTrace(t *testing.T) {
	if os.Getenv("RAZZIA_TRACE") != "1" {
		t.Skip("a measurement for a quiet machine: RAZZIA_TRACE=1 runs it")
	}
	// A phone is touched, never hovered: no mouse comes near the page,
	// whose moves are pressed from a script (a mouse over the table adds
	// its hit tests to every frame).
	srv := newServer(t)
	id := srv.create(t, "", "easy", "easy", "easy", "easy")
	p := newPage(t, srv, "Ann", desktop.w, desktop.h)
	p.do("touch", chromedp.EmulateViewport(desktop.w, desktop.h, chromedp.EmulateTouch))
	p.open("/g/" + id)
	waitFor[bool](p, "the join form", `(() => { const b = document.querySelector("#join"); return !!b && b.getClientRects().length > 0; })()`, 10*time.Second)
	eval[bool](p, `(document.querySelector("#join-name").value = "Ann", document.querySelector("#join").click(), true)`)
	waitFor[bool](p, "the seat", `document.querySelector("#table").dataset.seat === "0"`, 10*time.Second)
	listener := listenerLine(t, p.srv)
	for st := pressTo(p, spending); st.Moves < 10 && st.Phase != "over"; st = pressTo(p, spending) {
	}
	p.do("animations on and the CPU four times slower", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "no-preference"}},
		}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 4})
		return err
	}))
	stampMessages(p)
	trace := startTrace(p, true)
	for made := 0; made < 30; made++ {
		if st := pressTo(p, spending); st.Phase == "over" {
			break
		}
	}
	got := trace.stop(listener)
	msg, frame, msgCPU, frameCPU := got.msg, got.frame, got.msgCPU, got.frameCPU
	if len(msg) < 30 || len(frame) == 0 {
		t.Fatalf("only %d state messages traced: the trace proves nothing", len(msg))
	}
	t.Logf("4x CPU throttling, 5 players, %d state messages: the task handling one took at most %.1f ms (median %.1f ms); "+
		"the frame drawing it at most %.1f ms (median %.1f ms)", len(msg), slices.Max(msg), median(msg), slices.Max(frame), median(frame))
	t.Logf("the same in the main thread's CPU time: at most %.1f ms (median %.1f ms) and %.1f ms (median %.1f ms)",
		slices.Max(msgCPU), median(msgCPU), slices.Max(frameCPU), median(frameCPU))
	t.Logf("style recalculations and layouts forced in the messages' tasks: %d %q; paints: %d", len(got.forced), got.forced, got.paints)
	t.Logf("the frames drawing them: elements styled at most %d (median %d), objects laid out at most %d (median %d)",
		slices.Max(got.styled), medianInt(got.styled), slices.Max(got.laidOut), medianInt(got.laidOut))
	painting, whole := wholePage(got.painted)
	t.Logf("and the share of the viewport they painted again: at most %.2f (median %.2f, mean %.2f); %d of the %d frames that painted painted the whole page",
		slices.Max(got.painted), median(got.painted), mean(got.painted), whole, painting)
	logCosts(t, got, eval[[]string](p, `window.__traced`), 4)
	roundEndCosts(t, got, eval[[]string](p, `window.__traced`))
	// The goal is the task: what holds the page's thread, so that a tap
	// waits behind it. The frame after it (style, layout, paint) is told,
	// to be brought under the same 50 ms next.
	if slices.Max(msg) >= 50 {
		t.Errorf("a state message took a task of %.1f ms; want under 50 ms", slices.Max(msg))
	}
	if slices.Max(frame) >= 50 {
		t.Logf("not yet: a frame drawing a state message took %.1f ms, over 50 ms", slices.Max(frame))
	}
}

// pressTo makes the page's seat's next move, chosen by pick, with a
// script's press of its button (going on from a round's end the same
// way), and returns the state it was made in.
func pressTo(p *page, pick func(tableState) string) tableState {
	p.t.Helper()
	return moveTo(p, pick, false)
}

// clickTo is pressTo with the mouse, whose click focuses the button.
func clickTo(p *page, pick func(tableState) string) tableState {
	p.t.Helper()
	return moveTo(p, pick, true)
}

func moveTo(p *page, pick func(tableState) string, mouse bool) tableState {
	p.t.Helper()
	press := func(selector string) {
		if mouse {
			p.click(selector)
		} else {
			eval[bool](p, fmt.Sprintf(`(document.querySelector(%q).click(), true)`, selector))
		}
	}
	for {
		st := waitFor[tableState](p, "a move to make", `(() => { const s = `+stateJS+`;
  return s && (s.phase === "over" || s.overlay > 0 || (s.seat >= 0 && s.seat === s.toMove && s.legal.length > 0)) ? s : null; })()`, 30*time.Second)
		if st.Phase == "over" {
			return st
		}
		if st.Overlay > 0 {
			// Stamped for a trace (roundEndCosts): going on is a task of
			// its own, no message's.
			if mouse {
				p.click("#round-continue")
			} else {
				eval[bool](p, `(console.timeStamp("razzia-continue"), document.querySelector("#round-continue").click(), true)`)
			}
			waitFor[bool](p, "the round's end closed", `!document.querySelector("#round-end[aria-modal]")`, 10*time.Second)
			continue
		}
		press(fmt.Sprintf(`#table button[data-move=%q]:not([disabled])`, pick(st)))
		waitFor[bool](p, "the table to move on", fmt.Sprintf(`Number(document.querySelector("#table").dataset.moves) > %d`, st.Moves), 30*time.Second)
		return st
	}
}

// listenerLine finds the line of conn.js where the page's socket listens
// for messages: the trace names a function by its script and line.
func listenerLine(t *testing.T, srv *server) int {
	t.Helper()
	_, src := srv.fetch(t, "GET", "/static/js/conn.js", "")
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, `addEventListener("message"`) {
			return i + 1
		}
	}
	t.Fatal(`conn.js has no addEventListener("message"`)
	return 0
}

func medianInt(xs []int) int {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// A tracer collects a Chrome trace of the page.
type tracer struct {
	p      *page
	mu     sync.Mutex
	cancel func()            // stops listening: a page may be traced again
	events []traceEvent      // decoded by stop, once the trace is complete
	raw    []json.RawMessage // every event as Chromium sent it
	chunks int               // the parts of the trace that came so far
	came   chan struct{}     // a part came (the trace makes progress)
	done   chan struct{}
}

type traceEvent struct {
	Name string  `json:"name"`
	ID   string  `json:"id"` // a CPU profile's, for its chunks
	Ph   string  `json:"ph"`
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	Ts   float64 `json:"ts"`
	Dur  float64 `json:"dur"`
	Tdur float64 `json:"tdur"` // the thread's CPU time
	Args struct {
		Name string `json:"name"`
		Data struct {
			URL        string    `json:"url"`
			LineNumber int       `json:"lineNumber"`
			Frame      string    `json:"frame"`
			Clip       []float64 `json:"clip"`     // a paint's rectangle, as a quad of the viewport's
			NodeName   string    `json:"nodeName"` // the element at the root of what was painted
			Message    string    `json:"message"`  // a console.timeStamp's
			StartTime  float64   `json:"startTime"`
			CPUProfile struct {
				Nodes   []profileNode `json:"nodes"`
				Samples []int         `json:"samples"`
			} `json:"cpuProfile"`
			TimeDeltas []float64 `json:"timeDeltas"`
		} `json:"data"`
		ElementCount int `json:"elementCount"` // a style recalculation's elements
		BeginData    struct {
			DirtyObjects int          `json:"dirtyObjects"` // a layout's objects to lay out
			StackTrace   []stackFrame `json:"stackTrace"`
		} `json:"beginData"`
	} `json:"args"`
}

// TestStatePatchLayouts: what a state message costs in work, whatever the
// machine's speed. The task that handles a message lays nothing out (a
// script that reads the layout there makes the browser lay the page out
// twice: once for it, once for the frame), and a table that waits for the
// reader's move, its turn shown with motion, paints nothing on the main
// thread: its motion runs on the compositor.
func TestStatePatchLayouts(t *testing.T) {
	p := seated(t, "easy", "easy", "easy", "easy")
	listener := listenerLine(t, p.srv)
	p.do("animations on", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "no-preference"}},
		})
		return err
	}))
	for st := pressTo(p, spending); st.Moves < 6 && st.Phase != "over"; st = pressTo(p, spending) {
	}
	// Moves made by the mouse, whose click focuses the button the move
	// takes away: the focus waits in the decision panel, not on a button
	// the next state removes.
	trace := startTrace(p, false)
	for made := 0; made < 8; made++ {
		if st := clickTo(p, spending); st.Phase == "over" {
			break
		}
	}
	got := trace.stop(listener)
	if len(got.msg) < 8 {
		t.Fatalf("only %d state messages traced: the trace proves nothing", len(got.msg))
	}
	t.Logf("%d state messages; style recalculations and layouts in their tasks: %q", len(got.msg), got.forced)
	t.Logf("the %d frames drawing them painted again these shares of the viewport: %.2f", len(got.framePainted), got.framePainted)
	// Each part of the table paints apart: a message repaints the parts
	// it changed, not the whole page (which a layout, a new stacking
	// context or the round's end may still ask for now and then). Each
	// frame counts once: how many messages one draws depends on the
	// machine's load.
	painting, whole := wholePage(got.framePainted)
	if painting == 0 {
		t.Errorf("no frame drawing a state message painted: the trace proves nothing")
	} else if whole*2 > painting {
		t.Errorf("%d of the %d frames that painted a state message painted the whole page again: %.2f; want at most half, the parts changed only", whole, painting, got.framePainted)
	}
	if len(got.forced) > 0 {
		t.Errorf("the tasks of %d state messages laid the page out %d times: %q; want none (the frame does it)", len(got.msg), len(got.forced), got.forced)
	}
	// The focus comes back to the next move, for a reader at the keyboard.
	waitFor[bool](p, "the focus on the next move", `(() => { const t = document.querySelector("#table");
  return t.dataset.phase === "over" || !!document.querySelector("#round-end[aria-modal]") || t.dataset.seat !== t.dataset.toMove ||
    !!document.activeElement.closest("#moves button[data-move], #piles button[data-move]"); })()`, 5*time.Second)

	// The reader's turn, shown with motion: once the last move's motion
	// ended, 30 frames go by.
	waitFor[bool](p, "our turn", `!!document.querySelector("#table .turn-you") && !document.querySelector("#round-end[aria-modal]")`, 30*time.Second)
	// Transitions start at the frame that styles the change: two frames,
	// then every finite animation's end.
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
  .then(() => Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => null))))
  .then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))).then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting for the last move's motion: %v", err)
	}
	idle := startTrace(p, false)
	frames, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`new Promise((done) => { let n = 0;
  const f = () => (++n >= 30 ? done(n) : requestAnimationFrame(f)); requestAnimationFrame(f); })`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("counting frames: %v", err)
	}
	quiet := idle.stop(listener)
	p.screenshot("patch-turn-desktop")
	t.Logf("%d frames of our turn: %d paints on the main thread", frames, quiet.paints)
	if quiet.paints > 1 {
		t.Errorf("the table waiting for our move painted %d times in %d frames on the main thread; want its motion on the compositor", quiet.paints, frames)
	}
}

// startTrace starts tracing the page's tasks and what runs in them, and
// with profile, where the time goes in the scripts (a CPU profile).
func startTrace(p *page, profile bool) *tracer {
	p.t.Helper()
	tr := &tracer{p: p, came: make(chan struct{}, 1), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(p.ctx)
	p.t.Cleanup(cancel)
	tr.cancel = cancel
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			// Kept as sent: decoding here would hold up the rest of the
			// trace and its end, on a busy machine for long.
			tr.mu.Lock()
			for _, v := range ev.Value {
				tr.raw = append(tr.raw, json.RawMessage(v))
			}
			tr.chunks++
			tr.mu.Unlock()
			select {
			case tr.came <- struct{}{}:
			default:
			}
		case *tracing.EventTracingComplete:
			close(tr.done)
		}
	})
	if err != nil {
		p.fail("listening to the trace: %v", err)
	}
	categories := []string{"toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "__metadata",
		"disabled-by-default-devtools.timeline.stack"}
	if profile {
		categories = append(categories, "v8.execute", "disabled-by-default-v8.cpu_profiler", "blink.user_timing")
	}
	p.do("start tracing", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig:  &tracing.TraceConfig{IncludedCategories: categories},
		})
		return err
	}))
	return tr
}

// A traced is what a trace saw of the page's main thread: for each task
// that handled a message of the page's socket, and for the frame drawn next,
// their wall and CPU times in milliseconds; the style recalculations and
// layouts run inside the message tasks (forced by a script: a frame would
// do them anyway, once); and the paints of the whole trace.
type traced struct {
	msg, frame, msgCPU, frameCPU []float64
	forced                       []string // "Layout" or "UpdateLayoutTree", with the function that asked
	paints                       int
	// For each frame drawing a message: the elements whose style it
	// recalculated and the objects it laid out, counts that do not depend
	// on the machine's speed.
	styled, laidOut []int
	// And the share of the viewport their paints recorded again: a part
	// painted anew counts its area, the document's root its whole.
	painted []float64
	// framePainted is painted once for each frame: messages that come
	// together are drawn by one frame, which painted counts for each.
	framePainted []float64
	// Each message's task and the frame drawn next, with what ran in
	// them, for costs (traceshare_test.go).
	tasks []messageTask
	// The tasks that went on from a round's end (stamped
	// "razzia-continue"), with the frame drawn next.
	continues []messageTask
	samples   []sample
}

// stop ends the trace and tells what it saw (traced), the page's socket's
// messages found by conn.js's listener at line.
func (tr *tracer) stop(line int) traced {
	p := tr.p
	p.t.Helper()
	p.do("stop tracing", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, tracing.End, cdp.Empty{})
		return err
	}))
	// Chromium writes the trace out as megabytes of JSON (the page's
	// renderer's events, and those of the browser's other processes,
	// which serve every test's pages) that come in parts, in a time that
	// grows with the trace and the machine's load, the more under -race:
	// the bound is on progress, a part at least every stall, as for a
	// step.
	for complete := false; !complete; {
		select {
		case <-tr.done:
			complete = true
		case <-tr.came:
		case <-time.After(stall):
			tr.mu.Lock()
			n := tr.chunks
			tr.mu.Unlock()
			p.fail("the trace stalled: %d parts came, then nothing for %v", n, stall)
		}
	}
	tr.cancel()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for _, v := range tr.raw {
		var e traceEvent
		if json.Unmarshal(v, &e) == nil {
			tr.events = append(tr.events, e)
		}
	}
	if out := os.Getenv("RAZZIA_TRACE_OUT"); out != "" {
		// For chrome://tracing, Perfetto or DevTools' performance panel.
		b, err := json.Marshal(map[string]any{"traceEvents": tr.raw})
		if err == nil {
			err = os.WriteFile(out, b, 0o644)
		}
		if err != nil {
			p.fail("writing the trace: %v", err)
		}
		p.t.Logf("the trace is in %s", out)
	}
	// The page's own renderer: the browser is shared, and other tests'
	// pages run their own at the same time. A page's main frame has the
	// page's target's id.
	frame := string(chromedp.FromContext(p.ctx).Target.TargetID)
	ours := map[int]bool{}
	for _, e := range tr.events {
		if e.Args.Data.Frame == frame {
			ours[e.Pid] = true
		}
	}
	type thread struct{ pid, tid int }
	main := map[thread]bool{}
	for _, e := range tr.events {
		if e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "CrRendererMain" && ours[e.Pid] {
			main[thread{e.Pid, e.Tid}] = true
		}
	}
	// Each main thread's tasks in order, and what each task ran.
	type task = runTask
	var out traced
	tasks := map[thread][]*task{}
	var inner []traceEvent
	var vw, vh float64
	for _, e := range tr.events {
		if e.Name == "Paint" && e.Args.Data.NodeName == "#document" && len(e.Args.Data.Clip) == 8 {
			vw, vh = max(vw, e.Args.Data.Clip[4]), max(vh, e.Args.Data.Clip[5])
		}
	}
	for _, e := range tr.events {
		th := thread{e.Pid, e.Tid}
		if !main[th] || e.Ph != "X" {
			continue
		}
		if e.Name == "RunTask" {
			tasks[th] = append(tasks[th], &task{e: e})
		} else {
			inner = append(inner, e)
		}
		if e.Name == "Paint" {
			out.paints++
		}
	}
	for _, ts := range tasks {
		slices.SortFunc(ts, func(a, b *task) int { return cmp.Compare(a.e.Ts, b.e.Ts) })
	}
	for _, e := range inner {
		ts := tasks[thread{e.Pid, e.Tid}]
		i, _ := slices.BinarySearchFunc(ts, e.Ts, func(t *task, at float64) int { return cmp.Compare(t.e.Ts, at) })
		for ; i > 0 && (i == len(ts) || ts[i].e.Ts > e.Ts); i-- {
		}
		if i >= len(ts) || ts[i].e.Ts > e.Ts || e.Ts+e.Dur > ts[i].e.Ts+ts[i].e.Dur {
			continue
		}
		ts[i].inner = append(ts[i].inner, e)
		switch {
		case e.Name == "FunctionCall" && strings.HasSuffix(e.Args.Data.URL, "/conn.js") && (e.Args.Data.LineNumber == line || e.Args.Data.LineNumber == line-1):
			ts[i].message = true
		case e.Name == "Paint" || e.Name == "PrePaint":
			ts[i].frame = true
			if e.Name == "Paint" {
				ts[i].paints = append(ts[i].paints, e)
			}
		case e.Name == "Layout" || e.Name == "UpdateLayoutTree":
			ts[i].layouts = append(ts[i].layouts, e)
		}
	}
	var goneOn []traceEvent
	for _, e := range tr.events {
		if e.Name == "TimeStamp" && e.Args.Data.Message == "razzia-continue" {
			goneOn = append(goneOn, e)
		}
	}
	drawn := map[*task]bool{}
	for _, ts := range tasks {
		for i, t := range ts {
			if stampedIn(goneOn, t) {
				out.continues = append(out.continues, messageTask{task: t, frame: nextFrame(ts[i+1:])})
			}
			if !t.message {
				continue
			}
			out.msg = append(out.msg, t.e.Dur/1000)
			out.msgCPU = append(out.msgCPU, t.e.Tdur/1000)
			mt := messageTask{task: t, stamps: stampsIn(tr.events, t)}
			for _, l := range t.layouts {
				out.forced = append(out.forced, l.Name+askedBy(l.Args.BeginData.StackTrace))
			}
			for _, next := range ts[i+1:] {
				if next.frame {
					out.frame = append(out.frame, next.e.Dur/1000)
					out.frameCPU = append(out.frameCPU, next.e.Tdur/1000)
					styled, laid := 0, 0
					for _, l := range next.layouts {
						styled += l.Args.ElementCount
						laid += l.Args.BeginData.DirtyObjects
					}
					out.painted = append(out.painted, paintedShare(next.paints, vw, vh))
					if !drawn[next] {
						drawn[next] = true
						out.framePainted = append(out.framePainted, paintedShare(next.paints, vw, vh))
					}
					out.styled = append(out.styled, styled)
					out.laidOut = append(out.laidOut, laid)
					mt.frame = next
					break
				}
			}
			out.tasks = append(out.tasks, mt)
		}
	}
	pids := map[int]bool{}
	for th := range main {
		pids[th.pid] = true
	}
	out.samples = profileSamples(tr.events, pids)
	return out
}

// paintedShare is the share of a vw×vh viewport that a frame's paints
// recorded again: each painted part not inside another counts its area
// within the viewport; the root element's paint, the whole page's, counts
// all of it. The document's own paint, which every frame walks (reusing
// what its parts kept), counts nothing by itself.
func paintedShare(paints []traceEvent, vw, vh float64) float64 {
	if vw == 0 || vh == 0 {
		return 0
	}
	area := 0.0
	for i, e := range paints {
		d := e.Args.Data
		if d.NodeName == "#document" || len(d.Clip) != 8 {
			continue
		}
		if slices.ContainsFunc(d.Clip, func(c float64) bool { return c > 1e6 }) {
			// A part the compositor moves (the turn's heading, a flying
			// card) paints without bounds: it is small, counted as nothing.
			continue
		}
		inside := false
		for j, o := range paints {
			if j != i && o.Args.Data.NodeName != "#document" && o.Ts <= e.Ts && e.Ts+e.Dur <= o.Ts+o.Dur && (o.Ts < e.Ts || j < i) {
				inside = true
			}
		}
		if inside {
			continue
		}
		xs, ys := []float64{d.Clip[0], d.Clip[2], d.Clip[4], d.Clip[6]}, []float64{d.Clip[1], d.Clip[3], d.Clip[5], d.Clip[7]}
		w := min(slices.Max(xs), vw) - max(slices.Min(xs), 0)
		h := min(slices.Max(ys), vh) - max(slices.Min(ys), 0)
		if w > 0 && h > 0 {
			area += w * h
		}
	}
	return min(area/(vw*vh), 1)
}

func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(max(len(xs), 1))
}

// wholePage counts the frames that painted (a share of the viewport
// above 0) and those that painted all of it again.
func wholePage(painted []float64) (painting, whole int) {
	for _, share := range painted {
		if share > 0 {
			painting++
		}
		if share >= 0.99 {
			whole++
		}
	}
	return painting, whole
}

// stampMessages marks each message of the page's table socket in the
// trace, after the page's own listener, in the same task: a TimeStamp
// event "razzia-message N", N the message's index in window.__traced,
// which keeps what came (read only after the trace, not in the task).
func stampMessages(p *page) {
	p.t.Helper()
	eval[bool](p, `(() => { const got = window.__traced = [];
  window.__tableSocket().addEventListener("message", (ev) => { got.push(ev.data); console.timeStamp("razzia-message " + (got.length - 1)); });
  return true; })()`)
}
