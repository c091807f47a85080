// leaderboard.js: the best players by conservative rating, and the bot
// levels' fixed ratings for scale.

import { h, replace, $ } from "./dom.js";
import * as api from "./api.js";
import { start } from "./page.js";
import { translator } from "./i18n.js";
import { whoami, showAccount, ratingText, ratingFigure, errorText } from "./players.js";

let t = translator({}, {});
let board = null;
let me = null;

const levelName = (l) => (t.has(`bot.${l}`) ? t(`bot.${l}`) : l);

function draw() {
  showAccount(t, me);
  if (!board) return;
  $("board-about").textContent = t("web.leaderboard.about", { n: board.minGames });
  replace($("board"), board.players.length === 0
    ? h("tr", {}, h("td", { colspan: 4, class: "muted" }, t("web.leaderboard.none")))
    : board.players.map((p) => h("tr", { class: me && me.name === p.name ? "is-you" : null },
      h("td", {}, p.rank),
      h("td", {}, h("a", { href: p.profile }, p.name)),
      h("td", {}, ratingText(t, p.rating, board.minGames)),
      h("td", {}, p.rating.games))));
  replace($("board-bots"), board.bots.map((b) => h("tr", {},
    h("td", {}, levelName(b.level)), h("td", {}, ratingFigure(b.rating)))));
}

await start((tr) => {
  t = tr;
  draw();
});
try {
  [board, me] = await Promise.all([api.request("GET", "/api/leaderboard"), whoami()]);
} catch (err) {
  $("board-error").textContent = errorText(t, err);
  $("board-error").hidden = false;
}
draw();
