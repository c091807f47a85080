package web

import "testing"

// syncCheck brings a drawn part of a page up to date with dom.js's sync and
// checks what a redraw must keep: the same elements where only text or
// attributes changed, keyed elements found where they moved to, a details
// the reader opened, the newest handlers, and nothing left over.
const syncCheck = `import "./fakedom.mjs";
import { h, sync } from "./dom.mjs";
const cases = [];
const root = document.createElement("div");
const said = [];
const draw = (n, order, extra) => [
  h("p", { id: "turn", class: "turn" + (n > 1 ? " hot" : ""), title: n > 1 ? null : "t" }, "Turn " + n),
  h("ol", { class: "strips" }, order.map((k) => h("li", { id: "seat-" + k }, "Seat " + k))),
  h("details", { class: "old" }, h("summary", {}, "Round 1")),
  h("button", { type: "button", onclick: () => said.push(n) }, "Go"),
  extra ? h("span", { class: "extra" }, "new") : null,
];
sync(root, draw(1, [0, 1, 2], true));
const [turn, list, details, button] = root.childNodes;
const seat2 = list.childNodes[2];
details.setAttribute("open", "");
sync(root, draw(2, [2, 0, 1], false));
cases.push([root.childNodes.length, 4]);
cases.push([root.childNodes[0] === turn, true]);
cases.push([turn.textContent, "Turn 2"]);
cases.push([turn.getAttribute("class"), "turn hot"]);
cases.push([turn.getAttribute("title"), null]);
cases.push([root.childNodes[1] === list, true]);
cases.push([list.childNodes[0] === seat2, true]);
cases.push([list.childNodes.map((c) => c.getAttribute("id")).join(), "seat-2,seat-0,seat-1"]);
cases.push([root.childNodes[2] === details && details.getAttribute("open"), ""]);
cases.push([root.childNodes[3] === button, true]);
button.click();
cases.push([said.join(), "2"]);
sync(root, h("p", {}, "gone"));
cases.push([root.childNodes.length === 1 && root.textContent, "gone"]);

// A stand-in (__keep) leaves its live twin as it is; a list that says its
// first children stand (__keepFirst) gets only its new ones.
const box = document.createElement("div");
sync(box, h("div", { id: "deck" }, "20 cards"), h("ol", { id: "log" }, h("li", {}, "a"), h("li", {}, "b")));
const [deck, log] = box.childNodes;
const first = log.childNodes[0];
const stand = h("div", { id: "deck" });
stand.__keep = true;
const more = h("ol", { id: "log" }, h("li", {}, "c"));
more.__keepFirst = 2;
sync(box, stand, more);
cases.push([box.childNodes[0] === deck && deck.textContent, "20 cards"]);
// A style set by other code (placing the docked chat) stays.
log.setAttribute("style", "padding-bottom: 8px");
const again = h("ol", { id: "log" }, h("li", {}, "d"));
again.__keepFirst = 3;
sync(box, h("div", { id: "deck" }, "20 cards"), again);
cases.push([log.getAttribute("style"), "padding-bottom: 8px"]);
cases.push([box.childNodes[1] === log && log.childNodes[0] === first && log.textContent.startsWith("a b c"), true]);
`

func TestSyncKeepsWhatStays(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	runCases(t, "dom.js sync", syncCheck)
}

// TestOnePoint: a player with one point, or minus one, has "1 pt", not
// "1 pts".
func TestOnePoint(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	runCases(t, "points", `import "./fakedom.mjs";
import { points } from "./words.mjs";
const t = (k, a) => ({ "web.seat.points": "{n} pts", "web.seat.points.one": "{n} pt" })[k].replace("{n}", a.n);
const cases = [[points(t, 1), "1 pt"], [points(t, -1), "\u22121 pt"], [points(t, 0), "0 pts"], [points(t, 12), "12 pts"], [points(t, -7), "\u22127 pts"]];
`)
}

