// luck.js: how much of a result was the cards and how much the play, from
// the engine's analysis (docs/protocol.md, "summary"): a line per player
// beside the replay's win-chance chart ("Ann: luck +21%, play −4%"), a
// player's averages and luckiest and unluckiest games on their profile
// (GET /api/players/{name}/luck), and the way to the puzzles made of a
// game's mistakes.

import { h } from "./dom.js";
import { request, learnURL } from "./api.js";
import { list } from "./words.js";
import { percent, signedPercent } from "./analysis.js";

/**
 * luckBox is the replay's account of luck and play: one line per player,
 * in their colour, the luck-adjusted results, and a link to the puzzles
 * found in the game (id) when given.
 */
export function luckBox(t, report, names, id) {
  const sums = report.summary || [];
  if (sums.length === 0) return null;
  const items = sums.map((s) => h("li", { class: `s${s.seat}`, "data-seat": String(s.seat) },
    h("span", { class: "wc-swatch", "aria-hidden": "true" }),
    t("luck.line", { player: names[s.seat] || "", luck: signedPercent(s.luck), skill: signedPercent(s.skill) })));
  const adjusted = sums.map((s) => `${names[s.seat] || ""} ${percent(s.adjusted)}`);
  return h("div", { class: "analysis-luck", id: "analysis-luck" },
    h("h3", { id: "luck-h" }, t("luck.title")),
    h("ul", { class: "luck-list", id: "luck-list", "aria-labelledby": "luck-h" }, items),
    h("p", { class: "muted luck-about" }, t("luck.about"), " ", t("luck.adjusted", { list: list(t, adjusted) })),
    id ? h("p", { class: "luck-learn" }, h("a", { class: "button", id: "learn-link", href: learnURL(id, -1) }, t("puzzles.learn.title"))) : null);
}

/** fetchSolver asks for the puzzle rating of the player called name. */
export const fetchSolver = (name) => request("GET", `/api/players/${encodeURIComponent(name)}/puzzles`);

/** fetchLuck asks for the luck and play of the player called name. */
export const fetchLuck = (name) => request("GET", `/api/players/${encodeURIComponent(name)}/luck`);

/**
 * luckProfile is a player's luck and play over their analysed games: the
 * means, then the luckiest and unluckiest games with their replays;
 * when(date) writes a date.
 */
export function luckProfile(t, rec, when) {
  if (!rec || rec.games === 0) return [h("p", { class: "muted", id: "luck-none" }, t("luck.profile.none"))];
  const row = (key, value, signed) => h("tr", {}, h("th", { scope: "row" }, t(key)), h("td", {}, signed ? signedPercent(value) : percent(value)));
  const game = (g) => h("li", {}, h("a", { href: g.replay }, t("luck.profile.game", {
    date: when(g.at), players: g.players, luck: signedPercent(g.luck), skill: signedPercent(g.skill),
  })));
  const games = (key, id, items) => items.length === 0 ? null
    : [h("h3", { id: `${id}-h` }, t(key)), h("ul", { class: "luck-games", id, "aria-labelledby": `${id}-h` }, items.map(game))];
  return [
    h("p", {}, t("luck.profile.games", { n: rec.games })),
    h("table", { class: "stats luck-table", id: "luck-table" },
      h("caption", { class: "visually-hidden" }, t("luck.profile.mean")),
      h("tbody", {},
        row("luck.profile.luck", rec.luck, true), row("luck.profile.skill", rec.skill, true),
        row("luck.profile.result", rec.result, false), row("luck.profile.adjusted", rec.adjusted, false))),
    games("luck.profile.luckiest", "luckiest", rec.luckiest),
    games("luck.profile.unluckiest", "unluckiest", rec.unluckiest),
    h("p", { class: "muted" }, t("luck.profile.about")),
  ].flat().filter(Boolean);
}

/** fetchGamePuzzles asks for the puzzles found in game id. */
export const fetchGamePuzzles = (id) => request("GET", `/api/games/${encodeURIComponent(id)}/puzzles`);

/**
 * markPuzzles adds, to each mistake of the replay's list (box) that became
 * a puzzle, a link to try it: a puzzle is the position before its move.
 */
export function markPuzzles(t, box, puzzles) {
  for (const p of puzzles || []) {
    const item = box.querySelector(`.mistake-item[data-move="${p.move + 1}"]`);
    if (!item || item.parentElement.querySelector(".mistake-puzzle")) continue;
    item.parentElement.append(" ", h("a", { class: "mistake-puzzle", href: `/puzzles/${encodeURIComponent(p.id)}` }, t("puzzles.try")));
  }
}
