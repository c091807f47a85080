// tourlist.js: tournaments in lists: the lobby's coming and running ones,
// the tournaments page's lists, and a player's tournaments on a profile.

import { h, replace } from "./dom.js";
import * as api from "./api.js";
import { errorText } from "./errors.js";

/** tourURL is a tournament's page. */
export const tourURL = (id) => `/t/${encodeURIComponent(id)}`;

/** when prints an ISO time as a short date and time in the page's language. */
export function when(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return "";
  return d.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** metaText says what kind of tournament s is: "Swiss · tables of 4 · 5 rounds · rapid · rated". */
export function metaText(t, s, paceName) {
  const parts = [t(`tour.format.${s.format}`), t("tour.meta.size", { n: s.tableSize })];
  if (s.format === "arena") parts.push(t("tour.meta.minutes", { n: s.minutes }));
  else parts.push(s.rounds === 1 ? t("tour.meta.rounds.one") : t("tour.meta.rounds", { n: s.rounds }));
  parts.push(paceName ? paceName(s.pace) : s.pace);
  parts.push(t(s.rated ? "tour.meta.rated" : "tour.meta.casual"));
  if (s.private) parts.push(t("tour.meta.private"));
  return parts.join(" · ");
}

/** summaryItem is one tournament of a list. */
export function summaryItem(t, s) {
  const start = s.start ? t(s.status === "waiting" ? "tour.starts.at" : "tour.started.at", { when: when(s.start) })
    : t("tour.starts.word");
  return h("li", { class: "tour-item" },
    h("a", { href: tourURL(s.id), class: "tour-link" }, s.name),
    h("span", { class: "tour-detail muted" }, metaText(t, s)),
    h("span", { class: "tour-detail muted" },
      [start, t("tour.meta.players", { n: s.players, max: s.maxPlayers }), s.organiser ? t("tour.meta.organiser", { name: s.organiser }) : ""]
        .filter(Boolean).join(" · ")));
}

/** drawList fills the list el with the tournaments, or says there are none. */
export function drawList(t, el, list) {
  if (list instanceof Error) replace(el, h("li", { class: "notice notice-error" }, errorText(t, list)));
  else if (!list || list.length === 0) replace(el, h("li", { class: "muted none" }, t("tour.list.none")));
  else replace(el, list.map((s) => summaryItem(t, s)));
}

/**
 * lobbyTournaments keeps the lobby's list of the tournaments coming and
 * running (#tours-coming, #tours-running) fresh; draw(t) redraws it in
 * another language.
 */
export function lobbyTournaments(coming, running) {
  let t = null;
  let lists = null;
  const draw = (tr) => {
    if (tr) t = tr;
    if (!t || !lists) return;
    drawList(t, coming, lists instanceof Error ? lists : lists.coming.slice(0, 5));
    drawList(t, running, lists instanceof Error ? lists : lists.running.slice(0, 5));
  };
  const load = async () => {
    try {
      lists = await api.request("GET", "/api/tournaments");
    } catch (err) {
      lists = err;
    }
    draw();
  };
  load();
  setInterval(() => {
    if (document.visibilityState === "visible") load();
  }, 30000);
  return { draw };
}

/** placeText is a placing on a profile: "2nd of 12" as the catalogue says it, or the status. */
function placeText(t, e) {
  if (e.status === "finished" && e.rank) return t("tour.profile.place", { rank: e.rank, n: e.players });
  return t(`tour.status.${e.status}`);
}

/**
 * profileTournaments lists the tournaments of the player called name in
 * the list el; draw(t) redraws it in another language.
 */
export function profileTournaments(el, name) {
  let t = null;
  let entries = null;
  const draw = (tr) => {
    if (tr) t = tr;
    if (!t || !entries) return;
    if (entries instanceof Error) replace(el, h("li", { class: "notice notice-error" }, errorText(t, entries)));
    else if (entries.length === 0) replace(el, h("li", { class: "muted none" }, t("tour.profile.none")));
    else replace(el, entries.map((e) => h("li", { class: "tour-item" },
      h("a", { href: tourURL(e.id), class: "tour-link" }, e.name),
      h("span", { class: "tour-detail" }, placeText(t, e)),
      h("span", { class: "tour-detail muted" }, [t(`tour.format.${e.format}`), when(e.start)].join(" · ")))));
  };
  api.request("GET", `/api/players/${encodeURIComponent(name)}/tournaments`)
    .then((r) => { entries = r.tournaments || []; }, (err) => { entries = err; })
    .then(() => draw());
  return { draw };
}