// TestSyncHidesFocusedPart: a part holding the reader's focus that a
// redraw takes out is hidden instead (taking it out would make the
// browser lay the page out in the middle of the redraw), passed by as if
// gone by the redraws that follow, and taken out before the next frame.
func TestSyncHidesFocusedPart(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	runCases(t, "dom.js sync of a focused part", `import "./fakedom.mjs";
import { h, sync, isLeaving, dropLeaving } from "./dom.mjs";
const cases = [];
Node.prototype.contains = function (n) { for (; n; n = n.parent) if (n === this) return true; return false; };
Node.prototype.querySelectorAll = function (sel) { return sel === "[id]" ? this.find((n) => n !== this && n.attrs && "id" in n.attrs) : []; };
const frames = [];
globalThis.requestAnimationFrame = (f) => frames.push(f);
document.body = document.createElement("body");
const root = document.createElement("div");
const draw = (decide, turn) => [h("p", { id: "turn" }, turn), decide ? h("section", { id: "decide" }, h("button", { id: "pass" }, "Pass")) : null, h("p", { id: "log" }, "log")];
sync(root, draw(true, "Ann"));
const [, decide] = root.childNodes;
decide.style = {};
const button = decide.childNodes[0];
document.activeElement = button;
sync(root, draw(false, "Bob"));
cases.push([root.childNodes.length, 3]);
cases.push([root.childNodes[1] === decide && decide.style.display, "none"]);
cases.push([isLeaving(button), true]);
cases.push([root.textContent.startsWith("Bob"), true]);
// Nothing finds it by its ids any more.
cases.push([decide.getAttribute("id") === null && button.getAttribute("id") === null, true]);
// A redraw before the frame builds the part anew beside the hidden one.
sync(root, draw(true, "Cid"));
cases.push([root.childNodes.length, 4]);
const fresh = root.childNodes.find((c) => c.getAttribute("id") === "decide" && c !== decide);
cases.push([!!fresh && !fresh.style, true]);
cases.push([root.childNodes[0].textContent + "," + root.childNodes[root.childNodes.length - 1].textContent, "Cid,log"]);
cases.push([frames.length, 1]);
frames.forEach((f) => f());
cases.push([root.childNodes.includes(decide) || decide.parentNode !== null, false]);
cases.push([root.childNodes.length, 3]);
// Without the focus a part goes at once.
document.activeElement = document.body;
sync(root, draw(false, "Dan"));
cases.push([root.childNodes.length, 2]);
dropLeaving();
cases.push([frames.length, 1]);
// So does a focused one in a hidden page, which draws no frames.
sync(root, draw(true, "Eve"));
document.activeElement = root.childNodes[1].childNodes[0];
document.visibilityState = "hidden";
sync(root, draw(false, "Fay"));
cases.push([root.childNodes.length, 2]);
cases.push([frames.length, 1]);
`)
}

// TestSyncPassesGuests: an element another module placed among a drawn
// part's children (the replay's analysis under the board) stays through a
// redraw, with its ids, focused or not.
func TestSyncPassesGuests(t *testing.T) {
	t.Parallel()
	runCases(t, "dom.js sync passing a guest", `import "./fakedom.mjs";
import { h, sync, guest } from "./dom.mjs";
const cases = [];
Node.prototype.contains = function (n) { for (; n; n = n.parent) if (n === this) return true; return false; };
Node.prototype.querySelectorAll = function (sel) { return sel === "[id]" ? this.find((n) => n !== this && n.attrs && "id" in n.attrs) : []; };
globalThis.requestAnimationFrame = () => {};
document.body = document.createElement("body");
const root = document.createElement("div");
sync(root, h("p", { id: "board" }, "1"));
const box = h("section", { id: "analysis" }, h("button", { id: "next" }, "Next"));
box.style = {};
root.appendChild(guest(box));
document.activeElement = box.childNodes[0];
sync(root, h("p", { id: "board" }, "2"), h("p", { id: "log" }, "log"));
cases.push([root.childNodes.includes(box), true]);
cases.push([box.getAttribute("id") + "," + box.childNodes[0].getAttribute("id"), "analysis,next"]);
cases.push([!box.style.display, true]);
document.activeElement = document.body;
sync(root, h("p", { id: "board" }, "3"));
cases.push([root.childNodes.includes(box), true]);
cases.push([root.childNodes.filter((c) => c !== box).map((c) => c.textContent).join(","), "3"]);
`)
}
