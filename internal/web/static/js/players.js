// players.js: what the account pages and the lobby share: who is signed
// in, the header's account link, ratings as shown, and the passkey
// ceremonies of the WebAuthn API.

import * as api from "./api.js";
import { errorText } from "./errors.js";

let session = null; // the page's GET /api/session, asked once and shared

/**
 * whoami resolves to the signed-in account, null for a guest, or false
 * when the server has no accounts. Every module of a page shares one
 * answer; fresh asks again (the person signed in or out, or the page
 * was hidden a while).
 */
export function whoami(fresh = false) {
  if (!session || fresh) {
    // GET /api/session answers a guest too, where /api/account refuses one:
    // a guest's page logs no error.
    const p = api.request("GET", "/api/session").then(({ accounts, account }) => (accounts ? account || null : false));
    // A failure is not kept: the next caller asks again.
    p.catch(() => {
      if (session === p) session = null;
    });
    session = p;
  }
  return session;
}

/** showAccount names the signed-in player on the header's account link (#nav-account). */
export function showAccount(t, account) {
  const link = document.getElementById("nav-account");
  const board = document.getElementById("nav-leaderboard");
  if (!link) return;
  link.hidden = account === false;
  if (board) board.hidden = account === false;
  if (account) {
    link.removeAttribute("data-i18n");
    link.textContent = account.name;
    link.setAttribute("aria-label", t("web.account.signedin", { name: account.name }));
  } else {
    link.setAttribute("data-i18n", "web.nav.signin");
    link.textContent = t("web.nav.signin");
    link.removeAttribute("aria-label");
  }
}

/** number prints a rating figure in the page's language, one decimal. */
export const number = (x) =>
  Number(x).toLocaleString(document.documentElement.lang || undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * ratingFigure is a rating as people read it: the server's display figure
 * (docs/protocol.md, "rating"), with "?" while provisional.
 */
export function ratingFigure(r) {
  return `${r.display}${r.provisional ? "?" : ""}`;
}

/** ratingText is a rating as shown: the figure, and how far from settled while provisional. */
export function ratingText(t, r, minGames) {
  const main = ratingFigure(r);
  return r.provisional && minGames ? `${main} · ${t("web.rating.provisional", { games: r.games, min: minGames })}` : main;
}

/** changeText is a rating's change at a game, as the server measures it on the display scale: "+12", "−7". */
export function changeText(d) {
  return d > 0 ? `+${d}` : d < 0 ? `\u2212${-d}` : "±0";
}

// The account pages take errorText from here, with the rest they share.
export { errorText };

/** when prints an ISO time as a short date in the page's language. */
export function when(iso, time) {
  const d = new Date(iso);
  if (isNaN(d)) return "";
  return d.toLocaleString(document.documentElement.lang || undefined, time ? { dateStyle: "short", timeStyle: "short" } : { dateStyle: "medium" });
}

/** passkeys reports whether this browser can make and use passkeys. */
export const passkeys = () => typeof window.PublicKeyCredential === "function" && !!navigator.credentials;

// The WebAuthn JSON forms (base64url) to the API's and back; the
// browser's own parse/toJSON when it has them.
const fromB64 = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)).buffer;
const toB64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function creationOptions(o) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(o);
  return { ...o, challenge: fromB64(o.challenge), user: { ...o.user, id: fromB64(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })) };
}

function requestOptions(o) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(o);
  return { ...o, challenge: fromB64(o.challenge), allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })) };
}

function credentialJSON(c) {
  if (typeof c.toJSON === "function") return c.toJSON();
  const r = c.response;
  const response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64(r.authenticatorData);
    response.signature = toB64(r.signature);
    if (r.userHandle) response.userHandle = toB64(r.userHandle);
  }
  return { id: c.id, rawId: toB64(c.rawId), type: c.type, response, clientExtensionResults: c.getClientExtensionResults() };
}

/**
 * registerPasskey runs the ceremony that makes a passkey: for a new
 * account called name, or (name empty) for the signed-in one. It resolves
 * to the server's answer.
 */
export async function registerPasskey(name, label) {
  const begin = await api.request("POST", "/api/passkeys/register", { name });
  const cred = await navigator.credentials.create({ publicKey: creationOptions(begin.options.publicKey) });
  return api.request("POST", "/api/passkeys/register/finish", { ceremony: begin.ceremony, credential: credentialJSON(cred), label });
}

/** signInPasskey runs the sign-in ceremony with a passkey the browser offers. */
export async function signInPasskey() {
  const begin = await api.request("POST", "/api/passkeys/signin", {});
  const cred = await navigator.credentials.get({ publicKey: requestOptions(begin.options.publicKey) });
  return api.request("POST", "/api/passkeys/signin/finish", { ceremony: begin.ceremony, credential: credentialJSON(cred) });
}

/** passkeyError explains a failed ceremony: the browser's refusals too. */
export function passkeyError(t, err) {
  if (err instanceof api.APIError) return errorText(t, err);
  if (err && (err.name === "NotAllowedError" || err.name === "AbortError")) return t("web.account.passkey.cancelled");
  return t("web.account.passkey.failed");
}
