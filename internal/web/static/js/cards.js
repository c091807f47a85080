// cards.js: the cards and cheques of the table, drawn in SVG and CSS in the
// rulebook's colours. Every face carries a symbol and a name as well, so
// that colour is never the only cue.

import { h } from "./dom.js";

/** KINDS lists the card tokens in the engine's order, police first. */
export const KINDS = [
  "police", "ring", "watch", "brooch", "necklace", "diamond", "bodyguard", "car", "driver",
  "thief", "gold", "casino", "transport", "cinema", "racetrack", "realestate", "nightclub", "restaurant",
];

export const JEWELS = ["ring", "watch", "brooch", "necklace", "diamond"];
export const BUSINESSES = ["casino", "transport", "cinema", "racetrack", "realestate", "nightclub", "restaurant"];

/** CROSSED are the kinds printed with a cross: they leave after every scoring (R1, R15). */
export const CROSSED = new Set([...JEWELS, "driver", "thief", "gold"]);

/** family returns the colour family of a kind, a CSS class suffix. */
export function family(kind) {
  if (JEWELS.includes(kind)) return "jewel";
  if (BUSINESSES.includes(kind)) return "business";
  if (kind === "car" || kind === "driver") return "car";
  if (KINDS.includes(kind)) return kind; // police, bodyguard, thief, gold
  return "unknown";
}

/**
 * GROUPS are the holdings as the rulebook lays them out: one group per
 * scoring category, jewels and businesses stacked by kind.
 */
export const GROUPS = [
  ["bodyguards", ["bodyguard"]],
  ["cars", ["car", "driver"]],
  ["jewels", JEWELS],
  ["thieves", ["thief"]],
  ["gold", ["gold"]],
  ["businesses", BUSINESSES],
];

