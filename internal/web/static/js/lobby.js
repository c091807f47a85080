// lobby.js: the lobby: create a game, list the games, upload a record.

import { onSubmit, onClick } from "./forms.js";
import { h, replace, $ } from "./dom.js";
import * as api from "./api.js";
import { start } from "./page.js";
import { displayNames, tableKind } from "./words.js";
import { translator } from "./i18n.js";
import { setupLearn } from "./learn.js";
import { errorText } from "./errors.js";
import { whoami, showAccount } from "./players.js";
import { lobbyTournaments } from "./tourlist.js";
import { setupPlayNow, drawPlayNow, loadPlayNow, fillPaces } from "./playnow.js";
import { setupChallengeForm, drawChallengeForm, fillChallengePaces } from "./challengeform.js";
import { setupOnline, drawOnline } from "./online.js";

// Until the catalogue comes, the keys themselves (with has(), as a real
// translator has: the seats can be drawn before).
let t = translator({}, {});

// The bot levels are the server's (GET /api/levels: name, description),
// so a level added there needs nothing here; null until they arrive.
let levels = null;
let defaultLevel = "";
// The seats' choices survive changing the seat count; null is the default
// level, "you" the creator's own seat, taken at creation.
const chosen = ["you", null, null, null, null];

// A level's name and description in the page's language, else the server's.
const levelName = (l) => (t.has(`bot.${l.name}`) ? t(`bot.${l.name}`) : l.name);
const levelAbout = (l) => (t.has(`bot.${l.name}.about`) ? t(`bot.${l.name}.about`) : l.description);
const choice = (i) => chosen[i] ?? defaultLevel;

// ratedTable reports whether the table being made is rated: then only the
// levels the server rates (GET /api/levels: rated) may sit at it.
const ratedTable = () => Boolean(me) && $("rated").checked;
const allowed = (l) => !ratedTable() || l.rated !== false;

function renderSeats() {
  if (!levels) return;
  const n = Number($("players").value);
  const items = [];
  for (let i = 0; i < 5; i++) {
    const name = `seat-${i + 1}`;
    // A level the table cannot take gives way to the default one.
    const own = levels.find((l) => l.name === choice(i));
    if (own && !allowed(own)) chosen[i] = defaultLevel;
    const select = h("select", { id: name, name, onchange: (ev) => choose(i, ev.target.value) },
      h("option", { value: "you", selected: choice(i) === "you" }, t("web.lobby.seat.you")),
      h("option", { value: "", selected: choice(i) === "" }, t("web.lobby.seat.open")),
      levels.map((l) => h("option", { value: l.name, selected: choice(i) === l.name, title: levelAbout(l), disabled: !allowed(l) },
        allowed(l) ? t("web.seat.bot", { level: levelName(l) })
          : `${t("web.seat.bot", { level: levelName(l) })} · ${t("web.lobby.casualonly")}`)));
    items.push(h("li", { hidden: i >= n, class: "seat-choice" },
      h("label", { for: name }, t("web.join.seat.n", { n: i + 1 })), select));
  }
  replace($("seat-list"), items);
  showName();
  replace($("level-list"), levels.map((l) => [h("dt", {}, levelName(l)), h("dd", {}, levelAbout(l))]));
}

// choose takes a seat's choice; the creator has one seat, so choosing
// it for another seat opens the one chosen before.
function choose(i, value) {
  chosen[i] = value;
  if (value === "you") {
    for (let k = 0; k < chosen.length; k++) {
      if (k === i || chosen[k] !== "you") continue;
      chosen[k] = "";
      const other = document.getElementById(`seat-${k + 1}`);
      if (other) other.value = "";
    }
  }
  showName();
}

// mySeat is the seat the creator takes, or -1.
function mySeat() {
  const n = Number($("players").value);
  for (let i = 0; i < n; i++) if (choice(i) === "you") return i;
  return -1;
}

// showName asks the creator's name when they take a seat.
function showName() {
  $("create-name-field").hidden = mySeat() < 0;
}

/** loadLevels fetches the levels; it resolves to the error, if any. */
async function loadLevels() {
  try {
    const r = await api.request("GET", "/api/levels");
    levels = (r && r.levels) || [];
    defaultLevel = (r && r.default) || "";
    return null;
  } catch (err) {
    levels = []; // people can still create tables of open seats
    return err;
  }
}

