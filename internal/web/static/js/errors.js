// errors.js: the one explanation of the server's refusals that every page
// shows. Each code of the protocol has its text error.<code> in every
// language (checked against the server's catalogue of codes); a code
// this page does not know (a newer server) is named in error.unknown.

/**
 * errorText explains an error of the API or the WebSocket in the page's
 * language, with t the page's translator. err is the error (its code, and
 * for bad_record its detail), or its code alone.
 */
export function errorText(t, err) {
  const e = typeof err === "string" ? { code: err } : err || {};
  if (e.code === "network") return t("web.error.network");
  const key = `error.${e.code}`;
  if (!(t.has && t.has(key))) return t("error.unknown", { code: e.code });
  const d = e.detail;
  // An upload's bad move: the server names it; keep it, after our sentence.
  if (e.code === "bad_record" && d && d.move > 0) return `${t(key)} ${t("web.lobby.badmove", { n: d.move, token: d.token || "" })}`;
  return t(key);
}