// Symbols on a 24×24 grid, in currentColor; our own static markup.
const S = (body) => `<svg viewBox="0 0 24 24" focusable="false" aria-hidden="true">${body}</svg>`;
const stroke = 'fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"';
const SYMBOLS = {
  police: S('<path d="M12 1.8 20.5 5v6.2c0 5.3-3.6 9.4-8.5 11-4.9-1.6-8.5-5.7-8.5-11V5z"/><path fill="#fff" d="m12 6.6 1.6 3.3 3.6.5-2.6 2.5.6 3.6-3.2-1.7-3.2 1.7.6-3.6-2.6-2.5 3.6-.5z"/>'),
  ring: S(`<circle cx="12" cy="15" r="6" ${stroke}/><path d="M8.5 2.5h7l2 3-5.5 4.5-5.5-4.5z"/>`),
  watch: S(`<rect x="8.5" y="1.5" width="7" height="5" rx="1.2"/><rect x="8.5" y="17.5" width="7" height="5" rx="1.2"/><circle cx="12" cy="12" r="6.6" ${stroke}/><path d="M12 8.8V12l2.4 1.6" ${stroke}/>`),
  brooch: S(`<ellipse cx="12" cy="12" rx="9" ry="7" ${stroke}/><circle cx="12" cy="12" r="3.4"/><circle cx="6.5" cy="12" r="1.3"/><circle cx="17.5" cy="12" r="1.3"/><circle cx="12" cy="6.8" r="1.1"/><circle cx="12" cy="17.2" r="1.1"/>`),
  necklace: S(`<path d="M3.5 2.5c0 8 3.8 12 8.5 12s8.5-4 8.5-12" ${stroke}/><path d="m12 13.5 3.6 3.8L12 22l-3.6-4.7z"/>`),
  diamond: S('<path d="M6.5 3h11l4.5 6-10 12.5L2 9z"/><path d="M2.6 9h18.8M9 3.4 8 9l4 12M15 3.4 16 9l-4 12" fill="none" stroke="#fff" stroke-width="1.1" opacity=".75"/>'),
  bodyguard: S('<circle cx="12" cy="7" r="4.6"/><path d="M3.5 22.5c0-5.3 3.8-8.6 8.5-8.6s8.5 3.3 8.5 8.6z"/><path fill="#fff" d="M7.3 5.8h9.4v1.5c0 1.3-1 2.2-2.2 2.2h-.6c-.9 0-1.6-.7-1.9-1.5-.3.8-1 1.5-1.9 1.5h-.6c-1.2 0-2.2-.9-2.2-2.2z"/><path fill="#fff" d="m12 14.2 1.2 1.8L12 21.5l-1.2-5.5z"/>'),
  car: S('<path d="M2.5 14.5 4.8 9c.4-.9 1.2-1.5 2.2-1.5h10c1 0 1.8.6 2.2 1.5l2.3 5.5v4h-19z"/><path fill="#fff" d="M6.3 12.8 7.6 9.6h3.6v3.2zm6.5 0V9.6h3.6l1.3 3.2z"/><circle cx="7" cy="18.5" r="2.4"/><circle cx="17" cy="18.5" r="2.4"/><circle cx="7" cy="18.5" r="1" fill="#fff"/><circle cx="17" cy="18.5" r="1" fill="#fff"/>'),
  driver: S(`<circle cx="12" cy="12" r="9" ${stroke}/><circle cx="12" cy="12" r="2.4"/><path d="M3.4 11h6.2M14.4 11h6.2M12 14.4v6.4" ${stroke}/>`),
  thief: S('<path fill-rule="evenodd" d="M1.5 9.5C5 7 19 7 22.5 9.5c-.6 5.6-5.2 7-7.6 4.6L12 12l-2.9 2.1C6.7 16.5 2.1 15.1 1.5 9.5zm5 .3c1.6-.6 3.2-.3 3.9.9-1.3 1.6-3.2 1.9-4.6.8zm11 0c-1.6-.6-3.2-.3-3.9.9 1.3 1.6 3.2 1.9 4.6.8z"/><path d="M5.5 5.5C8 3 16 3 18.5 5.5" fill="none" stroke="currentColor" stroke-width="2"/>'),
  gold: S('<circle cx="12" cy="12" r="9.5"/><circle cx="12" cy="12" r="6.6" fill="none" stroke="#fff" stroke-width="1.3" opacity=".8"/><path fill="#fff" d="M12.9 7v1.1c1.3.2 2.3 1 2.5 2.3h-1.9c-.1-.5-.6-.8-1.4-.8-.9 0-1.4.4-1.4.9 0 .6.6.8 1.7 1.1 1.7.4 3.2.9 3.2 2.7 0 1.3-1 2.3-2.7 2.5V18h-1.6v-1.2c-1.6-.2-2.7-1.1-2.8-2.6h1.9c.1.6.7 1 1.6 1s1.6-.4 1.6-1c0-.6-.5-.8-1.8-1.1-1.5-.4-3.1-.8-3.1-2.6 0-1.3 1-2.2 2.6-2.4V7z"/>'),
  casino: S('<rect x="3" y="3" width="18" height="18" rx="3.5"/><g fill="#fff"><circle cx="8" cy="8" r="1.7"/><circle cx="16" cy="8" r="1.7"/><circle cx="12" cy="12" r="1.7"/><circle cx="8" cy="16" r="1.7"/><circle cx="16" cy="16" r="1.7"/></g>'),
  transport: S('<path d="M1.5 5.5h12.5v11H1.5zM15 9h4.2l3.3 3.8v3.7H15z"/><circle cx="6" cy="18.3" r="2.4"/><circle cx="18" cy="18.3" r="2.4"/><circle cx="6" cy="18.3" r="1" fill="#fff"/><circle cx="18" cy="18.3" r="1" fill="#fff"/>'),
  cinema: S('<rect x="3" y="10" width="18" height="11" rx="1.5"/><path d="m2.6 5.2 17.2-3.4.9 4.3L3.5 9.5z"/><path fill="#fff" d="m6 4.6 2.7-.5-1 3.8-2.7.5zm5.5-1.1 2.7-.5-1 3.8-2.7.5z"/><path fill="#fff" d="m10 13 5.5 2.5L10 18z"/>'),
  racetrack: S('<path d="M4.5 2v20" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/><path d="M5.5 3h15v11h-15z"/><path fill="#fff" d="M5.5 3h3.75v3.67H5.5zm7.5 0h3.75v3.67H13zM9.25 6.67H13v3.66H9.25zm7.5 0h3.75v3.66h-3.75zM5.5 10.33h3.75V14H5.5zm7.5 0h3.75V14H13z"/>'),
  realestate: S('<path d="M12 2.5 22 11h-3v10.5h-5.2v-6.3h-3.6v6.3H5V11H2z"/>'),
  nightclub: S('<path d="M3.5 3.5h17l-7.2 8.3v6.7h4.2v2.5h-11v-2.5h4.2v-6.7z"/><path fill="#fff" d="M7 6.2h10l-1.8 2H8.8z"/><circle cx="17.8" cy="2.8" r="1.8" fill="none" stroke="currentColor" stroke-width="1.2"/>'),
  restaurant: S(`<path d="M7 2v6.5M4.5 2v4.2a2.5 2.5 0 0 0 5 0V2M7 8.7V22" ${stroke}/><path d="M16.5 2c3.4 2 3.4 9 0 10.5V22" ${stroke}/>`),
};

