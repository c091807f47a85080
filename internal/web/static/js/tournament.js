// tournament.js: a tournament's page (/t/{id}): what it is, when its next
// round starts, joining and leaving it, the organiser's controls, the
// standings, the rounds' tables to watch and, at the end, the podium. It
// follows the tournament live on its WebSocket (docs/protocol.md,
// "Tournaments").

import { h, replace, $ } from "./dom.js";
import * as api from "./api.js";
import { start } from "./page.js";
import { translator } from "./i18n.js";
import { errorText } from "./errors.js";
import { whoami, showAccount } from "./players.js";
import { metaText, when } from "./tourlist.js";
import { countdown, standingsColumns, cellsOf, statusLine } from "./tourview.js";

const id = decodeURIComponent(location.pathname.split("/")[2] || "");
const base = `/api/tournaments/${encodeURIComponent(id)}`;

let t = translator({}, {});
let tour = null; // the tournament as last sent
let me = null;
let paces = {};
let busy = false;

const paceName = (p) => paces[p] || p;

function showError(err) {
  $("tour-error").textContent = !err ? "" : err.code === "not_found" ? t("tour.notfound") : errorText(t, err);
  $("tour-error").hidden = !err;
}

/** act posts an action and shows the tournament it answers with, or why not. */
async function act(path, body) {
  if (busy) return;
  busy = true;
  showError(null);
  try {
    show(await api.request("POST", `${base}/${path}`, body || {}));
  } catch (err) {
    showError(err);
  } finally {
    busy = false;
    drawYou();
    drawOrganiser();
  }
}

function drawHead() {
  $("tour-head").hidden = false;
  $("tour-name").textContent = tour.name;
  // A tab in the background says when the person's table is ready.
  document.title = `${tour.you && tour.you.game ? "● " : ""}Razzia! — ${tour.name}`;
  $("tour-meta").textContent = [metaText(t, tour, paceName), t("tour.meta.players", { n: tour.players, max: tour.maxPlayers }),
    tour.organiser ? t("tour.meta.organiser", { name: tour.organiser }) : ""].filter(Boolean).join(" · ");
  $("tour-about").textContent = t(`tour.format.${tour.format}.about`);
  drawClock();
}

/** drawClock writes the status line and its countdown (every second). */
function drawClock() {
  if (!tour) return;
  $("tour-status").textContent = statusLine(t, tour, when);
  $("tour-countdown").textContent = countdown(t, tour, Date.now());
}

function button(label, onclick, cls) {
  return h("button", { type: "button", class: cls || null, disabled: busy, onclick }, label);
}

function drawYou() {
  const el = $("tour-you");
  if (!tour) return;
  const you = tour.you;
  const live = tour.status === "waiting" || tour.status === "running";
  const items = [];
  if (!live) {
    replace(el);
    return;
  }
  // A password being typed survives the redraws of a live page.
  const old = document.getElementById("tour-password");
  const typing = old && document.activeElement === old;
  let password = null;
  if (!you) {
    items.push(h("p", {}, h("a", { href: `/account?back=${encodeURIComponent(location.pathname)}` }, t("web.nav.signin")), " ",
      t("tour.signin")));
  } else if (!you.joined || you.status === "withdrawn") {
    const canJoin = tour.status === "waiting" || tour.format === "arena";
    if (canJoin) {
      if (tour.private) {
        password = h("input", { id: "tour-password", type: "password", autocomplete: "off", required: true, maxlength: 200 });
        if (old) password.value = old.value;
      }
      const form = h("form", { class: "tour-join", onsubmit: (ev) => {
        ev.preventDefault();
        act("join", password ? { password: password.value } : {});
      } },
      password ? h("div", { class: "field" }, h("label", { for: "tour-password" }, t("tour.password")), password) : null,
      h("button", { type: "submit", class: "primary", disabled: busy }, t("tour.join")));
      items.push(form);
    } else {
      items.push(h("p", { class: "muted" }, t("tour.started.closed")));
    }
  } else {
    items.push(h("p", {}, t(`tour.you.${you.status}`)));
    if (you.game) {
      items.push(h("p", {}, h("a", { class: "button primary tour-play", href: `/g/${encodeURIComponent(you.game)}` }, t("tour.yourtable"))));
    }
    const row = [];
    if (you.status === "in" && tour.status === "running") row.push(button(t("tour.pause"), () => act("pause")));
    if (you.status === "paused") row.push(button(t("tour.resume"), () => act("resume"), "primary"));
    if (you.status !== "removed") row.push(button(t("tour.withdraw"), () => act("withdraw")));
    items.push(h("div", { class: "tour-actions" }, row));
  }
  replace(el, items);
  if (password && typing) password.focus();
}

