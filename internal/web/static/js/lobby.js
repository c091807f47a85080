// lobby.js: the lobby page: create a game, list games, upload a record.

import { h, replace, $ } from "./dom.js";
import * as api from "./api.js";

const SEAT_CHOICES = [
  ["", "Open for a person"],
  ["easy", "Bot: easy"],
  ["medium", "Bot: medium"],
  ["hard", "Bot: hard"],
];

// The seats' choices survive changing the seat count.
const chosen = ["", "medium", "medium", "medium", "medium"];

function renderSeats() {
  const n = Number($("seat-count").value);
  const items = [];
  for (let i = 0; i < n; i++) {
    const id = `seat-${i}`;
    const select = h("select", { id, name: id, onchange: (ev) => (chosen[i] = ev.target.value) },
      SEAT_CHOICES.map(([value, label]) => h("option", { value, selected: chosen[i] === value }, label)));
    items.push(h("li", {}, h("label", { for: id }, `Seat ${i + 1}`), " ", select));
  }
  replace($("seat-list"), items);
}

function showError(el, err) {
  el.textContent = err ? describe(err) : "";
  el.hidden = !err;
}

/** describe turns an APIError into a sentence for people. */
function describe(err) {
  if (err.code === "bad_record") {
    const d = err.detail;
    // The server's message names the move: "move 17 (bid 9): ...".
    if (d.move > 0) return `This record has an illegal move: ${err.message}`;
    return `This file is not a Razzia record: ${err.message}`;
  }
  if (err.code === "too_large") return "The file is too large: a record may be at most 1 MiB.";
  if (err.code === "rate_limited") return "Too many requests: wait a moment and try again.";
  return err.message;
}

async function create(ev) {
  ev.preventDefault();
  const button = $("create-button");
  const n = Number($("seat-count").value);
  const seats = chosen.slice(0, n).map((bot) => ({ bot }));
  button.disabled = true;
  showError($("create-error"), null);
  try {
    const { game } = await api.createGame(seats);
    location.assign(game.invite || `/g/${game.id}`);
  } catch (err) {
    showError($("create-error"), err);
    button.disabled = false;
  }
}

function when(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return "";
  return d.toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
}

function seatNames(game) {
  return game.seats.map((s) => (s.open ? "(open seat)" : s.name)).join(", ");
}

function gameItem(game) {
  const link = `/g/${encodeURIComponent(game.id)}`;
  const open = game.seats.filter((s) => s.open).length;
  const actions = [];
  switch (game.status) {
    case "open":
      actions.push(h("a", { href: link, class: "button" }, "Join"));
      break;
    case "playing":
      actions.push(h("a", { href: link, class: "button" }, "Watch"));
      break;
    default:
      actions.push(h("a", { href: link, class: "button" }, "View"));
  }
  if (game.status !== "open") {
    actions.push(" ", h("a", { href: api.recordURL(game.id), download: `razzia-${game.id}.json` }, "Download record"));
  }
  let detail = `${game.players} players`;
  if (game.status === "open") detail += `, ${open} open seat${open === 1 ? "" : "s"}`;
  else detail += `, ${game.moves} moves`;
  if (game.winners && game.winners.length) {
    detail += `; won by ${game.winners.map((w) => game.seats[w] && game.seats[w].name).join(" and ")}`;
  }
  return h("li", {},
    h("span", { class: "game-id" }, game.id), " ",
    h("span", { class: "game-seats" }, seatNames(game)), " ",
    h("span", { class: "muted" }, `(${detail}; ${when(game.updated)})`), " ",
    h("span", { class: "actions" }, actions));
}

async function refresh() {
  const status = $("lists-status");
  status.textContent = "Loading…";
  const results = await Promise.allSettled(
    ["open", "playing", "finished", "archived"].map(async (s) => {
      const el = $(`list-${s}`);
      try {
        const { games } = await api.listGames(s);
        if (!games || games.length === 0) replace(el, h("li", { class: "muted" }, "None."));
        else replace(el, games.map(gameItem));
      } catch (err) {
        replace(el, h("li", { class: "error" }, describe(err)));
        throw err;
      }
    }));
  const failed = results.some((r) => r.status === "rejected");
  status.textContent = failed ? "Some lists could not be loaded." : `Updated ${new Date().toLocaleTimeString()}.`;
}

async function upload(ev) {
  ev.preventDefault();
  const errEl = $("upload-error");
  const file = $("record-file").files[0];
  showError(errEl, null);
  if (!file) {
    showError(errEl, { message: "Choose a record file first." });
    return;
  }
  if (file.size > api.MAX_RECORD) {
    showError(errEl, { code: "too_large" });
    return;
  }
  try {
    const { game } = await api.uploadRecord(file);
    location.assign(game.invite || `/g/${game.id}`);
  } catch (err) {
    showError(errEl, err);
  }
}

$("seat-count").addEventListener("change", renderSeats);
$("create-form").addEventListener("submit", create);
$("upload-form").addEventListener("submit", upload);
$("refresh-button").addEventListener("click", refresh);
renderSeats();
refresh();
// Keep the lists fresh while the lobby is visible.
setInterval(() => {
  if (document.visibilityState === "visible") refresh();
}, 15000);
