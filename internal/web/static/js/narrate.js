// narrate.js: an event of the game in a sentence of the page's language,
// as the server's narrator (i18n.Catalogue.Narrate) tells it: the events
// of protocol version 2 come without their sentences. A test compares the
// two over every kind of event in every language.

import { cardList, count, list } from "./words.js";

/** narrate tells the event e (as in the protocol) naming the players. */
export function narrate(t, e, players) {
  const name = (seat) => (seat >= 0 && seat < players.length ? players[seat] : t("term.seat.n", { n: seat + 1 }));
  const cards = e.cards || [];
  switch (e.kind) {
    case "draw":
      if (e.card === "police") return t("event.draw.police", { player: name(e.seat), police: e.police || 0 });
      return t("event.draw", { player: name(e.seat), card: t(`card.${e.card}.a`) });
    case "thieves":
      return t("event.thieves", { player: name(e.seat), thieves: count(t, "thief", cards.length), cards: cardList(t, cards) });
    case "auction":
      return t(`event.auction.${e.auction}`, { player: name(e.seat) });
    case "bid":
      return t("event.bid", { player: name(e.seat), cheque: e.cheque || 0 });
    case "pass":
      return t("event.pass", { player: name(e.seat) });
    case "win":
      return t("event.win", { player: name(e.seat), cheque: e.cheque || 0, cards: cardList(t, cards), centre: e.centre || 0 });
    case "nowinner":
      return e.auction === "seventh" ? t("event.nowinner.seventh", { cards: cardList(t, cards) }) : t("event.nowinner");
    case "roundend":
      return t(e.policeLimit ? "event.roundend.police" : "event.roundend", { round: e.round || 0 });
    case "gameover": {
      const names = (e.winners || []).map(name);
      return names.length === 1 ? t("event.gameover", { winner: names[0] }) : t("event.gameover.shared", { winners: list(t, names) });
    }
  }
  return "";
}
