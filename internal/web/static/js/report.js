// report.js: the dialog in which a signed-in person reports another to
// the server's operators (POST /api/reports): what kind of behaviour, at
// which game, in their own words, and the chat line concerned when they
// report one. From a profile the game is one the two played together;
// from the table it is that table's.

import { h, replace, stylesheet } from "./dom.js";
import * as api from "./api.js";
import { errorText } from "./errors.js";

// The dialog's style comes with this module, before any dialog is drawn.
await stylesheet("moderation.css");

/** KINDS are the kinds of report, in the order offered (protocol.Report*). */
export const KINDS = ["chat", "stalling", "cheating"];

/** MAX_REASON is the longest reason, in characters (protocol.MaxReasonRunes). */
export const MAX_REASON = 500;

let dialog = null;

/**
 * sharedGames returns the signed-in person's games (GET /api/account/games)
 * where name held a seat too, most recent first, as {id, label}.
 */
export async function sharedGames(t, name) {
  const { games } = await api.request("GET", "/api/account/games");
  return (games || [])
    .filter((g) => g.game.seats.some((s, i) => i !== g.seat && s.name === name))
    .map((g) => ({
      id: g.game.id,
      label: t("moderation.report.gamewith", {
        when: new Date(g.game.updated || g.game.created).toLocaleDateString(document.documentElement.lang || undefined),
        players: g.game.seats.map((s) => s.name).filter(Boolean).join(", "),
      }),
    }));
}

/**
 * openReport opens the dialog to report name: at game (an id), or at one
 * of games ({id, label}, from sharedGames); line is the chat line reported
 * ({seq, text}), if any. It resolves once the dialog closes, to whether a
 * report was sent.
 */
export function openReport(t, { name, game, games, line }) {
  if (dialog) dialog.remove();
  const choices = game ? [] : games || [];
  const kind = line ? "chat" : "stalling";
  const error = h("p", { class: "notice notice-error", role: "alert", id: "report-error", hidden: true });
  const reason = h("textarea", { id: "report-reason", name: "reason", rows: "4", maxlength: String(MAX_REASON), required: true });
  const send = h("button", { type: "submit", class: "primary", id: "report-send", disabled: !game && choices.length === 0 },
    t("moderation.report.send"));
  const cancel = h("button", { type: "button", id: "report-cancel", onclick: () => dialog.close() }, t("moderation.report.cancel"));
  const gameField = game ? null : choices.length === 0
    ? h("p", { class: "muted", id: "report-nogame" }, t("moderation.report.nogame", { name }))
    : h("div", { class: "field stack" },
      h("label", { for: "report-game" }, t("moderation.report.game")),
      h("select", { id: "report-game", name: "game" }, choices.map((c) => h("option", { value: c.id }, c.label))));
  const form = h("form", { class: "report-form", id: "report-form", onsubmit: (ev) => submit(ev) },
    h("p", { class: "muted" }, t("moderation.report.about")),
    h("fieldset", { class: "report-kinds" },
      h("legend", {}, t("moderation.report.kind")),
      KINDS.map((k) => h("label", { class: "report-kind" },
        h("input", { type: "radio", name: "kind", value: k, checked: k === kind }), " ", t(`moderation.report.kind.${k}`)))),
    line ? h("blockquote", { class: "report-line" }, t("moderation.report.line", { text: line.text })) : null,
    gameField,
    h("div", { class: "field stack" }, h("label", { for: "report-reason" }, t("moderation.report.reason")), reason),
    error,
    h("div", { class: "report-buttons" }, send, cancel));
  dialog = h("dialog", { id: "report-dialog", class: "report-dialog", "aria-labelledby": "report-h" },
    h("div", { class: "dialog-head" }, h("h2", { id: "report-h" }, t("moderation.report.title", { name }))),
    h("div", { class: "report-body" }, form));
  document.body.appendChild(dialog);
  let sent = false;

  async function submit(ev) {
    ev.preventDefault();
    const chosen = form.querySelector("input[name=kind]:checked");
    const body = {
      player: name,
      game: game || form.querySelector("#report-game").value,
      kind: chosen ? chosen.value : kind,
      reason: reason.value.trim(),
      ...(line ? { lines: [line.seq] } : {}),
    };
    send.disabled = true;
    try {
      await api.request("POST", "/api/reports", body);
      sent = true;
      replace(form, h("p", { class: "notice", role: "status", id: "report-sent" }, t("moderation.report.sent")),
        h("div", { class: "report-buttons" }, h("button", { type: "button", class: "primary", onclick: () => dialog.close() }, t("moderation.report.close"))));
    } catch (err) {
      error.textContent = errorText(t, err);
      error.hidden = false;
      send.disabled = false;
    }
  }

  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      dialog = null;
      resolve(sent);
    });
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    reason.focus();
  });
}

/**
 * drawReportButton puts, after the element #after, the button with which
 * the signed-in me reports the player name (a profile's), choosing among
 * the games they played together; nothing for a guest or oneself.
 */
export function drawReportButton(t, after, name, me) {
  let p = document.getElementById("report-player");
  if (!me || me.name === name || !after) {
    if (p) p.remove();
    return;
  }
  if (!p) {
    p = h("p", { id: "report-player", class: "report-player" });
    after.after(p);
  }
  replace(p, h("button", { type: "button", class: "small", id: "report-button", onclick: async () => {
    let games = [];
    try {
      games = await sharedGames(t, name);
    } catch {
      // no games listed: the dialog says how to report from a table
    }
    openReport(t, { name, games });
  } }, t("moderation.report.button")));
}