const UNKNOWN = S('<circle cx="12" cy="12" r="9"/>');

/** symbol returns the SVG markup of a kind's symbol. */
export function symbol(kind) {
  return SYMBOLS[kind] || UNKNOWN;
}

// The symbols are drawn once, into a sprite in the page, and each card
// uses its own: a table shows dozens of cards and redraws often, and a
// card that copies no paths costs a fraction. Without a page (the tests
// under node) a card carries its markup.
const NS = "http://www.w3.org/2000/svg";
let sprited = false;

function sprite() {
  if (sprited) return true;
  if (typeof document === "undefined" || !document.body || !document.createElementNS) return false;
  const inner = (markup) => markup.replace(/^<svg[^>]*>/, "").replace(/<\/svg>$/, "");
  const box = document.createElement("div");
  box.innerHTML = `<svg xmlns="${NS}" class="sprite" aria-hidden="true" focusable="false">` +
    Object.entries({ ...SYMBOLS, unknown: UNKNOWN, back: BACK })
      .map(([k, markup]) => `<symbol id="sym-${k}" viewBox="0 0 24 24">${inner(markup)}</symbol>`).join("") + "</svg>";
  document.body.appendChild(box.firstChild);
  sprited = true;
  return true;
}

// use returns an svg that shows the sprite's symbol id.
function use(id) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("aria-hidden", "true");
  const u = document.createElementNS(NS, "use");
  u.setAttribute("href", `#sym-${id}`);
  svg.appendChild(u);
  return svg;
}

// ART holds each kind's symbol, made once: copies are cheap.
const ART = new Map();

function art(kind) {
  let s = ART.get(kind);
  if (!s) {
    s = h("span", { class: "card-sym", "aria-hidden": "true" });
    if (sprite()) s.appendChild(use(SYMBOLS[kind] ? kind : "unknown"));
    else s.innerHTML = symbol(kind);
    if (!s.cloneNode) return s;
    ART.set(kind, s);
  }
  return s.cloneNode(true);
}

/**
 * card returns a card face: a symbol, the name and, for crossed kinds, the
 * cross. opts: size ("mini"), count (a badge "×3"), label (the accessible
 * name, by default the card's name), tag (the element, such as "button"),
 * attrs (more attributes).
 */
export function card(kind, t, opts = {}) {
  const name = t(`card.${kind}`);
  const crossed = CROSSED.has(kind);
  const label = opts.label || (opts.count > 1 ? t(`card.${kind}.count`, { n: opts.count }) : name) +
    (crossed ? ` (${t("group.crossed")})` : "");
  const tag = opts.tag || "div";
  const attrs = {
    class: `card f-${family(kind)} k-${kind}${opts.size ? " card-" + opts.size : ""}${opts.extra ? " " + opts.extra : ""}`,
    "data-kind": kind,
    ...(opts.attrs || {}),
  };
  if (tag === "div" || tag === "li") {
    attrs.role = "img";
    attrs["aria-label"] = label;
  } else {
    attrs["aria-label"] = attrs["aria-label"] || label;
  }
  return h(tag, attrs,
    h("span", { class: "card-band", "aria-hidden": "true" }),
    art(kind),
    h("span", { class: `card-name${name.length > 13 ? " name-xlong" : name.length > 8 ? " name-long" : ""}`, "aria-hidden": "true" }, breakable(name)),
    crossed ? h("span", { class: "card-cross", "aria-hidden": "true", title: t("group.crossed") }, "✕") : null,
    opts.count > 1 ? h("span", { class: "card-count", "aria-hidden": "true" }, `×${opts.count}`) : null);
}

