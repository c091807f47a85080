// endchallenge.js: at a finished game's end (the table and its replay),
// a signed-in reader challenges the game's other signed-in players, one
// or several at once, at the game's pace and kind, or opens the lobby's
// form with them named to choose other settings. The answers come as
// every challenge's do (challenges.js), on whatever page is open.
//
// Hooks: #end-challenge (the box), .end-challenge-who (a checkbox per
// player, value the name), #end-challenge-send, #end-challenge-more (the
// lobby's form), #end-challenge-state (data-state: sent, error).

import { h } from "./dom.js";
import * as meet from "./meet.js";
import { errorText } from "./errors.js";
import { refreshChallenges } from "./challenges.js";

// The box's state by game, kept across the page's redraws.
const boxes = new Map();

function box(id) {
  if (!boxes.has(id)) boxes.set(id, { off: new Set(), busy: false, sent: null, error: null, redraw: null });
  return boxes.get(id);
}

/** others are the game's signed-in players but the reader, once each. */
export function others(game, me) {
  const seen = new Set([me.name.toLowerCase()]);
  const out = [];
  for (const s of game.seats || []) {
    if (!s.account || !s.name || seen.has(s.name.toLowerCase())) continue;
    seen.add(s.name.toLowerCase());
    out.push(s.name);
  }
  return out;
}

// paceOf is the game's pace's id: a game without one is untimed.
const paceOf = (game) => (game.pace && game.pace.id) || "untimed";

async function send(b, game, names) {
  b.busy = true;
  b.error = null;
  b.redraw();
  try {
    await meet.challenge(names, paceOf(game), !!game.rated);
    b.sent = names;
    refreshChallenges();
  } catch (err) {
    b.error = err;
  } finally {
    b.busy = false;
    b.redraw();
  }
}

/**
 * challengeBox is the game-end part that challenges the game's players:
 * o.challenge is {me: the signed-in account or null, redraw()}. It is
 * null for a guest, a game not finished, or one with nobody to challenge.
 */
export function challengeBox({ t, game, o }) {
  const c = o && o.challenge;
  if (!c || !c.me || !game || (game.status !== "finished" && game.status !== "archived")) return null;
  const names = others(game, c.me);
  if (names.length === 0) return null;
  const b = box(game.id);
  b.redraw = c.redraw;
  const chosen = names.filter((n) => !b.off.has(n));
  const toggle = (name, on) => {
    if (on) b.off.delete(name);
    else b.off.add(name);
    b.sent = null;
    b.redraw();
  };
  const pace = paceOf(game);
  const settings = [t.has && t.has(`pace.${pace}`) ? t(`pace.${pace}`) : (game.pace && game.pace.name) || pace,
    t(game.rated ? "web.profile.rated" : "web.profile.casual")].join(" · ");
  let state = null;
  if (b.error) {
    state = h("p", { class: "notice notice-error", id: "end-challenge-state", "data-state": "error", role: "alert" }, errorText(t, b.error));
  } else if (b.sent) {
    state = h("p", { class: "end-challenge-sent", id: "end-challenge-state", "data-state": "sent", role: "status" },
      t("web.endchallenge.sent", { names: b.sent.join(", ") }));
  }
  const more = `/?${new URLSearchParams({ "challenge-to": chosen.join(", "), "challenge-pace": pace, ...(game.rated ? { "challenge-rated": "1" } : {}) })}#challenge`;
  return h("fieldset", { class: "end-challenge", id: "end-challenge" },
    h("legend", {}, t("web.endchallenge.title")),
    h("ul", { class: "end-challenge-people" }, names.map((name) => h("li", {},
      h("label", { class: "chip end-challenge-chip" },
        h("input", { type: "checkbox", class: "end-challenge-who", value: name, checked: !b.off.has(name), disabled: b.busy,
          onchange: (ev) => toggle(name, ev.target.checked) }),
        " ", name)))),
    h("p", { class: "end-challenge-settings muted" }, settings),
    h("div", { class: "end-challenge-actions" },
      h("button", { type: "button", class: "button primary", id: "end-challenge-send", disabled: b.busy || chosen.length === 0 || !!b.sent,
        onclick: () => send(b, game, chosen) },
      t(chosen.length > 1 ? "web.endchallenge.send.more" : "web.endchallenge.send", { n: chosen.length })),
      chosen.length ? h("a", { class: "button", id: "end-challenge-more", href: more }, t("web.endchallenge.more")) : null),
    state);
}