function showError(el, text) {
  el.textContent = text || "";
  el.hidden = !text;
}

async function create(ev) {
  ev.preventDefault();
  const button = $("create");
  const n = Number($("players").value);
  const seats = Array.from({ length: n }, (_, i) => ({ bot: choice(i) === "you" ? "" : choice(i) }));
  const seat = mySeat();
  const name = $("create-name").value.trim();
  showError($("create-error"), null);
  if (seat >= 0 && !name) {
    showError($("create-error"), t("web.join.noname"));
    $("create-name").focus();
    return;
  }
  button.disabled = true;
  try {
    const rated = me && $("rated").checked;
    const { game } = await api.createGame(seats, rated, $("pace").value);
    // The creator sits at once: the table opens with their seat taken.
    if (seat >= 0) await sit(game, name, seat);
    location.assign(game.invite || `/g/${game.id}`);
  } catch (err) {
    showError($("create-error"), errorText(t, err));
    button.disabled = false;
  }
}

// sit takes the creator's seat at the table just made; a refusal (a
// name the server does not take, a rated table for a guest) closes the
// table again, so that no table waits for a creator who is not there.
async function sit(game, name, seat) {
  try {
    await api.joinGame(game.id, name, seat);
  } catch (err) {
    await api.cancelGame(game.id).catch(() => {});
    throw err;
  }
  try {
    localStorage.setItem("razzia.name", name);
  } catch {
    // storage may be disabled; the name is only a convenience
  }
}

function when(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return "";
  return d.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "short", timeStyle: "short" });
}

function gameItem(game, mine) {
  const link = `/g/${encodeURIComponent(game.id)}`;
  const open = game.seats.filter((s) => s.open).length;
  let action = { open: "web.lobby.join", playing: "web.lobby.watch" }[game.status] || "web.lobby.view";
  if (mine) action = mine.yourTurn ? "web.lobby.yourturn" : game.status === "finished" ? "web.lobby.view" : "web.lobby.resume";
  const { names } = displayNames(t, game.seats.map((s) => s.name), game);
  const seats = game.seats.map((s, i) => h("li", { class: `chip${s.open ? " chip-open" : ""}${game.winners && game.winners.includes(i) ? " chip-win" : ""}` },
    s.open ? t("web.seat.open") : names[i]));
  let detail = game.status === "open" ? t("web.lobby.openseats", { n: open }) : t("web.lobby.moves", { n: game.moves });
  return h("li", { class: `game${mine && mine.yourTurn ? " game-turn" : ""}` },
    h("a", { href: link, class: "game-link", "data-game": game.id },
      h("span", { class: "game-action" }, t(action)),
      h("span", { class: "game-id" }, game.id)),
    h("ul", { class: "chips", "aria-label": t("term.players") }, seats),
    h("span", { class: "game-detail muted" }, [detail, tableKind(t, game), when(game.updated)].filter(Boolean).join(" · ")),
    game.status === "finished" || game.status === "archived"
      ? h("a", { href: `${link}/replay`, class: "game-replay" }, t("web.replay.open")) : null);
}

let lists = {};
// The signed-in account (null: a guest, false: the server has none;
// undefined until the server has said, meanwhile the page keeps the layout
// the server guessed from the session cookie) and its games, those where
// it is its turn first (the server's order).
let me;
let mine = [];

async function loadMine() {
  me = await whoami();
  mine = me ? (await api.request("GET", "/api/account/games")).games || [] : [];
}

async function refresh() {
  const status = $("lists-status");
  status.textContent = t("web.lobby.loading");
  const results = await Promise.allSettled([loadMine(), ...["open", "playing", "finished", "archived"].map(async (s) => {
    try {
      const { games } = await api.listGames(s);
      lists[s] = games || [];
    } catch (err) {
      lists[s] = err;
      throw err;
    }
  })]);
  drawLists();
  const failed = results.some((r) => r.status === "rejected");
  status.textContent = failed ? t("web.lobby.failed") : "";
}

