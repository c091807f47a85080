// account.js: the account page: sign in or register (password or
// passkey) as a guest; signed in, the account's settings.

import { h, replace, $ } from "./dom.js";
import * as api from "./api.js";
import { start } from "./page.js";
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
  try {
    me = await whoami();
  } catch (err) {
    me = null;
    $("account-status").textContent = errorText(t, err);
  }
  draw();
}

/** busy disables the buttons while a request runs, and re-enables them after. */
async function busy(buttons, f) {
  for (const b of buttons) $(b).disabled = true;
  try {
    await f();
  } finally {
    for (const b of buttons) $(b).disabled = false;
  }
}

/** signedIn follows a registration or sign-in: back where the player came from, else here. */
function signedIn() {
  const back = new URLSearchParams(location.search).get("back");
  if (back && back.startsWith("/") && !back.startsWith("//")) location.assign(back);
  else reload();
}

$("signin-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  showError("signin-error", null);
  busy(["signin", "signin-passkey"], async () => {
    try {
      await api.request("POST", "/api/session", { name: $("signin-name").value, password: $("signin-password").value });
      $("signin-password").value = "";
      signedIn();
    } catch (err) {
      showError("signin-error", err);
    }
  });
});

$("signin-passkey").addEventListener("click", () => {
  showError("signin-error", null);
  busy(["signin", "signin-passkey"], async () => {
    try {
      await signInPasskey();
      signedIn();
    } catch (err) {
      showError("signin-error", passkeyError(t, err));
    }
  });
});

$("register-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  showError("register-error", null);
  busy(["register", "register-passkey"], async () => {
    try {
      await api.request("POST", "/api/account", { name: $("register-name").value, password: $("register-password").value });
      $("register-password").value = "";
      signedIn();
    } catch (err) {
      showError("register-error", err);
    }
  });
});

$("register-passkey").addEventListener("click", () => {
  showError("register-error", null);
  const name = $("register-name").value.trim();
  if (!name) {
    showError("register-error", t("error.bad_name"));
    return;
  }
  busy(["register", "register-passkey"], async () => {
    try {
      await registerPasskey(name, t("web.account.passkey"));
      signedIn();
    } catch (err) {
      showError("register-error", passkeyError(t, err));
    }
  });
});

$("password-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  showError("password-error", null);
  $("password-done").hidden = true;
  busy(["password-save"], async () => {
    try {
      const { account } = await api.request("POST", "/api/account/password", { old: $("password-old").value, new: $("password-new").value });
      me = account;
      $("password-old").value = "";
      $("password-new").value = "";
      $("password-done").textContent = t("web.account.password.changed");
      $("password-done").hidden = false;
      draw();
    } catch (err) {
      showError("password-error", err);
    }
  });
});

$("passkey-add").addEventListener("click", () => {
  showError("passkey-error", null);
  busy(["passkey-add"], async () => {
    try {
      const { account } = await registerPasskey("", t("web.account.passkey"));
      me = account;
      draw();
    } catch (err) {
      showError("passkey-error", passkeyError(t, err));
    }
  });
});

async function removePasskey(id) {
  showError("passkey-error", null);
  try {
    const { account } = await api.request("DELETE", `/api/passkeys/${encodeURIComponent(id)}`);
    me = account;
    draw();
  } catch (err) {
    showError("passkey-error", err);
  }
}

for (const [id, path] of [["signout", "/api/session"], ["signout-everywhere", "/api/sessions"]]) {
  $(id).addEventListener("click", () => busy([id], async () => {
    try {
      await api.request("DELETE", path);
      reload();
    } catch (err) {
      showError("me-error", err);
    }
  }));
}

$("delete").addEventListener("click", () => {
  if (!confirm(t("web.account.delete.confirm"))) return;
  busy(["delete"], async () => {
    try {
      await api.request("DELETE", "/api/account");
      reload();
    } catch (err) {
      showError("delete-error", err);
    }
  });
});

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
