// account.js: the account page: sign in or register (password or
// passkey) as a guest; signed in, the account's settings.

import { onSubmit, onClick } from "./forms.js";
import { restartLive } from "./live.js";
import { h, replace, $ } from "./dom.js";
import * as api from "./api.js";
import { start, personChanged } from "./page.js";
import { translator } from "./i18n.js";
import { whoami, showAccount, ratingText, errorText, when, passkeys, registerPasskey, signInPasskey, passkeyError } from "./players.js";

let t = translator({}, {});
let me; // the account, null for a guest, false without accounts; undefined while loading
let minGames = 10;

function showError(id, err) {
  const el = $(id);
  el.textContent = err ? (typeof err === "string" ? err : errorText(t, err)) : "";
  el.hidden = !err;
}

function draw() {
  showAccount(t, me ?? null);
  const status = $("account-status");
  if (me === undefined) {
    status.textContent = t("web.lobby.loading");
    return;
  }
  status.textContent = me === false ? t("web.account.none") : "";
  $("signed-out").hidden = me !== null;
  $("signed-in").hidden = !me;
  const canPasskey = passkeys();
  $("signin-passkey").hidden = !canPasskey;
  $("register-passkey").hidden = !canPasskey;
  $("passkey-add").hidden = !canPasskey;
  if (!me) return;
  $("me-h").textContent = t("web.account.signedin", { name: me.name });
  $("me-rating").textContent = ratingText(t, me.rating, minGames);
  $("me-profile").href = me.profile;
  $("old-field").hidden = !me.password;
  $("password-h").textContent = t(me.password ? "web.account.password.change" : "web.account.password.set");
  replace($("passkey-list"), me.passkeys.length === 0
    ? h("li", { class: "muted" }, t("web.account.passkeys.none"))
    : me.passkeys.map((k) => h("li", { class: "passkey" },
      h("span", { class: "passkey-name" }, k.name || t("web.account.passkey")),
      h("span", { class: "muted" }, t("web.account.passkey.added", { date: when(k.created) })),
      h("button", { type: "button", class: "small", "data-passkey": k.id, "aria-label": t("web.account.passkey.remove.named", { name: k.name || t("web.account.passkey") }),
        onclick: () => removePasskey(k.id) }, t("web.account.passkey.remove")))));
}

async function reload() {
  if (me !== undefined) restartLive(); // signed in or out: the page's person changed
  try {
    me = await whoami(me !== undefined);
  } catch (err) {
    me = null;
    $("account-status").textContent = errorText(t, err);
  }
  draw();
  personChanged();
}

/**
 * act returns a handler that runs f with buttons disabled meanwhile and
 * explains its failure in the element errorId (passkey ceremonies also
 * explain the browser's refusals). clicked gives it to a button.
 */
function act(buttons, errorId, f, passkey = false) {
  return async () => {
    showError(errorId, null);
    for (const b of buttons) $(b).disabled = true;
    try {
      await f();
    } catch (err) {
      showError(errorId, passkey ? passkeyError(t, err) : err);
    } finally {
      for (const b of buttons) $(b).disabled = false;
    }
  };
}

/** clicked runs handler on a click of the button with the id. */
/** signedIn follows a registration or sign-in: back where the player came from, else here. */
function signedIn() {
  const back = new URLSearchParams(location.search).get("back");
  // Only a path of this site: no "//host", no "/\host".
  if (back && /^\/[\w\-/]*$/.test(back) && !back.startsWith("//")) location.assign(back);
  else reload();
}

/** changed shows the account as an answer gives it. */
function changed({ account }) {
  me = account;
  draw();
}

const signInButtons = ["signin", "signin-passkey"];
onSubmit("signin-form", act(signInButtons, "signin-error", async () => {
  await api.request("POST", "/api/session", { name: $("signin-name").value, password: $("signin-password").value });
  $("signin-password").value = "";
  signedIn();
}));
onClick("signin-passkey", act(signInButtons, "signin-error", async () => {
  await signInPasskey();
  signedIn();
}, true));

const registerButtons = ["register", "register-passkey"];
onSubmit("register-form", act(registerButtons, "register-error", async () => {
  await api.request("POST", "/api/account", { name: $("register-name").value, password: $("register-password").value });
  $("register-password").value = "";
  signedIn();
}));
onClick("register-passkey", act(registerButtons, "register-error", async () => {
  const name = $("register-name").value.trim();
  if (!name) throw new api.APIError(400, "bad_name", "no name");
  await registerPasskey(name, t("web.account.passkey"));
  signedIn();
}, true));

onSubmit("password-form", act(["password-save"], "password-error", async () => {
  $("password-done").hidden = true;
  changed(await api.request("POST", "/api/account/password", { old: $("password-old").value, new: $("password-new").value }));
  $("password-old").value = "";
  $("password-new").value = "";
  $("password-done").textContent = t("web.account.password.changed");
  $("password-done").hidden = false;
}));

onClick("passkey-add", act(["passkey-add"], "passkey-error", async () => changed(await registerPasskey("", t("web.account.passkey"))), true));

async function removePasskey(id) {
  showError("passkey-error", null);
  try {
    changed(await api.request("DELETE", `/api/passkeys/${encodeURIComponent(id)}`));
  } catch (err) {
    showError("passkey-error", err);
  }
}

onClick("signout", act(["signout"], "me-error", async () => {
  await api.request("DELETE", "/api/session");
  reload();
}));
onClick("signout-everywhere", act(["signout-everywhere"], "me-error", async () => {
  await api.request("DELETE", "/api/sessions");
  reload();
}));
onClick("delete", act(["delete"], "delete-error", async () => {
  if (!confirm(t("web.account.delete.confirm"))) return;
  await api.request("DELETE", "/api/account");
  reload();
}));

await start((tr) => {
  t = tr;
  draw();
});
draw();
try {
  minGames = (await api.request("GET", "/api/leaderboard")).minGames || minGames;
} catch {
  // the default stands
}
reload();
