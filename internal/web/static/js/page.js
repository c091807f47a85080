// page.js: what every page shares: the language switch and the rules
// summary dialog (#rules-button opens <dialog id="rules">).

import { setup } from "./i18n.js";
import { h, replace } from "./dom.js";
import { watchChallenges, redrawChallenges } from "./challenges.js";
import { startLive } from "./live.js";

/** SECTIONS of the rules summary, in reading order (as internal/i18n.RulesSections). */
const SECTIONS = ["goal", "cards", "setup", "turn", "auction", "police", "roundend", "scoring", "final"];

/** rulesContent builds the rules summary from the rules.* texts. */
export function rulesContent(t) {
  const out = [];
  for (const s of SECTIONS) {
    const items = [];
    for (let i = 1; t.has(`rules.${s}.${i}`); i++) items.push(h("li", {}, t(`rules.${s}.${i}`)));
    if (!items.length) continue;
    out.push(h("section", { class: "rules-section" }, h("h3", {}, t(`rules.${s}.title`)), h("ul", {}, items)));
  }
  return out;
}

/**
 * start sets up the language (calling onLanguage(t) now and on every
 * switch) and the rules dialog; it resolves to the first translator.
 */
export async function start(onLanguage) {
  let current = null;
  const dialog = document.getElementById("rules");
  const button = document.getElementById("rules-button");
  const fill = () => {
    if (!dialog || !current) return;
    document.getElementById("rules-h").textContent = current("rules.title");
    replace(document.getElementById("rules-body"), rulesContent(current));
  };
  if (button && dialog) {
    button.addEventListener("click", () => {
      fill();
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    });
    // A click on the backdrop (outside the box) closes it too.
    dialog.addEventListener("click", (ev) => {
      if (ev.target === dialog) dialog.close();
    });
  }
  watchChallenges(() => current);
  // Every page keeps its person online while it is open (live.js).
  startLive(() => current || ((k) => k));
  return setup((t, tag) => {
    current = t;
    if (dialog && dialog.open) fill();
    onLanguage(t, tag);
    redrawChallenges();
  });
}
