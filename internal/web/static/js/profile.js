// profile.js: a player's public profile (/p/NAME): rating and its
// history (a chart the server draws), games by table size, mean points
// by category against the opponents, the record against each bot level
// and the recent games with their replays.

import { h, replace, $ } from "./dom.js";
import * as api from "./api.js";
import { start } from "./page.js";
import { translator } from "./i18n.js";
import { challengeHref } from "./meet.js";
import { displayNames } from "./words.js";
import { whoami, showAccount, ratingText, ratingFigure, changeText, errorText, number, when } from "./players.js";
import { profileTournaments } from "./tourlist.js";
import { loadSocial, drawSocial } from "./social.js";
import { fetchLuck, luckProfile, fetchSolver } from "./luck.js";

let t = translator({}, {});
let p = null;
let me = null;
let failure = null;
let luck = null; // the player's luck and play, once come
let solver = null; // the player's puzzle rating, once come

const name = decodeURIComponent(location.pathname.slice("/p/".length));
const levelName = (l) => (t.has(`bot.${l}`) ? t(`bot.${l}`) : l);
const cell = (...c) => h("td", {}, ...c);
const none = (cols) => h("tr", {}, h("td", { colspan: cols, class: "muted" }, t("web.profile.none")));

function gameItem(g) {
  const { names } = displayNames(t, g.seats.map((s) => s.name), g);
  const d = g.displayChange;
  const change = d === undefined || d === null ? null
    : h("span", { class: d >= 0 ? "pos" : "neg" }, t("web.profile.change", { change: changeText(d) }));
  return h("li", { class: "game" },
    h("a", { href: g.replay, class: "game-link" },
      h("span", { class: "game-action" }, t("web.replay.open")),
      h("span", { class: "game-id" }, g.game)),
    h("ul", { class: "chips", "aria-label": t("term.players") },
      g.seats.map((s, i) => h("li", { class: `chip${s.rank === 1 ? " chip-win" : ""}` }, `${names[i]} ${s.score}`))),
    h("span", { class: "game-detail muted" },
      [t("web.profile.rank", { rank: g.rank, players: g.players }), t(g.rated ? "web.profile.rated" : "web.profile.casual"), when(g.at, true)].join(" · ")),
    change);
}

function draw() {
  showAccount(t, me);
  if (failure) {
    $("profile-status").textContent = "";
    $("profile-error").textContent = failure.code === "not_found" ? t("web.profile.notfound") : errorText(t, failure);
    $("profile-error").hidden = false;
    return;
  }
  if (!p) {
    $("profile-status").textContent = t("web.lobby.loading");
    return;
  }
  $("profile-status").textContent = "";
  $("profile").hidden = false;
  document.title = `Razzia! — ${p.name}`;
  $("name-h").textContent = p.name;
  $("since").textContent = t("web.profile.since", { date: when(p.created) });
  drawSocial(t, p.name, me);
  $("rating").textContent = ratingText(t, p.rating, p.provisionalGames);
  const games = p.games || { rated: 0, casual: 0 };
  $("games-all").textContent = t("web.profile.games.all", { n: games.rated + games.casual });
  $("games-rated").textContent = t("web.profile.games.rated", { n: games.rated });
  $("games-casual").textContent = t("web.profile.games.casual", { n: games.casual });
  for (const r of document.querySelectorAll('#games-filter input[name="games"]')) r.checked = r.value === (p.only || "");
  // Another signed-in player may challenge them from here (the lobby's form, filled in).
  $("challenge-link").hidden = !me || me.name === p.name;
  $("challenge-link").href = challengeHref(p.name);
  const chart = $("chart");
  if (p.history.length > 0) {
    chart.alt = t("web.profile.chart.alt", { n: p.history.length, rating: ratingFigure(p.rating) });
    chart.src = `/api/players/${encodeURIComponent(p.name)}/rating.svg?n=${p.history.length}`;
    chart.hidden = false;
    $("chart-caption").textContent = t("web.profile.chart.caption");
  } else {
    chart.hidden = true;
    $("chart-caption").textContent = t("web.profile.chart.none");
  }
  replace($("by-players"), p.byPlayers.length === 0 ? none(3)
    : p.byPlayers.map((c) => h("tr", {}, cell(c.players), cell(c.played), cell(c.won))));
  $("cats-mine").textContent = p.name;
  replace($("categories"), p.categories.length === 0 ? none(3)
    : p.categories.map((c) => h("tr", {}, cell(t(`cat.${c.category}`)), cell(number(c.mine)), cell(number(c.opponents)))));
  replace($("bots"), p.bots.length === 0 ? none(5)
    : p.bots.map((b) => h("tr", {}, cell(levelName(b.level)), cell(ratingFigure(b.rating)), cell(b.wins), cell(b.draws), cell(b.losses))));
  replace($("recent"), p.recent.length === 0 ? h("li", { class: "muted none" }, t("web.profile.none")) : p.recent.map(gameItem));
  $("puzzle-rating-line").hidden = !solver || solver.attempts === 0;
  if (solver) {
    $("puzzle-rating").textContent = `${solver.rating}${solver.provisional ? "?" : ""} · ${t("puzzles.profile.solved", { solved: solver.solved, attempts: solver.attempts })}`;
  }
  $("luck").hidden = !luck;
  if (luck) replace($("luck-body"), luckProfile(t, luck, when));
}

// only is the kind of games the figures are made of: "", "rated" or
// "casual", kept in the address (?games=) so that a link shows the same.
let only = new URLSearchParams(location.search).get("games") || "";

function load() {
  const q = only ? `?games=${encodeURIComponent(only)}` : "";
  return api.request("GET", `/api/players/${encodeURIComponent(name)}${q}`);
}

$("games-filter").addEventListener("change", async (ev) => {
  only = ev.target.value;
  const url = new URL(location.href);
  if (only) url.searchParams.set("games", only);
  else url.searchParams.delete("games");
  history.replaceState(null, "", url);
  try {
    p = (await load()).profile;
    failure = null;
  } catch (err) {
    failure = err;
  }
  draw();
});

const tournaments = profileTournaments($("tournaments"), name);
await start((tr) => {
  t = tr;
  tournaments.draw(tr);
  draw();
});
draw();
const [profile, who, lk, sv] = await Promise.allSettled([load(), whoami(), fetchLuck(name), fetchSolver(name), loadSocial(name)]);
if (profile.status === "fulfilled") p = profile.value.profile;
else failure = profile.reason;
me = who.status === "fulfilled" ? who.value : null;
// A server of another version may not tell luck: the profile stands without it.
luck = lk.status === "fulfilled" ? lk.value : null;
solver = sv.status === "fulfilled" ? sv.value : null;
draw();