const BACK = S('<path d="M12 3 21 12 12 21 3 12z" fill="none" stroke="currentColor" stroke-width="1.4"/><path d="M12 7.5 16.5 12 12 16.5 7.5 12z"/>');

// BREAKS are where the long words of the card names of every language
// may break, as a dictionary splits them: a browser's own hyphenation
// depends on dictionaries a phone may lack. TestCardNamesBreak checks
// that every word of seven letters or more is here.
const BREAKS = new Map([
  "neck|lace", "body|guard", "trans|port", "race|track", "night|club", "restau|rant",
  "hals|snoer", "lijf|wacht", "chauf|feur", "trans|port|be|drijf", "film|zaal", "paarden|ren|baan", "immo|bi|liën", "nacht|club",
  "poli|ziotto", "oro|logio", "dia|mante", "gang|ster", "tra|sporto", "immo|bili", "risto|rante",
  "nyak|lánc", "arany|érme", "nehéz|fiú", "szállí|tás", "ló|verseny", "ingat|lan",
  "guarda|espal|das", "con|duc|tor", "trans|porte", "inmo|bilia|ria", "noc|turno", "restau|rante", "ca|rreras",
  "poli|zist", "hals|kette", "leib|wächter", "gold|münze", "spedi|tion", "renn|bahn", "immo|bilien",
  "dia|mond", "uur|werk", "dia|mant", "col|lana", "au|tista", "gyé|mánt", "ka|szinó", "ét|terem", "poli|cía", "sor|tija", "bro|sche",
].map((w) => [w.replaceAll("|", ""), w.split("|")]));

/**
 * breakable returns a card's name with soft hyphens where its long words
 * may break (BREAKS), so that a narrow card breaks "body-guard" or not
 * at all, never "bodygua rd".
 */
export function breakable(name) {
  return name.split(" ").map((word) => {
    const parts = BREAKS.get(word.toLowerCase());
    if (!parts) return word;
    let at = 0;
    return parts.map((p) => word.slice(at, (at += p.length))).join("\u00ad");
  }).join(" ");
}

/** back returns a face-down card (a pile). */
export function back(extra) {
  const b = h("span", { class: `card card-back${extra ? " " + extra : ""}`, "aria-hidden": "true" });
  if (sprite()) b.appendChild(use("back"));
  else b.innerHTML = BACK;
  return b;
}

/**
 * cheque returns a cheque: its value in thousands, big. opts.down marks a
 * cheque won this round (face down: usable from the next round), opts.tag
 * and opts.attrs make it a button.
 */
export function cheque(value, t, opts = {}) {
  const tag = opts.tag || "span";
  const label = opts.label || t(opts.down ? "web.cheque.down" : "web.cheque", { value });
  const attrs = {
    class: `cheque${opts.down ? " cheque-down" : ""}${opts.extra ? " " + opts.extra : ""}`,
    ...(opts.attrs || {}),
  };
  if (tag === "span" || tag === "div" || tag === "li") attrs.role = "img";
  attrs["aria-label"] = label;
  return h(tag, attrs,
    h("span", { class: "cheque-value", "aria-hidden": "true" }, String(value)),
    opts.unit ? h("span", { class: "cheque-unit", "aria-hidden": "true" }, opts.unit) : null);
}

/**
 * chip returns a small token of n cards of a kind: its symbol on its
 * family's colour and, above one, the count; label is its accessible name
 * (such as "2 bodyguards"), shown on hover too.
 */
export function chip(kind, n, label) {
  return h("span", { class: `chip-card f-${family(kind)} k-${kind}`, role: "img", "aria-label": label, title: label,
    "data-kind": kind, "data-count": String(n) },
  art(kind), n > 1 ? h("span", { class: "chip-n", "aria-hidden": "true" }, String(n)) : null);
}
