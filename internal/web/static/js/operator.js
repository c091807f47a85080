// operator.js: the operators' page (/operator): the open reports, each
// with its game (to watch or replay) and the chat lines concerned, and
// the actions an operator takes on them (dismiss, mute, suspend, ban,
// lift; remove a line); an action on any player without a report; the
// last actions of every operator. The server checks the role at every
// request: this page only shows what it answers.

import { h, replace, $ } from "./dom.js";
import * as api from "./api.js";
import { start } from "./page.js";
import { translator } from "./i18n.js";
import { whoami, showAccount } from "./players.js";
import { errorText } from "./errors.js";
import { when } from "./moderation.js";
import { displayNames } from "./words.js";

/** ACTIONS an operator chooses from, as the protocol names them. */
export const ACTIONS = ["dismiss", "mute", "suspend", "ban", "lift"];
/** HOURS are the lengths offered for a mute or a suspension (0: until lifted, a mute's only). */
export const HOURS = [1, 24, 168, 720, 0];

let t = translator({}, {});
let me;
let data = null;
let failure = null; // () => the text of why the page shows no reports
const errors = new Map(); // report id ("" for the direct form) -> error text
const notes = new Map(); // the same -> a success note

function standingChips(s) {
  const chips = [];
  if (s.banned) chips.push(t("moderation.op.standing.banned"));
  else if (s.suspended) chips.push(t("moderation.op.standing.suspended", { until: when(s.suspendedUntil) }));
  if (s.muted && !s.banned && !s.suspended) chips.push(t("moderation.op.standing.muted"));
  if (chips.length === 0) chips.push(t("moderation.op.standing.clear"));
  return chips.map((c) => h("span", { class: `badge op-chip${s.banned || s.suspended || s.muted ? " op-chip-bad" : ""}` }, c));
}

// act sends an action; key names where its error or note shows.
async function act(key, body) {
  errors.delete(key);
  notes.delete(key);
  try {
    await api.request("POST", "/api/moderation/actions", body);
    notes.set(key, t("moderation.op.done"));
  } catch (err) {
    errors.set(key, errorText(t, err));
  }
  await load();
}

// actionForm is the form of an action: on a report's person, or (report
// undefined) on a player named in it.
function actionForm(key, report) {
  const id = (name) => `${name}-${key || "direct"}`;
  const kind = h("select", { id: id("op-kind"), name: "kind" },
    ACTIONS.filter((a) => report || a !== "dismiss").map((a) => h("option", { value: a }, t(`moderation.op.do.${a}`))));
  const hours = h("select", { id: id("op-hours"), name: "hours" },
    HOURS.map((n) => h("option", { value: String(n) }, t(`moderation.op.hours.${n}`))));
  const reason = h("textarea", { id: id("op-reason"), name: "reason", rows: "2", maxlength: "500", required: true });
  const reasonLabel = h("label", { for: reason.id });
  const player = report ? null : h("input", { type: "text", id: id("op-player"), name: "player", maxlength: "64", required: true, autocomplete: "off" });
  const sync = () => {
    const timed = kind.value === "mute" || kind.value === "suspend";
    hours.disabled = !timed;
    hours.parentElement.hidden = !timed;
    // A suspension lasts a time; "until lifted" is a mute's.
    hours.querySelector('option[value="0"]').disabled = kind.value === "suspend";
    if (kind.value === "suspend" && hours.value === "0") hours.value = "24";
    // A dismissal is told to nobody: its reason is the operators'.
    reasonLabel.textContent = t(kind.value === "dismiss" ? "moderation.op.reason.dismiss" : "moderation.op.reason");
  };
  kind.addEventListener("change", sync);
  const form = h("form", { class: "op-form", id: id("op-form"), onsubmit: (ev) => {
    ev.preventDefault();
    const body = { kind: kind.value, reason: reason.value.trim() };
    if (report) body.report = report.id;
    body.player = report ? report.player : player.value.trim();
    if (kind.value === "mute" || kind.value === "suspend") body.hours = Number(hours.value);
    act(key, body);
  } },
  player ? h("div", { class: "field stack" }, h("label", { for: player.id }, t("moderation.op.player")), player) : null,
  h("div", { class: "op-form-row" },
    h("div", { class: "field stack" }, h("label", { for: kind.id }, t("moderation.op.action")), kind),
    h("div", { class: "field stack" }, h("label", { for: hours.id }, t("moderation.op.hours")), hours)),
  h("div", { class: "field stack" }, reasonLabel, reason),
  h("button", { type: "submit", class: "primary", id: id("op-apply") }, t("moderation.op.apply")),
  errors.has(key) ? h("p", { class: "notice notice-error", role: "alert" }, errors.get(key)) : null,
  notes.has(key) ? h("p", { class: "notice", role: "status" }, notes.get(key)) : null);
  sync();
  return form;
}