function drawLists() {
  showAccount(t, me);
  drawPlayNow(t, me);
  drawChallengeForm(t, me);
  if (me !== undefined) {
    $("mine").hidden = !me;
    $("turn").hidden = !me;
    $("mine-hint").hidden = me !== null;
    $("rated-field").hidden = !me;
    // A signed-in creator sits under the account's name.
    if (me) $("create-name").value = me.name;
    $("create-name").readOnly = !!me;
  }
  if (me) {
    drawTurn();
    replace($("games-mine"), mine.length === 0 ? h("li", { class: "muted none" }, t("web.lobby.mine.none"))
      : mine.map((g) => gameItem(g.game, g)));
  }
  for (const s of ["open", "playing", "finished", "archived"]) {
    const el = $(`games-${s}`);
    const l = lists[s];
    if (l === undefined) continue;
    if (l instanceof Error) replace(el, h("li", { class: "notice notice-error" }, errorText(t, l)));
    else if (l.length === 0) replace(el, h("li", { class: "muted none" }, t("web.lobby.none")));
    else replace(el, l.map(gameItem));
  }
}

// drawTurn fills the line at the top of a signed-in person's lobby: the
// first game waiting for their move (the server lists those first) with
// whom it is against, a tap away, and how many more wait; without one, a
// way to their games.
function drawTurn() {
  const turns = mine.filter((g) => g.yourTurn);
  const link = $("turn-game");
  const more = $("turn-more");
  $("turn").classList.toggle("is-turn", turns.length > 0);
  if (turns.length === 0) {
    link.href = "#mine-h";
    replace(link, h("span", { class: "turn-label" }, t("web.lobby.mine")));
    more.hidden = true;
    return;
  }
  const { game, seat } = turns[0];
  const { names } = displayNames(t, game.seats.map((s) => s.name), game);
  link.href = `/g/${encodeURIComponent(game.id)}`;
  link.dataset.game = game.id;
  replace(link, h("span", { class: "turn-label" }, t("web.lobby.yourturn")),
    h("span", { class: "turn-detail" }, names.filter((_, i) => i !== seat).join(", ")));
  more.hidden = false;
  more.textContent = turns.length > 1 ? t("lobby.turn.more", { n: turns.length - 1 }) : t("web.lobby.mine");
}

async function upload() {
  const errEl = $("upload-error");
  const input = $("upload");
  const file = input.files[0];
  showError(errEl, null);
  if (!file) return;
  if (file.size > api.MAX_RECORD) {
    showError(errEl, t("error.too_large"));
    return;
  }
  try {
    const { game } = await api.uploadRecord(file);
    location.assign(game.invite || `/g/${game.id}`);
  } catch (err) {
    showError(errEl, errorText(t, err));
    input.value = "";
  }
}

// renderPaces offers the server's paces (GET /api/paces), told in the
// page's language; the choice survives a language switch.
async function renderPaces(lang) {
  const select = $("pace");
  const was = select.value;
  try {
    const { paces } = await api.listPaces(lang);
    fillPaces(paces);
    fillChallengePaces(paces);
    replace(select, paces.map((p) => h("option", { value: p.id, selected: was ? was === p.id : p.id === "untimed", "data-about": p.describe },
      p.name)));
    describePace();
  } catch {
    // the default pace stays; creating a table still works
  }
}

// describePace says what the chosen pace means.
function describePace() {
  const o = $("pace").selectedOptions[0];
  $("pace-about").textContent = o ? o.getAttribute("data-about") || "" : "";
}

try {
  $("create-name").value = localStorage.getItem("razzia.name") || "";
} catch {
  // storage disabled
}
$("pace").addEventListener("change", describePace);
$("players").addEventListener("change", renderSeats);
$("rated").addEventListener("change", renderSeats);
onSubmit("create-form", create);
$("upload").addEventListener("change", upload);
onClick("refresh", refresh);
setupLearn(() => t);
setupPlayNow();
setupChallengeForm();
setupOnline(() => t);
const levelsLoaded = loadLevels(); // while the language loads
const tournaments = lobbyTournaments($("tours-coming"), $("tours-running"));
await start((tr, lang) => {
  t = tr;
  tournaments.draw(tr);
  renderPaces(lang);
  renderSeats();
  drawLists();
  drawOnline();
});
const levelsError = await levelsLoaded;
if (levelsError) showError($("create-error"), errorText(t, levelsError));
renderSeats();
refresh();
loadPlayNow();
// Keep the lists fresh while the lobby is visible.
setInterval(() => {
  if (document.visibilityState === "visible") refresh();
}, 15000);
