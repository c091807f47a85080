// words.js: English words for cards, moves and events. The wording follows
// the engine's Narrate so that the page and the terminal tell the same story.

/** KINDS lists the card tokens in the engine's order, police first. */
export const KINDS = [
  "police", "ring", "watch", "brooch", "necklace", "diamond", "bodyguard", "car", "driver",
  "thief", "gold", "casino", "transport", "cinema", "racetrack", "realestate", "nightclub", "restaurant",
];

const NAMES = { gold: "gold coin", realestate: "real estate" };
export const JEWELS = ["ring", "watch", "brooch", "necklace", "diamond"];
export const BUSINESSES = ["casino", "transport", "cinema", "racetrack", "realestate", "nightclub", "restaurant"];

/** CATEGORIES are the score table's lines, as in the score JSON. */
export const CATEGORIES = ["thieves", "bodyguards", "cars", "jewels", "gold", "businesses", "cheques"];

/** cardName returns the English name of a card token: "real estate". */
export function cardName(kind) {
  return NAMES[kind] || kind;
}

/** plural returns "1 car", "2 watches", "3 thieves". */
export function plural(kind, n) {
  let name = cardName(kind);
  if (n === 1) return `1 ${name}`;
  if (kind === "police") {
    // unchanged
  } else if (name.endsWith("ch")) name += "es";
  else if (kind === "thief") name = "thieves";
  else name += "s";
  return `${n} ${name}`;
}

/** joinAnd joins "a", "b" and "c". */
export function joinAnd(parts) {
  if (parts.length <= 1) return parts.join("");
  return parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1];
}

/** cardList describes cards grouped by kind: "2 cars, 1 driver and 1 ring". */
export function cardList(cards) {
  if (!cards || cards.length === 0) return "no cards";
  const count = new Map();
  for (const k of cards) count.set(k, (count.get(k) || 0) + 1);
  return joinAnd(KINDS.filter((k) => count.has(k)).map((k) => plural(k, count.get(k))));
}

function article(kind) {
  const name = cardName(kind);
  return ("aeiou".includes(name[0]) ? "an " : "a ") + name;
}

/** narrate describes an event (engine JSON) in a sentence, naming the players. */
export function narrate(e, players) {
  const name = (seat) => (seat >= 0 && seat < players.length && players[seat]) || `seat ${seat + 1}`;
  switch (e.kind) {
    case "draw":
      if (e.card === "police") return `${name(e.seat)} draws police (${e.police} on the track).`;
      return `${name(e.seat)} draws ${article(e.card)}.`;
    case "thieves":
      return `${name(e.seat)} uses ${plural("thief", e.cards.length)} to take ${cardList(e.cards)}.`;
    case "auction":
      if (e.auction === "police") return "Police auction.";
      if (e.auction === "seventh") return "The row is full: auction.";
      return `${name(e.seat)} calls a forced auction.`;
    case "bid":
      return `${name(e.seat)} bids ${e.cheque}.`;
    case "pass":
      return `${name(e.seat)} passes.`;
    case "win":
      return `${name(e.seat)} wins with ${e.cheque}: takes ${cardList(e.cards)} and cheque ${e.centre} face down.`;
    case "nowinner":
      if (e.auction === "seventh") return `Nobody bids: ${cardList(e.cards)} leave the game.`;
      return "Nobody bids: the row stays.";
    case "roundend":
      if (e.policeLimit) return `Raid! Round ${e.round} ends with the last police card.`;
      return `Round ${e.round} ends: every cheque is spent.`;
    case "gameover": {
      const names = (e.winners || []).map(name);
      if (names.length === 1) return `${names[0]} wins the game.`;
      return `${joinAnd(names)} share the win.`;
    }
  }
  return `(${e.kind})`;
}

/** moveLabel describes a legal move token for a button. */
export function moveLabel(token) {
  const [verb, ...rest] = token.split(" ");
  switch (verb) {
    case "draw":
      return rest.length ? `Draw ${cardName(rest[0])}` : "Draw a card";
    case "call":
      return "Call an auction";
    case "pass":
      return "Pass";
    case "bid":
      return `Bid ${rest[0]}`;
    case "thief":
      return `Take ${cardList(rest)}`;
  }
  return token;
}
