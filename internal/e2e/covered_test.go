package e2e

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// behindJS finds what a person reaches of the parts of the page the
// round's end covers (the table's .tbl and the parts marked
// data-under-overlay): an element that takes the focus (by a script's
// focus, which reaches more than Tab), an element the pointer hits at its
// centre, and where Tab from the dialog's button goes, 12 presses on.
// Marks each element checked (data-behind-checked) for the
// accessibility tree's check.
const behindJS = `(() => {
  const behind = [...document.querySelectorAll(".tbl, [data-under-overlay]")];
  const inBehind = (e) => !!e && behind.some((b) => b.contains(e));
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.split(" ")[0] : "");
  const focused = [], hit = [];
  const back = document.activeElement;
  for (const b of behind) for (const e of b.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")) {
    e.focus();
    if (document.activeElement === e) focused.push(name(e));
  }
  if (back && back.focus) back.focus();
  const vw = innerWidth, vh = innerHeight;
  for (let x = 5; x < vw; x += vw / 12) for (let y = 5; y < vh; y += vh / 12) {
    const e = document.elementFromPoint(x, y);
    if (inBehind(e)) hit.push(name(e) + " at " + Math.round(x) + "," + Math.round(y));
  }
  return { focused, hit };
})()`

type behindReach struct {
	Focused []string `json:"focused"` // elements behind that took the focus
	Hit     []string `json:"hit"`     // elements behind that the pointer hit
	Tabbed  []string // where Tab went, outside the dialog
	Tree    []string // elements behind in the accessibility tree, by role and name
}

func (r behindReach) String() string {
	var out []string
	for _, s := range []struct {
		what string
		list []string
	}{{"focusable", r.Focused}, {"under the pointer", r.Hit}, {"reached by Tab", r.Tabbed}, {"in the accessibility tree", r.Tree}} {
		if len(s.list) > 0 {
			out = append(out, fmt.Sprintf("%s: %d (%s)", s.what, len(s.list), strings.Join(s.list[:min(len(s.list), 6)], ", ")))
		}
	}
	return strings.Join(out, "; ")
}

// reachBehind tells what a person reaches behind the round's end: by the
// focus, Tab, the pointer and a screen reader (the accessibility tree's
// nodes not ignored). With the dialog open, all should be empty.
func (p *page) reachBehind() behindReach {
	p.t.Helper()
	r := eval[behindReach](p, behindJS)
	// Tab from the dialog's button, around and around.
	if eval[bool](p, `(() => { const b = document.querySelector("#round-continue"); if (b) b.focus(); return !!b; })()`) {
		for i := 0; i < 12; i++ {
			p.do("Tab", chromedp.KeyEvent("\t"))
			if where := eval[string](p, `(() => { const a = document.activeElement;
  return !a || a === document.body || a.closest("#round-end") ? "" : a.tagName.toLowerCase() + (a.id ? "#" + a.id : ""); })()`); where != "" {
				r.Tabbed = append(r.Tabbed, where)
			}
		}
	}
	// A screen reader: each part behind, its accessibility subtree's nodes
	// not ignored (DOM.getDocument would renumber the nodes chromedp knows).
	n := eval[int](p, `document.querySelectorAll(".tbl, [data-under-overlay]").length`)
	p.do("the accessibility tree", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		for i := range n {
			obj, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{
				Expression: fmt.Sprintf(`document.querySelectorAll(".tbl, [data-under-overlay]")[%d]`, i)})
			if err != nil {
				return err
			}
			if obj.Result == nil || obj.Result.ObjectID == "" {
				continue
			}
			tree, err := chromedp.Call(ctx, accessibility.QueryAXTree, accessibility.QueryAXTreeParams{ObjectID: obj.Result.ObjectID})
			if err != nil {
				return err
			}
			for _, n := range tree.Nodes {
				if !n.Ignored && axText(n.Role) != "generic" && axText(n.Role) != "none" {
					r.Tree = append(r.Tree, strings.TrimSpace(axText(n.Role)+" "+axText(n.Name)))
				}
			}
		}
		return nil
	}))
	return r
}

func axText(v *accessibility.Value) string {
	if v == nil {
		return ""
	}
	return strings.Trim(string(v.Value), `"`)
}
