// page.js: what every page shares: the language switch and the rules
// summary dialog (#rules-button opens <dialog id="rules">).

import { setup } from "./i18n.js";
import { h, replace } from "./dom.js";
import { onClick } from "./forms.js";
import { startLive } from "./live.js";
import { whoami } from "./players.js";

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

let current = null; // the page's translator, once its catalogue came
// personal: the modules that only a signed-in person's page needs (the
// operators' notices, moderation.js; their challenges, challenges.js),
// loaded when the page learns that someone is signed in: a guest's page
// never fetches them.
let personal = null;

/**
 * personChanged asks who is signed in again (after a sign-in or out on
 * this page) and, for a person, brings their modules.
 */
export async function personChanged(fresh = true) {
  let who = null;
  try {
    who = await whoami(fresh);
  } catch {
    return; // the server is away: the next visit asks again
  }
  if (personal) {
    // Signed out, or in as someone else: their record is read again.
    personal.then(([moderation]) => moderation.reloadModeration(), () => {});
    return;
  }
  if (!who) return;
  const t = () => current || ((k) => k);
  personal = Promise.all([import("./moderation.js"), import("./challenges.js")]).then(([moderation, challenges]) => {
    moderation.watchModeration(t);
    challenges.watchChallenges(() => current);
    return [moderation, challenges];
  });
  personal.catch(() => (personal = null)); // not loaded (offline): the next change tries again
}

/**
 * start sets up the language (calling onLanguage(t) now and on every
 * switch) and the rules dialog; it resolves to the first translator.
 */
export async function start(onLanguage) {
  const dialog = document.getElementById("rules");
  const button = document.getElementById("rules-button");
  const fill = () => {
    if (!dialog || !current) return;
    document.getElementById("rules-h").textContent = current("rules.title");
    replace(document.getElementById("rules-body"), rulesContent(current));
  };
  if (button && dialog) {
    onClick("rules-button", () => {
      fill();
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    });
    // A click on the backdrop (outside the box) closes it too.
    dialog.addEventListener("click", (ev) => {
      if (ev.target === dialog) dialog.close();
    });
  }
  // The person's sanctions and the operators' news of them, and their
  // challenges: for a signed-in person only.
  personChanged(false);
  // Every page keeps its person online while it is open (live.js).
  startLive(() => current || ((k) => k));
  return setup((t, tag) => {
    current = t;
    if (dialog && dialog.open) fill();
    onLanguage(t, tag);
    if (personal) {
      personal.then(([moderation, challenges]) => {
        moderation.redrawModeration();
        challenges.redrawChallenges();
      }, () => {});
    }
  });
}
