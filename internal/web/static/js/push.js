// push.js: the notifications page (/account/push): a signed-in player
// turns Web Push on or off for this device (the service worker /sw.js,
// PushManager.subscribe with the server's key, the subscription posted to
// the server) and chooses what is sent to all their devices. A guest is
// told that push needs an account.

import { $ } from "./dom.js";
import { onClick } from "./forms.js";
import * as api from "./api.js";
import { start } from "./page.js";
import { translator } from "./i18n.js";
import { whoami, showAccount, errorText } from "./players.js";

let t = translator({}, {});
let lang = "en";
let me; // the account, null for a guest, false without accounts; undefined while loading
let available = true; // the server sends push
let settings = null; // the server's answer of GET /api/push/settings
let subscribed = false; // this device has a subscription
const KINDS = { "push-turn": "turn", "push-gameover": "gameOver", "push-reminder": "reminder" };

/** supported reports whether this browser can receive Web Push on this page. */
function supported() {
  return globalThis.isSecureContext && "serviceWorker" in navigator && "PushManager" in globalThis && "Notification" in globalThis;
}

function showError(id, err) {
  const el = $(id);
  el.textContent = err ? (typeof err === "string" ? err : err.code ? errorText(t, err) : String(err.message || err)) : "";
  el.hidden = !err;
}

function draw() {
  showAccount(t, me ?? null);
  const status = $("push-status");
  $("push-guest").hidden = me !== null;
  $("push-settings").hidden = !me || !available;
  if (me === undefined) {
    status.textContent = t("web.lobby.loading");
    return;
  }
  status.textContent = me === false || (me && !available) ? t("web.push.none") : "";
  if (!me || !available) return;
  const can = supported();
  const blocked = can && Notification.permission === "denied";
  $("push-state").textContent = !can ? t("web.push.unsupported") : blocked ? t("web.push.blocked") : t(subscribed ? "web.push.on" : "web.push.off");
  $("push-enable").hidden = !can || subscribed;
  $("push-disable").hidden = !can || !subscribed;
  $("push-enable").disabled = blocked;
  if (settings) {
    $("push-devices").textContent = t("web.push.devices", { count: settings.devices });
    for (const [id, key] of Object.entries(KINDS)) $(id).checked = settings.settings[key];
  }
}

/** bytes decodes base64url, as the server's key comes. */
function bytes(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** sameKey reports whether a subscription was made with the key. */
function sameKey(sub, key) {
  const had = sub.options && sub.options.applicationServerKey;
  if (!had) return false;
  const a = new Uint8Array(had);
  const b = bytes(key);
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** current returns this device's subscription, or null. */
async function current() {
  if (!supported()) return null;
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

async function enable() {
  const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  if ((await Notification.requestPermission()) !== "granted") throw t("web.push.blocked");
  const { key } = await api.request("GET", "/api/push/key");
  let sub = await reg.pushManager.getSubscription();
  if (sub && !sameKey(sub, key)) {
    await sub.unsubscribe(); // made for another server key: useless now
    sub = null;
  }
  sub = sub || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) }));
  await api.request("POST", "/api/push/subscriptions", { ...sub.toJSON(), lang });
  subscribed = true;
}

async function disable() {
  const sub = await current();
  if (sub) {
    try {
      await api.request("DELETE", `/api/push/subscriptions?endpoint=${encodeURIComponent(sub.endpoint)}`);
    } catch (err) {
      if (err.code !== "not_found") throw err; // not the server's: only the browser's to end
    }
    await sub.unsubscribe();
  }
  subscribed = false;
}

/** act runs f on a click, its button disabled meanwhile, then reloads the settings. */
function act(id, f) {
  onClick(id, async () => {
    showError("push-error", null);
    $(id).disabled = true;
    try {
      await f();
      await loadSettings();
    } catch (err) {
      showError("push-error", err);
    } finally {
      $(id).disabled = false;
      draw();
    }
  });
}

act("push-enable", enable);
act("push-disable", disable);

$("push-kinds").addEventListener("change", async () => {
  showError("push-kinds-error", null);
  $("push-saved").hidden = true;
  const body = {};
  for (const [id, key] of Object.entries(KINDS)) body[key] = $(id).checked;
  try {
    settings = await api.request("PUT", "/api/push/settings", body);
    $("push-saved").textContent = t("web.push.saved");
    $("push-saved").hidden = false;
  } catch (err) {
    showError("push-kinds-error", err);
  }
  draw();
});

async function loadSettings() {
  try {
    settings = await api.request("GET", "/api/push/settings");
  } catch (err) {
    if (err.code === "not_found") available = false;
    else throw err;
  }
}

async function load() {
  try {
    me = await whoami();
    if (me) {
      await loadSettings();
      subscribed = (await current()) !== null;
    }
  } catch (err) {
    if (me === undefined) me = null;
    $("push-status").textContent = errorText(t, err);
  }
  draw();
}

await start((tr, tag) => {
  t = tr;
  lang = tag || lang;
  draw();
});
draw();
load();
