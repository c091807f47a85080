package e2e

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestRoundEndCoverOptions compares, for the record, the ways to put the
// table out of reach behind the round's end by the elements each makes
// the browser restyle (a trace's UpdateLayoutTree elementCount, which does
// not depend on the machine's speed), each put on and taken off again at
// a five-player table at the end of round 1:
//
//	RAZZIA_TRACE=1 go test ./internal/e2e -run 'TestRoundEndCoverOptions$' -count=1 -v
func TestRoundEndCoverOptions(t *testing.T) {
	if os.Getenv("RAZZIA_TRACE") != "1" {
		t.Skip("a measurement for the record: RAZZIA_TRACE=1 runs it")
	}
	p := seated(t, "easy", "easy", "easy", "easy")
	p.playTo("the end of round 1", spending, func(st tableState) bool { return st.Overlay == 1 })
	frames := func() {
		if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
	}
	// The table as it was before the round's end covered it.
	eval[bool](p, `(() => { const t = document.querySelector(".tbl"); t.classList.remove("tbl-covered"); t.removeAttribute("aria-hidden");
  for (const e of document.querySelectorAll("[data-under-overlay]")) e.inert = false; return true; })()`)
	frames()
	t.Logf("elements in the table %d, in the page %d", eval[int](p, `document.querySelectorAll(".tbl *").length`), eval[int](p, `document.querySelectorAll("body *").length`))
	const focusables = `document.querySelectorAll(".tbl :is(button, a, [tabindex], select, input, summary)")`
	options := []struct{ name, on, off string }{
		{"inert on the table", `document.querySelector(".tbl").inert = true`, `document.querySelector(".tbl").inert = false`},
		{"aria-hidden on the table", `document.querySelector(".tbl").setAttribute("aria-hidden", "true")`, `document.querySelector(".tbl").removeAttribute("aria-hidden")`},
		{"inert on the table's focusables", `for (const e of ` + focusables + `) e.inert = true`, `for (const e of ` + focusables + `) e.inert = false`},
		{"content-visibility: hidden on the table", `document.querySelector(".tbl").classList.add("tbl-covered")`, `document.querySelector(".tbl").classList.remove("tbl-covered")`},
		{"inert on the parts around the table", `for (const e of document.querySelectorAll("[data-under-overlay]")) e.inert = true`, `for (const e of document.querySelectorAll("[data-under-overlay]")) e.inert = false`},
		{"a <dialog> opened by showModal()", `const d = document.createElement("dialog"); d.id = "cover-dialog"; d.textContent = "x"; document.body.appendChild(d); d.showModal()`,
			`const d = document.getElementById("cover-dialog"); d.close(); d.remove()`},
	}
	listener := listenerLine(t, p.srv)
	for _, o := range options {
		for _, step := range []struct{ what, js string }{{"on", o.on}, {"off", o.off}} {
			tr := startTrace(p, false)
			eval[bool](p, `(() => { `+step.js+`; return true; })()`)
			frames()
			tr.stop(listener)
			n := 0
			tr.mu.Lock()
			for _, e := range tr.events {
				if e.Name == "UpdateLayoutTree" && e.Ph == "X" {
					n += e.Args.ElementCount
				}
			}
			tr.mu.Unlock()
			t.Logf("%-42s %-3s: %4d elements restyled", o.name, step.what, n)
			frames()
		}
	}
}
