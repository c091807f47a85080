// online.js: the lobby's "Online now" panel (#online-panel): the people
// online with what they are doing (a link to watch their table), their
// rating and finish rate, those the reader follows first, and the counts
// of people online and games in play. The list comes over the live socket
// (live.js) as the server sends it.

import { h, replace } from "./dom.js";
import { onOnline } from "./live.js";
import { ratingFigure } from "./players.js";

let getT = () => (k) => k; // the keys until the page gives its translator
let last = null;
// actions are what other modules add to each person's line (a challenge).
const actions = [];

/**
 * addPersonAction adds fn's element to each person's line of the list:
 * fn(t, person) returns an element, or null for none (the reader's own
 * line, a guest). The list is drawn again with it.
 */
export function addPersonAction(fn) {
  actions.push(fn);
  drawOnline();
}

/** setupOnline fills the panel from the live socket; t() gives the page's translator. */
export function setupOnline(t) {
  getT = t;
  onOnline((msg) => {
    last = msg;
    drawOnline();
  });
}

/** finishText is a finish rate as shown: "97 %", or "new" before any game counted. */
export function finishText(t, f) {
  return f.games === 0 ? t("social.finish.new") : t("social.finish", { percent: f.percent });
}

/** finishTitle explains a finish rate. */
export function finishTitle(t, f) {
  return f.games === 0 ? t("social.finish.none")
    : t("social.finish.title", { percent: f.percent, games: f.games, left: f.left });
}

// doing says what a person is doing, with a link to watch their table.
function doing(t, p) {
  const what = h("span", { class: "person-doing" }, t(`social.activity.${p.activity}`));
  if (p.activity === "lobby" || !p.game) return what;
  return [what, h("a", { class: "person-watch", href: `/g/${encodeURIComponent(p.game)}`,
    "aria-label": t("social.watch.who", { name: p.name }) }, t("social.watch"))];
}

function person(t, p) {
  const dot = `presence-dot dot-${p.away ? "away" : p.activity}`;
  const name = p.profile ? h("a", { class: "person-name", href: p.profile }, p.name) : h("span", { class: "person-name" }, p.name);
  return h("li", { class: `person${p.followed ? " person-followed" : ""}`, "data-name": p.name, "data-activity": p.activity },
    h("span", { class: dot, title: t(p.away ? "social.away" : `social.activity.${p.activity}`), "aria-hidden": "true" }),
    name,
    p.followed ? h("span", { class: "tag tag-followed", title: t("social.followed") }, "★") : null,
    p.you ? h("span", { class: "tag" }, t("term.you")) : null,
    p.guest ? h("span", { class: "tag tag-guest" }, t("social.guest")) : null,
    p.rating ? h("span", { class: "person-rating", title: t("web.account.rating") }, ratingFigure(p.rating)) : null,
    p.finish && p.finish.games > 0 ? h("span", { class: `person-finish${p.finish.games > 0 && p.finish.percent < 80 ? " is-low" : ""}`, title: finishTitle(t, p.finish) },
      finishText(t, p.finish)) : null,
    p.away ? h("span", { class: "person-away" }, t("social.away")) : null,
    doing(t, p),
    actions.map((fn) => fn(t, p)));
}

/** drawOnline draws the panel from the last list (again after a language switch). */
export function drawOnline() {
  const list = document.getElementById("online-list");
  const counts = document.getElementById("online-counts");
  if (!list || !counts) return;
  const t = getT();
  if (!last) {
    counts.textContent = t("web.lobby.loading");
    return;
  }
  counts.textContent = t("social.online.counts", { people: last.online, games: last.playing });
  const items = last.people.map((p) => person(t, p));
  if (last.more) items.push(h("li", { class: "muted person-more" }, t("social.online.more", { n: last.more })));
  replace(list, items.length ? items : h("li", { class: "muted none" }, t("social.online.none")));
}
