// hints.js: the "What would the bot do?" part of a live table's decision
// panel, and the shares written as percentages that the analysis, luck
// and puzzle pages share. Apart from analysis.js so that a table's first
// load does not carry the replay's chart and verdicts.

import { h } from "./dom.js";
import { request } from "./api.js";
import { moveLabel } from "./words.js";

/** percent writes a share (0 to 1) as a whole percentage. */
export function percent(x) {
  return `${Math.round(x * 100)}%`;
}

/** signedPercent writes a difference of shares as a signed whole percentage: "+12%", "−4%". */
export function signedPercent(x) {
  const n = Math.round(x * 100);
  return n > 0 ? `+${n}%` : n < 0 ? `\u2212${-n}%` : "0%";
}

/** fetchHints asks for the best moves of the seat the page holds. */
export const fetchHints = (id) => request("POST", `/api/games/${encodeURIComponent(id)}/hints`);

/**
 * hintsBox is the "What would the bot do?" part of the decision panel:
 * a button, then the moves the engine likes best with the chance of
 * winning after each. hints is {moves, list?, busy?, error?} for the
 * position it was asked at; ask() asks.
 */
export function hintsBox(t, v, hints, ask) {
  const fresh = hints && hints.moves === v.moves ? hints : null;
  const body = [];
  if (fresh && fresh.list) {
    body.push(h("ol", { class: "hints-list", id: "hints-list", "aria-labelledby": "hints-h" },
      fresh.list.map((x) => h("li", { class: "hint", "data-move": x.move },
        h("span", { class: "hint-move" }, moveLabel(t, x.move)), " ",
        h("span", { class: "hint-chance" }, t("web.hints.chance", { chance: percent(x.winChance) }))))));
  } else if (fresh && fresh.error) {
    body.push(h("p", { class: "hints-error", role: "alert" }, fresh.error));
  }
  return h("div", { class: "hints", id: "hints" },
    fresh && fresh.list
      ? h("h3", { class: "hints-h", id: "hints-h" }, t("web.hints.title"))
      : h("button", { type: "button", class: "hints-ask", id: "hints-ask", disabled: !!(fresh && fresh.busy), onclick: ask },
        fresh && fresh.busy ? t("web.hints.thinking") : t("web.hints.ask")),
    body);
}