// lineItem is a chat line concerned by report r, with its removal.
function lineItem(r, l) {
  const words = l.phrase ? t(`chat.phrase.${l.phrase}`) : l.text;
  return h("li", { class: `op-line${l.removed ? " op-line-removed" : ""}`, "data-seq": l.seq },
    h("span", { class: "op-line-name" }, l.name, ": "), h("span", { class: "op-line-words" }, words), " ",
    l.removed
      ? h("span", { class: "badge op-chip" }, t("moderation.op.removed"))
      : h("button", { type: "button", class: "small danger op-remove", onclick: () => {
        const reason = document.getElementById(`op-reason-${r.id}`);
        act(r.id, { kind: "strike", game: r.game.id, line: l.seq, reason: reason ? reason.value.trim() : "" });
      } }, t("moderation.op.remove")));
}

// playersOf names the players seated at a report's game as every page
// does: a server's bot in the reader's language.
function playersOf(game) {
  const seats = game.seats || [];
  const { names } = displayNames(t, seats.map((s) => s.name), game);
  return names.filter((_, i) => seats[i].name);
}

function reportItem(r) {
  const live = r.game.status === "open" || r.game.status === "playing";
  const players = playersOf(r.game);
  return h("li", { class: "op-report", id: `report-${r.id}`, "data-report": r.id },
    h("div", { class: "op-report-head" },
      h("h3", {}, t("moderation.op.reported", { reporter: r.reporter, player: r.player })),
      h("span", { class: "badge op-kind" }, t(`moderation.report.kind.${r.kind}`)),
      h("time", { class: "muted", datetime: r.at }, when(r.at))),
    h("p", { class: "op-standing" }, standingChips(r.standing)),
    h("blockquote", { class: "op-reason" }, r.reason),
    h("p", { class: "op-game" },
      r.game.url ? h("a", { href: r.game.url, class: "button small" }, t(live ? "moderation.op.watch" : "moderation.op.replay")) : null, " ",
      players.length ? h("span", { class: "muted" }, t("moderation.op.players", { players: players.join(", ") })) : null),
    h("h4", {}, t("moderation.op.lines")),
    r.lines.length
      ? h("ul", { class: "op-lines" }, r.lines.map((l) => lineItem(r, l)))
      : h("p", { class: "muted" }, t("moderation.op.nolines")),
    actionForm(r.id, r));
}

function logItem(a) {
  return h("li", { class: "op-log-item", "data-kind": a.kind },
    h("time", { class: "muted", datetime: a.at }, when(a.at)), " ",
    h("strong", {}, a.operator), " · ", t(`moderation.kind.${a.kind}`), " · ", h("strong", {}, a.player),
    a.until ? h("span", { class: "muted" }, ` → ${when(a.until)}`) : null,
    h("p", { class: "op-log-reason" }, a.reason));
}

function draw() {
  showAccount(t, me);
  const status = $("op-status");
  const page = $("op-page");
  if (failure) {
    status.textContent = failure();
    status.hidden = false;
    page.hidden = true;
    return;
  }
  status.hidden = true;
  if (!data) return;
  page.hidden = false;
  replace($("op-reports"), data.reports.length
    ? data.reports.map(reportItem)
    : h("li", { class: "muted op-none" }, t("moderation.op.none")));
  replace($("op-direct"), actionForm(""));
  replace($("op-log"), data.actions.length
    ? h("ul", { class: "op-log-list" }, data.actions.map(logItem))
    : h("p", { class: "muted" }, t("moderation.op.log.none")));
}

async function load() {
  try {
    if (me === undefined) me = await whoami();
    if (!me) {
      failure = () => t("moderation.op.signin");
    } else {
      data = await api.request("GET", "/api/moderation/reports");
      failure = null;
    }
  } catch (err) {
    failure = () => (err.code === "not_operator" ? t("moderation.op.notop") : errorText(t, err));
  }
  draw();
}

await start((tr) => {
  t = tr;
  document.title = `Razzia! — ${t("moderation.op.title")}`;
  draw();
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") load();
});
await load();
