package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// holdingsJS measures the cards the players hold, in their strips: the
// smallest symbol's side in pixels, which symbols a count covers, and
// whether each scoring group's kinds stand in a box of their own, apart
// from the others'.
const holdingsJS = `(() => {
  const chips = [...document.querySelectorAll("#table .strip-hold .chip-card")].filter((c) => c.getClientRects().length > 0);
  const side = (e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); };
  const out = { chips: chips.length, symbol: 1e9, covered: [], groups: 0, apart: true };
  for (const c of chips) {
    out.symbol = Math.min(out.symbol, side(c.querySelector(".card-sym")));
    const n = c.querySelector(".chip-n");
    if (!n) continue;
    const a = n.getBoundingClientRect(), b = c.querySelector(".card-sym").getBoundingClientRect();
    if (a.left < b.right - 1 && a.right > b.left + 1 && a.top < b.bottom - 1 && a.bottom > b.top + 1) out.covered.push(c.dataset.kind);
  }
  // Each box holds one scoring group's kinds, and the boxes stand apart.
  const groups = { bodyguards: ["bodyguard"], cars: ["car", "driver"], jewels: ["necklace", "watch", "diamond", "ring", "brooch"],
    thieves: ["thief"], gold: ["gold"], businesses: ["racetrack", "nightclub", "restaurant", "transport", "casino", "cinema", "realestate"] };
  for (const box of document.querySelectorAll("#table .strip-hold > li")) {
    out.groups++;
    const want = groups[box.dataset.group] || [];
    const kinds = [...box.querySelectorAll(".chip-card")].map((c) => c.dataset.kind);
    if (kinds.length === 0 || kinds.some((k) => !want.includes(k))) out.apart = false;
    const next = box.nextElementSibling;
    if (!next) continue;
    const a = box.getBoundingClientRect(), b = next.getBoundingClientRect();
    if (Math.abs(a.top - b.top) < 2 && b.left - a.right < 3) out.apart = false;
  }
  return out;
})()`

type holdings struct {
	Chips   int      `json:"chips"`
	Symbol  float64  `json:"symbol"`
	Covered []string `json:"covered"`
	Groups  int      `json:"groups"`
	Apart   bool     `json:"apart"`
}

// minSymbol is the smallest side, in CSS pixels, of a held card's symbol:
// an icon at a glance on a phone held at arm's length.
const minSymbol = 20

// TestHoldingsLegible plays a five-player game into round 2 and reads the
// players' holdings on a phone, a desktop, a tablet and a phone on its
// side: every symbol at least minSymbol pixels, no count over a symbol,
// and the scoring groups (bodyguards, cars and drivers, jewels, thieves,
// gold, businesses) set apart from each other.
func TestHoldingsLegible(t *testing.T) {
	p := seated(t, "easy", "easy", "easy", "easy")
	p.playTo("round 2", spending, func(tableState) bool {
		return eval[bool](p, `!!document.querySelector("#scores .score-wrap") && !document.querySelector("#round-end[aria-modal]") && document.querySelectorAll("#table .strip-hold .chip-card").length >= 8`)
	})
	for _, s := range []size{phone, desktop, tablet, landscape} {
		p.resize(s)
		got := eval[holdings](p, holdingsJS)
		t.Logf("%s: %d chips, the smallest symbol %.1f px, %d groups set apart", s, got.Chips, got.Symbol, got.Groups)
		if got.Chips == 0 {
			t.Fatalf("%s: no holdings shown", s)
		}
		if got.Symbol < minSymbol {
			t.Errorf("%s: a held card's symbol is %.1f px; want at least %d", s, got.Symbol, minSymbol)
		}
		if len(got.Covered) > 0 {
			t.Errorf("%s: a count covers the symbol of %s", s, strings.Join(got.Covered, ", "))
		}
		if !got.Apart {
			t.Errorf("%s: the holdings are not boxed by scoring group, apart", s)
		}
		eval[bool](p, `(document.querySelector("#seats").scrollIntoView({block: "start"}), true)`)
		p.screenshotViewport(fmt.Sprintf("holdings-%s", s))
	}
	p.resize(desktop)
}