function drawOrganiser() {
  const panel = $("tour-organise");
  const live = tour && (tour.status === "waiting" || tour.status === "running");
  panel.hidden = !tour || !tour.organising || !live;
  if (panel.hidden) return;
  const row = [];
  if (tour.status === "waiting") row.push(button(t("tour.org.start"), () => act("organise/start"), "primary"));
  if (tour.status === "running") {
    row.push(tour.paused ? button(t("tour.org.resume"), () => act("organise/resume"), "primary")
      : button(t("tour.org.pause"), () => act("organise/pause")));
  }
  row.push(button(t(tour.status === "waiting" ? "tour.org.cancel" : "tour.org.end"), () => {
    if (confirm(t(tour.status === "waiting" ? "tour.org.cancel.confirm" : "tour.org.end.confirm"))) act("organise/end");
  }));
  const people = tour.people.filter((p) => p.status !== "removed");
  // The person chosen stays chosen as the tournament changes under it.
  const was = document.getElementById("org-remove");
  const chosen = was ? was.value : "";
  const select = h("select", { id: "org-remove" }, people.map((p) => h("option", { value: p.name }, p.name)));
  if (people.some((p) => p.name === chosen)) select.value = chosen;
  const remove = people.length === 0 ? null : h("form", { class: "field tour-remove", onsubmit: (ev) => {
    ev.preventDefault();
    const name = ev.target.querySelector("select").value;
    if (name && confirm(t("tour.org.remove.confirm", { name }))) act("organise/remove", { name });
  } },
  h("label", { for: "org-remove" }, t("tour.org.remove.label")),
  select,
  h("button", { type: "submit", disabled: busy }, t("tour.org.remove")));
  replace($("org-actions"), h("div", { class: "tour-actions" }, row), remove);
}

function drawPodium() {
  const show = tour.status === "finished" && tour.standings.length > 0;
  $("tour-podium").hidden = !show;
  if (!show) return;
  const cols = standingsColumns(tour.format);
  replace($("podium"), tour.standings.filter((l) => l.rank <= 3).map((l) =>
    h("li", { class: `podium-${l.rank}` },
      h("span", { class: "podium-rank", title: t("tour.place", { rank: l.rank }) }, l.rank),
      h("a", { class: "podium-name", href: `/p/${encodeURIComponent(l.name)}` }, l.name),
      h("span", { class: "podium-score muted" }, `${t(`tour.col.${cols[0]}`)}: ${cellsOf(t, cols, l)[0]}`))));
}

function drawStandings() {
  const lines = tour.standings;
  $("tour-standings").hidden = lines.length === 0 && tour.status === "waiting";
  const cols = standingsColumns(tour.format);
  replace($("standings-head"), h("th", { scope: "col" }, t("tour.col.rank")), h("th", { scope: "col" }, t("tour.col.player")),
    cols.map((c) => h("th", { scope: "col" }, t(`tour.col.${c}`))));
  $("download-csv").href = `${base}/results.csv`;
  $("download-json").href = `${base}/results.json`;
  if (lines.length === 0) {
    replace($("standings"), h("tr", {}, h("td", { colspan: cols.length + 2, class: "muted" }, t("tour.standings.none"))));
    return;
  }
  const you = me && me.name;
  replace($("standings"), lines.map((l) => h("tr", { class: l.name === you ? "is-you" : null },
    h("td", {}, l.rank),
    h("th", { scope: "row" }, h("a", { href: `/p/${encodeURIComponent(l.name)}` }, l.name),
      l.fire ? h("span", { class: "tour-fire", title: t("tour.fire") }, "×2", h("span", { class: "visually-hidden" }, ` ${t("tour.fire")}`)) : null,
      l.status === "paused" || l.status === "withdrawn" ? h("span", { class: "muted" }, ` (${t(`tour.person.${l.status}`)})`) : null),
    cellsOf(t, cols, l).map((c) => h("td", {}, c)))));
}

function seatItem(s) {
  const name = s.bot ? t("tour.seat.bot") : s.name;
  const result = s.total !== undefined ? h("span", { class: "seat-result muted" },
    ` ${s.total}${s.points !== undefined ? ` · ${t("tour.seat.points", { n: s.points })}` : ""}`) : null;
  return h("li", { class: `chip${s.bot ? " chip-open" : ""}${s.forfeited ? " chip-forfeit" : ""}`, title: s.forfeited ? t("tour.seat.forfeit") : null },
    name, result);
}

