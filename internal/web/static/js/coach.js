// coach.js: draws the guided first game's bubble on the table page. The
// script (tutorial.js) says which step to show; the coach highlights the
// element the step is about and places the bubble inside the viewport,
// beside that element and clear of the buttons the learner must press, on
// a phone as on a desktop, again whenever the window is resized, rotated
// or scrolled. What the learner has read survives a reload (localStorage).

import { h, replace } from "./dom.js";
import { guide, next, close, practise, newMemory, LAST } from "./tutorial.js";
import { moveLabel, list } from "./words.js";

const GAP = 10; // between the bubble and what it points at
const EDGE = 8; // between the bubble and the viewport's edge
const WIDTHS = [352, 300, 260, 224, 192, 176]; // the bubble's widths, tried in turn
// What the bubble had better not cover either, though it may: the page's
// tools and the parts of the table a decision looks at.
const SOFT = [".top-tools", "#seats .strip", "#police", "#row", "#centre", "#piles", "#auction", "#moves", "#round-end .overlay-box", "#game-end"];

/** Coach guides the learner at seat through game id on the table page. */
export class Coach {
  constructor(id, seat) {
    this.key = `razzia.tutorial.${id}`;
    this.seat = seat;
    this.mem = load(this.key);
    this.last = null; // the step shown, to scroll to a new one once
    this.t = (k) => k;
    this.shown = null;
    this.el = h("section", { id: "coach", class: "coach", "aria-labelledby": "coach-h", hidden: true });
    document.body.appendChild(this.el);
    const place = () => this.place();
    addEventListener("resize", place);
    addEventListener("orientationchange", place);
    addEventListener("scroll", place, { passive: true });
    if (window.visualViewport) visualViewport.addEventListener("resize", place);
    // The table redraws parts of itself (a thief's card picked): point
    // again and make room for the buttons that came.
    let queued = false;
    new MutationObserver(() => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        this.point();
        this.place();
      });
    }).observe(document.getElementById("table"), { childList: true, subtree: true });
  }

  /** update shows the step for the view and events (after each redraw of the table). */
  update(view, events, t, names) {
    this.t = t;
    this.names = names || [];
    this.shown = guide(this.mem, view, events, this.seat);
    save(this.key, this.mem);
    this.draw();
  }

  draw() {
    const t = this.t;
    const g = this.shown;
    if (!g) {
      document.documentElement.classList.remove("coach-room");
      this.point();
      this.el.hidden = true;
      return;
    }
    const args = { ...g.args, player: this.names[g.args.seat] || "" };
    const buttons = [];
    if (g.id === LAST) {
      buttons.push(h("a", { class: "button primary", id: "coach-real", href: "/#new-h" }, t("web.tutorial.real")));
    }
    if (g.info) {
      buttons.push(h("button", { type: "button", class: g.id === LAST ? "" : "primary", id: "coach-next", onclick: () => this.next() },
        t(g.id === LAST ? "web.tutorial.done" : "web.tutorial.next")));
    }
    if (g.id !== LAST) {
      buttons.push(h("button", { type: "button", class: "small", id: "coach-close", onclick: () => this.close() }, t("web.tutorial.close")));
    }
    const note = g.note
      ? h("p", { class: "coach-note", id: "coach-note" }, t("web.tutorial.offscript", {
        did: moveLabel(t, g.note.did), asked: list(t, g.note.asked.map((m) => moveLabel(t, m))),
      }))
      : null;
    const advice = g.advice
      ? h("p", { class: "coach-advice", id: "coach-advice" }, t(`web.tutorial.advice.${g.advice.key}`, adviceArgs(t, g.advice.args)))
      : null;
    const learned = g.id === LAST
      ? h("ul", { class: "coach-learned", id: "coach-learned" }, g.learned.map((id) => h("li", {}, t(`web.tutorial.${id}.title`, args))))
      : null;
    const kicker = t("web.tutorial.learned", { n: g.progress.n, total: g.progress.total });
    replace(this.el,
      h("p", { class: "coach-kicker", id: "coach-progress" }, kicker),
      h("h2", { id: "coach-h" }, t(`web.tutorial.${g.id}.title`, args)),
      note,
      h("div", { class: "coach-text", id: "coach-text", "aria-live": "polite" },
        g.again || (g.scene && g.scene.tried) ? null : h("p", {}, t(g.text, args)), learned, g.scene ? scene(t, g.scene, advice, (tok) => this.practise(tok)) : advice),
      buttons.length ? h("p", { class: "coach-actions" }, buttons) : null);
    this.el.hidden = false;
    this.el.setAttribute("data-step", g.id);
    this.el.setAttribute("data-want", g.want.join("|"));
    this.el.setAttribute("data-scene", g.scene ? g.scene.want : "");
    this.el.setAttribute("data-progress", `${g.progress.n}/${g.progress.total}`);
    const target = this.point();
    if (target) {
      if (this.last !== g.id && target.scrollIntoView) {
        // A new step brings its element into view, once: the learner may scroll away.
        const r = target.getBoundingClientRect();
        if (r.top < 0 || r.bottom > innerHeight) target.scrollIntoView({ block: "nearest" });
      }
    }
    this.last = g.id;
    this.place();
  }

  /** point highlights the step's element, and only it, and returns it. */
  point() {
    const target = this.target();
    document.querySelectorAll(".coach-target").forEach((el) => el !== target && el.classList.remove("coach-target"));
    if (target && !target.classList.contains("coach-target")) target.classList.add("coach-target");
    return target;
  }

  /** target is the element the step is about: the first of its selectors that is on the page. */
  target() {
    for (const sel of (this.shown && this.shown.target) || []) {
      const el = document.querySelector(sel);
      if (el) return el;
    }
    return null;
  }

  /** avoid returns the rectangles the bubble must not cover: the target and the needed controls. */
  avoid() {
    const out = [];
    const target = this.target();
    // A set-up scene is in the bubble: the bubble goes where it has room.
    if (target && !this.el.contains(target)) out.push(target.getBoundingClientRect());
    for (const sel of (this.shown && this.shown.need) || []) {
      document.querySelectorAll(sel).forEach((el) => out.push(el.getBoundingClientRect()));
    }
    return out.filter((r) => r.width > 0 && r.height > 0);
  }

  /**
   * place puts the bubble inside the viewport, clear of avoid() if there is
   * room anywhere: at its widest where that fits, narrower (and taller)
   * where only that fits, as beside the table of a phone on its side.
   */
  place() {
    if (this.el.hidden) return;
    const vw = document.documentElement.clientWidth;
    const vh = innerHeight;
    const el = this.el;
    el.style.maxHeight = `${vh - 2 * EDGE}px`;
    const fit = () => {
      const avoid = this.avoid();
      const soft = [];
      for (const e of document.querySelectorAll(SOFT.join(","))) {
        const r = e.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) soft.push(r);
      }
      let best = null;
      for (const width of WIDTHS) {
        const w = Math.min(width, vw - 2 * EDGE);
        el.style.width = `${w}px`;
        const spot = this.spot(vw, vh, el.offsetWidth, el.offsetHeight, avoid, soft);
        if (!best || spot.hard < best.hard) best = { ...spot, w };
        if (best.hard === 0 || w < width) break;
      }
      return best;
    };
    // A round's end fills a short window: where the bubble finds no room
    // beside what it explains, the overlay makes room for it (tutorial.css).
    const html = document.documentElement.classList;
    html.remove("coach-room");
    let best = fit();
    if (best.hard > 0 && document.querySelector("#round-end[aria-modal]")) {
      html.add("coach-room");
      const roomy = fit();
      if (roomy.hard < best.hard) best = roomy;
      else html.remove("coach-room");
    }
    el.style.width = `${best.w}px`;
    el.style.left = `${best.x}px`;
    el.style.top = `${best.y}px`;
  }

  // spot finds the best place for a bubble of bw×bh: the least of the
  // target and the needed controls covered (hard), then of the table's
  // decision parts, then the nearest to the target.
  spot(vw, vh, bw, bh, avoid, soft) {
    const target = avoid[0];
    const clampX = (x) => Math.max(EDGE, Math.min(x, vw - bw - EDGE));
    const clampY = (y) => Math.max(EDGE, Math.min(y, vh - bh - EDGE));
    const cands = [];
    if (target) {
      const cx = clampX(target.left + target.width / 2 - bw / 2);
      const cy = clampY(target.top + target.height / 2 - bh / 2);
      cands.push([cx, target.bottom + GAP], [cx, target.top - GAP - bh], [target.right + GAP, cy], [target.left - GAP - bw, cy]);
    }
    // Then anywhere: a scan of the viewport, edges and middle.
    for (let y = EDGE; y <= vh - bh - EDGE; y += 12) {
      for (const x of [EDGE, (vw - bw) / 2, vw - bw - EDGE]) cands.push([x, y]);
    }
    cands.push([(vw - bw) / 2, vh - bh - EDGE]);
    let best = { x: clampX(EDGE), y: clampY(EDGE), hard: Infinity, cost: Infinity };
    for (const [x0, y0] of cands) {
      const x = Math.round(x0);
      const y = Math.round(y0);
      const inside = x >= EDGE - 0.5 && y >= EDGE - 0.5 && x + bw <= vw - EDGE + 0.5 && y + bh <= vh - EDGE + 0.5;
      if (!inside) continue;
      let hard = 0;
      for (const r of avoid) hard += overlap(x, y, bw, bh, r);
      let cost = 0;
      for (const r of soft) cost += overlap(x, y, bw, bh, r);
      if (target) cost += Math.hypot(x + bw / 2 - (target.left + target.width / 2), y + bh / 2 - (target.top + target.height / 2)) / 1000;
      if (hard < best.hard || (hard === best.hard && cost < best.cost)) best = { x, y, hard, cost };
    }
    return best;
  }

  next() {
    next(this.mem);
    save(this.key, this.mem);
    this.refresh();
  }

  /** practise makes the move tok in the set-up scene shown. */
  practise(tok) {
    practise(this.mem, tok);
    save(this.key, this.mem);
    this.refresh();
  }

  close() {
    close(this.mem);
    save(this.key, this.mem);
    this.refresh();
  }

  /** refresh asks the page to redraw (it calls update with the current view). */
  refresh() {
    if (this.onRefresh) this.onRefresh();
  }
}

