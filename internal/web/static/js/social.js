// social.js: on a player's profile (#player-social), whether they are
// online (doing what, with a link to watch) or when they were last seen,
// their finish rate, and for a signed-in reader Follow and Block.

import { h, replace } from "./dom.js";
import * as api from "./api.js";
import { errorText } from "./errors.js";
import { finishText, finishTitle } from "./online.js";
import { ago } from "./presence.js";

let state = null; // the PlayerPresence answer
let failure = null;
let busy = false;
let shown = { name: "", me: null, t: (k) => k };

const path = (name) => `/api/players/${encodeURIComponent(name)}`;

// REFRESH_MS is how often a shown profile asks again whether its player
// is online.
const REFRESH_MS = 10000;
let refreshing = false;

/** loadSocial fetches the player's presence (and again every few seconds while the page is shown); drawSocial shows it. */
export async function loadSocial(name) {
  try {
    state = await api.request("GET", `${path(name)}/presence`);
    failure = null;
  } catch (err) {
    failure = err;
  }
  if (!refreshing) {
    refreshing = true;
    setInterval(async () => {
      if (document.visibilityState !== "visible" || busy || !shown.name) return;
      await loadSocial(name);
      drawSocial(shown.t, shown.name, shown.me);
    }, REFRESH_MS);
  }
}

async function toggle(kind, on) {
  busy = true;
  drawSocial(shown.t, shown.name, shown.me);
  try {
    state = await api.request(on ? "PUT" : "DELETE", `${path(shown.name)}/${kind}`);
    failure = null;
  } catch (err) {
    failure = err;
  }
  busy = false;
  drawSocial(shown.t, shown.name, shown.me);
}

/** drawSocial draws the profile's presence, finish rate and buttons for the reader me (null: a guest). */
export function drawSocial(t, name, me) {
  shown = { name, me, t };
  const box = document.getElementById("player-social");
  if (!box) return;
  if (!state) {
    replace(box, failure ? h("p", { class: "notice notice-error" }, errorText(t, failure)) : null);
    return;
  }
  const s = state;
  const line = s.online
    ? [h("span", { class: `presence-dot dot-${s.away ? "away" : s.activity}`, "aria-hidden": "true" }),
      h("strong", { id: "player-online" }, t("social.profile.online")),
      " · ", t(s.away ? "social.away" : `social.activity.${s.activity}`),
      s.game ? [" · ", h("a", { href: `/g/${encodeURIComponent(s.game)}` }, t("social.watch"))] : null]
    : [h("span", { class: "presence-dot dot-offline", "aria-hidden": "true" }),
      h("span", { id: "player-online" }, s.lastSeen ? t("social.profile.seen", { when: ago(s.lastSeen) }) : t("social.profile.never"))];
  const buttons = me && !s.you ? h("div", { class: "social-buttons" },
    h("button", { type: "button", id: "follow", class: s.following ? "" : "primary", disabled: busy, "aria-pressed": String(s.following),
      onclick: () => toggle("follow", !s.following) }, t(s.following ? "social.unfollow" : "social.follow")),
    h("button", { type: "button", id: "block", class: "danger", disabled: busy, "aria-pressed": String(s.blocking),
      title: t("social.block.about"), onclick: () => toggle("block", !s.blocking) }, t(s.blocking ? "social.unblock" : "social.block"))) : null;
  replace(box,
    h("p", { class: "player-presence" }, line),
    h("p", {}, t("social.profile.finish"), ": ",
      h("strong", { id: "finish-rate", title: finishTitle(t, s.finish) }, finishText(t, s.finish)),
      s.finish.games > 0 ? h("span", { class: "muted" }, " · ", finishTitle(t, s.finish)) : null),
    h("p", { class: "muted", id: "followers" }, t("social.followers", { n: s.followers || 0 })),
    s.blocking ? h("p", { class: "muted", id: "blocked-note" }, t("social.block.about")) : null,
    buttons,
    failure ? h("p", { class: "notice notice-error", role: "alert" }, errorText(t, failure)) : null);
}