function tableItem(round, tb) {
  // A duplicate round's tables open together, once all are over.
  const hidden = tour.format === "duplicate" && round.tables.some((x) => !x.over);
  let link;
  if (!tb.ready) link = h("span", { class: "muted" }, t("tour.table.setting"));
  else if (tour.you && tour.you.game === tb.game) link = h("a", { class: "button primary small", href: `/g/${encodeURIComponent(tb.game)}` }, t("tour.table.play"));
  else if (hidden) link = h("span", { class: "muted" }, t("tour.table.hidden"));
  else link = h("a", { href: `/g/${encodeURIComponent(tb.game)}`, class: "small" }, t(tb.over ? "tour.table.replay" : "tour.table.watch"));
  return h("li", { class: `tour-table${tb.over ? " is-over" : ""}` },
    h("span", { class: "tour-table-n" }, t("tour.table.n", { n: tb.index })),
    h("ul", { class: "chips" }, tb.seats.map(seatItem)),
    link);
}

function dealItem(d) {
  return h("details", { class: "tour-deal" },
    h("summary", {}, `${t("tour.deal.title")} · ${t("tour.meta.size", { n: d.players })}`),
    h("p", {}, t("tour.deal.cheques")),
    h("ul", { class: "tour-cheques" }, d.cheques.map((set, i) => h("li", {}, t("tour.deal.seat", { n: i + 1 }), ": ", set.join(", ")))),
    h("p", {}, t("tour.deal.cards")),
    h("p", { class: "tour-cards" }, d.cards.map((c) => t(`card.${c}`)).join(" · ")));
}

// ARENA_SHOWN is how many of an arena's tables show at once, the latest
// first; the earlier ones fold away.
const ARENA_SHOWN = 30;

function drawRounds() {
  const rounds = tour.played.slice().reverse();
  $("tour-rounds").hidden = rounds.length === 0;
  replace($("rounds"), rounds.map((r) => {
    const title = r.number ? t("tour.round.n", { n: r.number }) : t("tour.arena.tables");
    const tables = (r.number ? r.tables : r.tables.slice().reverse()).map((tb) => tableItem(r, tb));
    const earlier = r.number ? [] : tables.splice(ARENA_SHOWN);
    return h("section", { class: "tour-round", "aria-label": title },
      h("h3", {}, title),
      h("ol", { class: "tour-tables" }, tables),
      earlier.length ? h("details", { class: "tour-earlier" }, h("summary", {}, t("tour.arena.earlier", { n: earlier.length })),
        h("ol", { class: "tour-tables" }, earlier)) : null,
      (r.deals || []).map(dealItem));
  }));
}

function drawPeople() {
  const people = tour.people;
  $("tour-people").hidden = false;
  replace($("people"), people.length === 0 ? h("li", { class: "muted" }, t("tour.people.none"))
    : people.map((p) => h("li", { class: `chip${p.status !== "in" ? " chip-open" : ""}` },
      p.name, p.status !== "in" ? ` (${t(`tour.person.${p.status}`)})` : "")));
}

// show draws the tournament v unless a newer one was drawn: the answer to
// an action may come after the WebSocket told of later changes.
function show(v) {
  if (tour && v.version < tour.version) return;
  tour = v;
  draw();
}

function draw() {
  showAccount(t, me);
  if (!tour) return;
  drawHead();
  drawYou();
  drawOrganiser();
  drawPodium();
  drawStandings();
  drawRounds();
  drawPeople();
}

// follow keeps the WebSocket open, reconnecting with a growing pause.
function follow(delay = 1000) {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base}/ws`;
  const ws = new WebSocket(url);
  ws.onopen = () => {
    delay = 1000;
    $("tour-conn").textContent = "";
  };
  ws.onmessage = (ev) => {
    let m;
    try {
      m = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (m.type === "tournament") {
      showError(null);
      show(m.tournament);
    } else if (m.type === "error" && m.error) {
      showError(m.error);
    }
  };
  ws.onclose = () => {
    $("tour-conn").textContent = t("tour.reconnecting");
    setTimeout(() => follow(Math.min(delay * 2, 15000)), delay);
  };
}

await start(async (tr, lang) => {
  t = tr;
  draw();
  try {
    const { paces: list } = await api.listPaces(lang);
    paces = Object.fromEntries(list.map((p) => [p.id, p.name]));
    draw();
  } catch {
    // the pace's id stays
  }
});
try {
  [tour, me] = await Promise.all([api.request("GET", base), whoami()]);
  draw();
  follow();
} catch (err) {
  showError(err);
}
setInterval(drawClock, 1000);