// overlap returns the area the box x, y, w, h shares with the rectangle r
// (grown by a few pixels, so the bubble does not touch it either).
function overlap(x, y, w, h, r) {
  const m = 4;
  const dx = Math.min(x + w, r.right + m) - Math.max(x, r.left - m);
  const dy = Math.min(y + h, r.bottom + m) - Math.max(y, r.top - m);
  return dx > 0 && dy > 0 ? dx * dy : 0;
}

// scene draws a set-up scene (tutorial.js SCENES): the position in words
// and its moves as buttons, which act makes; after a move other than the
// one the lesson teaches, what was tried and the advice, above the
// buttons (the lesson's text, read already, gives way to them on a phone).
function scene(t, sc, advice, act) {
  const fact = (key, value) => [h("dt", {}, t(`web.tutorial.scene.${key}`)), h("dd", {}, value)];
  return h("div", { class: "coach-scene", id: "coach-scene" },
    h("p", { class: "coach-try" }, t(`web.tutorial.${sc.id}.try`)),
    h("dl", {},
      fact("row", list(t, sc.row.map((k) => t(`card.${k}`)))),
      fact("cheques", sc.cheques.join(", ")),
      fact("centre", String(sc.centre)),
      sc.high === undefined ? null : fact("high", sc.high ? String(sc.high) : t("web.tutorial.scene.nobid")),
      sc.thief ? fact("thief", t("card.thief.a")) : null),
    sc.tried ? h("p", { class: "coach-note", id: "coach-scene-note" }, t("web.tutorial.scene.wrong", { did: moveLabel(t, sc.tried) })) : null,
    advice,
    h("p", { class: "coach-scene-moves" }, sc.moves.map((tok) =>
      h("button", { type: "button", "data-scene-move": tok, onclick: () => act(tok) }, moveLabel(t, tok)))));
}

// adviceArgs names the card an advice is about in the language.
function adviceArgs(t, a) {
  return a.card ? { ...a, card: t(`card.${a.card}`) } : a;
}

function load(key) {
  try {
    const m = JSON.parse(localStorage.getItem(key) || "null");
    if (m && Array.isArray(m.done)) return { ...newMemory(), ...m, shown: null };
  } catch {
    // storage disabled or damaged: start over
  }
  return newMemory();
}

function save(key, mem) {
  try {
    localStorage.setItem(key, JSON.stringify({ ...mem, shown: mem.shown && { id: mem.shown.id, info: mem.shown.info, want: mem.shown.want } }));
  } catch {
    // storage disabled: the guide still works for this visit
  }
}
