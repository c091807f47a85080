// challengeform.js: the lobby's panel to challenge people by name (a
// profile's "Challenge" opens it filled in: /?challenge-to=NAME, and a
// game's end with its pace too: &challenge-pace=ID&challenge-rated=1), and the
// list of the person's challenges with their answers.

import { onSubmit } from "./forms.js";
import { h, replace, $ } from "./dom.js";
import * as meet from "./meet.js";
import { addPersonAction, drawOnline } from "./online.js";
import { errorText } from "./errors.js";
import { onChallenges, describe, left, refreshChallenges, answer } from "./challenges.js";

let t = (k) => k;
let me; // undefined until the account is known
let list = [];
let listed = false; // the person's challenges have come from the server
let askedPace = ""; // the pace the address asks for, until the paces come

function showError(text) {
  const el = $("challenge-error");
  el.textContent = text || "";
  el.hidden = !text;
}

/** answerText says how one person answered. */
function answerText(x) {
  if (x.answer === "accept") return t("web.challenge.answer.accept", { name: x.name });
  if (x.answer === "decline") return t("web.challenge.answer.decline", { name: x.name, reason: t(`web.challenge.reason.${x.reason || "generic"}`) });
  return t("web.challenge.answer.none", { name: x.name });
}

function item(c) {
  const title = c.mine ? t("web.challenge.to", { names: c.to.map((x) => x.name).join(", ") }) : t("web.challenge.from", { name: c.from });
  return h("li", { class: `challenge challenge-${c.status}`, "data-challenge": c.id },
    h("span", { class: "challenge-title" }, title),
    h("span", { class: "challenge-status" }, t(`web.challenge.status.${c.status}`),
      c.status === "open" ? [" · ", h("span", { class: "challenge-left", "data-expires": c.expires }, t("web.challenge.left", { left: left(c) }))] : null),
    h("span", { class: "seek-detail muted" }, describe(t, c)),
    c.mine ? h("ul", { class: "chips" }, c.to.map((x) => h("li", { class: `chip${x.answer === "accept" ? " chip-win" : ""}` }, answerText(x)))) : null,
    c.mine && c.status === "open"
      ? h("button", { type: "button", class: "small", onclick: () => cancel(c) }, t("web.challenge.cancel")) : null,
    !c.mine && c.status === "open" ? answers(c) : null,
    c.game ? h("a", { href: `/g/${encodeURIComponent(c.game)}` }, t("web.playnow.open")) : null);
}

/** answers are the buttons of a challenge to the reader, as its notice has them. */
function answers(c) {
  const reason = h("select", { class: "challenge-reason", "aria-label": t("web.challenge.reason") },
    meet.REASONS.map((r) => h("option", { value: r }, t(`web.challenge.reason.${r}`))));
  return h("span", { class: "challenge-answers" },
    h("button", { type: "button", class: "primary small", onclick: () => answer(c, true) }, t("web.challenge.accept")),
    reason,
    h("button", { type: "button", class: "small", onclick: () => answer(c, false, reason.value) }, t("web.challenge.decline")));
}

function draw() {
  // Until the account is known the page keeps the server's layout.
  if (me !== undefined) {
    const signedIn = Boolean(me);
    $("challenge").hidden = me === false; // a server without accounts has no challenges
    $("challenge-guest").hidden = signedIn || me === false;
    $("challenge-guest").classList.remove("pending");
    $("challenge-form").hidden = !signedIn;
  }
  $("challenges-h").hidden = list.length === 0;
  replace($("challenges-list"), list.map(item));
  // Until the language and the list have come the line keeps its title.
  if (t.has) $("challenges-jump").textContent = listed ? t("lobby.challenges.jump", { n: list.length }) : t("web.challenge.list");
}

async function submit(ev) {
  ev.preventDefault();
  showError(null);
  const to = $("challenge-to").value.split(",").map((s) => s.trim()).filter(Boolean);
  if (to.length === 0) {
    showError(t("web.challenge.noone"));
    $("challenge-to").focus();
    return;
  }
  const button = $("challenge-submit");
  button.disabled = true;
  try {
    await meet.challenge(to, $("challenge-pace").value, $("challenge-rated").checked);
    $("challenge-to").value = "";
    await refreshChallenges();
  } catch (err) {
    showError(errorText(t, err));
  } finally {
    button.disabled = false;
  }
}

async function cancel(c) {
  try {
    await meet.cancelChallenge(c.id);
  } catch (err) {
    showError(errorText(t, err));
  }
  refreshChallenges();
}

/** addName adds a person to the names challenged (several make a table of more) and brings the form to hand. */
function addName(name) {
  const field = $("challenge-to");
  const names = field.value.split(",").map((s) => s.trim()).filter(Boolean);
  if (!names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name);
  field.value = names.join(", ");
  $("challenge").scrollIntoView({ block: "center" });
  field.focus();
}

/** personAction is the online list's button to challenge a signed-in person, for a signed-in reader. */
function personAction(tr, p) {
  if (!me || p.you || p.guest) return null;
  return h("button", { type: "button", class: "small person-challenge", "aria-label": tr("web.challenge.person", { name: p.name }),
    onclick: () => addName(p.name) }, tr("web.challenge.submit"));
}

/** setupChallengeForm starts the panel; a name in the address fills the form. */
export function setupChallengeForm() {
  onSubmit("challenge-form", submit);
  addPersonAction(personAction);
  const q = new URLSearchParams(location.search);
  const to = q.get("challenge-to");
  if (to) $("challenge-to").value = to;
  askedPace = q.get("challenge-pace") || "";
  if (q.get("challenge-rated") === "1") $("challenge-rated").checked = true;
  let scrolled = false;
  onChallenges((cs, account) => {
    list = cs;
    // Told with an account, the list is the server's (challenges.js reads it first).
    listed = listed || Boolean(account);
    setMe(account);
    if (to && account && !scrolled) {
      scrolled = true;
      $("challenge").scrollIntoView({ block: "center" });
    }
  });
}

/** drawChallengeForm redraws the panel in the language t for the account. */
export function drawChallengeForm(tr, account) {
  t = tr;
  setMe(account);
}

// setMe takes the account (null: a guest) and draws the panel; the
// online list's buttons follow a change.
function setMe(account) {
  const was = me;
  me = account;
  draw();
  if (Boolean(was) !== Boolean(me)) drawOnline();
}

/** fillChallengePaces offers the server's paces. */
export function fillChallengePaces(paces) {
  const select = $("challenge-pace");
  const was = (paces.some((p) => p.id === askedPace) && askedPace) || select.value || "rapid";
  askedPace = "";
  replace(select, paces.map((p) => h("option", { value: p.id, selected: p.id === was }, p.name)));
}
