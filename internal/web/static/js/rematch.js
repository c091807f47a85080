// rematch.js: the rematch offered at the end of a game, in the game-end
// actions, and leaving the table while a game is played. Both draw from
// the options renderTable gets; neither knows of connections.
//
// Hooks: #rematch (the box), #rematch-offer, #rematch-accept,
// #rematch-decline, #rematch-go (to the new table), #rematch-state
// (data-state: none, open, started, lapsed); #leave, #leave-confirm,
// #leave-yes, #leave-no.

import { h } from "./dom.js";
import { isTutorial } from "./guided.js";

// when says when an offer expires, in the reader's terms.
function when(iso) {
  const d = new Date(iso);
  const soon = d.getTime() - Date.now() < 20 * 3600 * 1000;
  return d.toLocaleString([], soon ? { hour: "2-digit", minute: "2-digit" } : { weekday: "short", hour: "2-digit", minute: "2-digit" });
}

/**
 * rematchBox is the rematch part of the game-end actions. o.rematch is
 * {offer, onAnswer(accept), busy}: offer is the GameInfo's rematchOffer
 * (or null), onAnswer absent for a spectator. It returns null for a
 * game that cannot have one.
 */
export function rematchBox({ t, seat, names, game, o }) {
  const r = o.rematch;
  if (!r || !game || game.status !== "finished") return null;
  const offer = r.offer || null;
  const state = offer ? offer.state : "none";
  const player = seat >= 0 && typeof r.onAnswer === "function";
  const parts = [];
  const button = (id, cls, accept, label) =>
    h("button", { type: "button", class: `button big ${cls}`, id, disabled: !!r.busy, onclick: () => r.onAnswer(accept) }, label);
  const go = (id, label) => h("a", { class: "button big primary", id: "rematch-go", href: `/g/${encodeURIComponent(id)}` }, label);
  if (!offer) {
    if (!player) return null;
    parts.push(button("rematch-offer", "primary", true, t("web.rematch.offer")));
  } else if (state === "open") {
    const pending = player && offer.answers[seat] === "";
    const left = offer.answers.filter((a) => a === "").length;
    parts.push(h("p", { class: "rematch-text", id: "rematch-state", "data-state": state, role: "status" },
      t("web.rematch.offered", { player: names[offer.by] || "", time: when(offer.expires) }), " ",
      pending ? null : player && offer.answers[seat] === "no" ? t("web.rematch.declined") : t(left === 1 ? "web.rematch.waiting.one" : "web.rematch.waiting", { n: left })));
    if (pending) {
      parts.push(button("rematch-accept", "primary", true, t("web.rematch.accept")),
        button("rematch-decline", "", false, t("web.rematch.decline")));
    }
  } else if (state === "started") {
    const mine = player && offer.answers[seat] === "yes";
    parts.push(h("p", { class: "rematch-text", id: "rematch-state", "data-state": state, role: "status" },
      t(mine ? "web.rematch.starting" : "web.rematch.started")),
    go(offer.game, t(mine ? "web.rematch.go" : "web.rematch.watch")));
  } else {
    parts.push(h("p", { class: "rematch-text", id: "rematch-state", "data-state": state, role: "status" }, t("web.rematch.lapsed")));
  }
  return h("div", { class: "rematch-box", id: "rematch", "data-state": state }, parts);
}

/**
 * leaveBox offers a player of a game being played to leave: a bot plays
 * for them until they take their seat back. o.onLeave sends it; the
 * confirmation is asked in place (mem.leaving), so it survives redraws.
 */
export function leaveBox({ t, seat, game, o, mem }) {
  if (seat < 0 || typeof o.onLeave !== "function" || !game || game.status !== "playing" || isTutorial(game)) return null;
  if (game.seats[seat] && game.seats[seat].standIn) return null; // left already: take the seat back instead
  const redraw = () => mem.redraw();
  if (!mem.leaving) {
    return h("p", { class: "leave-line" },
      h("button", { type: "button", class: "small", id: "leave", onclick: () => { mem.leaving = true; redraw(); } }, t("web.leave")));
  }
  return h("div", { class: "leave-confirm", id: "leave-confirm", role: "alertdialog", "aria-labelledby": "leave-q" },
    h("p", { id: "leave-q" }, t("web.leave.confirm"), game.rated ? " " + t("web.leave.rated") : ""),
    h("button", { type: "button", class: "danger", id: "leave-yes", onclick: () => { mem.leaving = false; o.onLeave(); } }, t("web.leave.yes")),
    " ",
    h("button", { type: "button", id: "leave-no", onclick: () => { mem.leaving = false; redraw(); } }, t("web.leave.no")));
}
