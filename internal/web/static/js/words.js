// words.js: what the table's pieces share to put the game into words: the
// translator, lists, counts, move labels, and the players' names as the
// page shows them.

import { KINDS } from "./cards.js";
import { translator } from "./i18n.js";

/** CATEGORIES are the score table's lines, as in the score JSON. */
export const CATEGORIES = ["thieves", "bodyguards", "cars", "jewels", "gold", "businesses", "cheques"];

/** T returns a translator for a catalogue given as a flat object or as t itself. */
export function T(catalogue) {
  return typeof catalogue === "function" ? catalogue : translator(catalogue, catalogue);
}

/** list joins items as the language does: "a, b and c". */
export function list(t, items) {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0];
  let s = items[0];
  for (const it of items.slice(1, -1)) s += t("list.sep") + it;
  return t("list.and", { first: s, last: items[items.length - 1] });
}

/** count returns "1 car", "2 cars" in the language. */
export function count(t, kind, n) {
  return n === 1 ? t("card.one", { card: t(`card.${kind}`) }) : t(`card.${kind}.count`, { n });
}

/** cardList describes cards grouped by kind in the engine's order, or "no cards". */
export function cardList(t, tokens) {
  if (!tokens || tokens.length === 0) return t("cards.none");
  const n = new Map();
  for (const k of tokens) n.set(k, (n.get(k) || 0) + 1);
  return list(t, KINDS.filter((k) => n.has(k)).map((k) => count(t, k, n.get(k))));
}

/** moveLabel describes a legal move token for a button. */
export function moveLabel(t, token) {
  const [verb, ...rest] = token.split(" ");
  switch (verb) {
    case "draw":
      return t("action.draw");
    case "call":
      return t("action.call");
    case "pass":
      return t("action.pass");
    case "bid":
      return t("action.bid.cheque", { cheque: rest[0] });
    case "thief":
      return t("action.thieves.take", { thieves: count(t, "thief", rest.length), cards: cardList(t, rest) });
  }
  return token;
}

/** thiefToken returns the record token taking the given row cards: kinds in the engine's order. */
export function thiefToken(kinds) {
  const sorted = [...kinds].sort((a, b) => KINDS.indexOf(a) - KINDS.indexOf(b));
  return ["thief", ...sorted].join(" ");
}

/**
 * tableKind says what kind of table a game is at, in words: rated or
 * casual, and its pace ("Rated · Blitz", "Casual · Untimed").
 */
export function tableKind(t, game) {
  const pace = game && game.pace;
  const paceName = !pace ? t("pace.untimed") : t.has && t.has(`pace.${pace.id}`) ? t(`pace.${pace.id}`) : pace.name || pace.id;
  return `${t(game && game.rated ? "web.table.rated" : "web.table.casual")} · ${paceName}`;
}

/** num writes a number as the page shows points: a negative one with the minus sign (U+2212), never a hyphen. */
export function num(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}

/** points writes a player's points: "12 pts", "1 pt", "−1 pt". */
export function points(t, n) {
  return t(Math.abs(n) === 1 ? "web.seat.points.one" : "web.seat.points", { n: num(n) });
}

/** signed writes a change with its sign, +5, −3 (U+2212) or 0. */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0";
}

/**
 * displayNames returns the players' names as the page shows them: a
 * server's bot, stored as "Bot 2 (hard)", is named in the reader's
 * language ("Bot 2 (moeilijk)"); everyone else as they chose. It also
 * returns tell(sentence), which puts those names into the server's
 * sentences.
 */
export function displayNames(t, players, game) {
  const stored = players.map((p, i) => p || (game && game.seats[i] && game.seats[i].name) || "");
  const names = stored.map((name, i) => {
    const bot = game && game.seats[i] && game.seats[i].bot;
    if (bot && name === `Bot ${i + 1} (${bot})` && t.has && t.has(`bot.${bot}`)) {
      return t("web.seat.botname", { n: i + 1, level: t(`bot.${bot}`) });
    }
    return name || t("term.seat.n", { n: i + 1 });
  });
  const swaps = stored.map((s, i) => [s, names[i]]).filter(([s, n]) => s && s !== n);
  const tell = (text) => {
    let out = text || "";
    for (const [s, n] of swaps) out = out.split(s).join(n);
    return out;
  };
  return { names, tell };
}
