// chat.js: the table chat (docs/protocol.md, "Table chat"). A panel below
// the table, collapsed until opened, so that it never covers the decision
// area; while collapsed an unread badge counts what came. Every text from
// another person goes in as text (dom.js), never as HTML: a link stays
// text and is never made clickable.

import { h, replace, sync, setText, setAttr } from "./dom.js";
import { errorText } from "./errors.js";

/** PHRASES are the quick phrases' ids, in picker order: internal/chat's Phrases (a test checks it). */
export const PHRASES = ["hello", "gl", "hf", "thinking", "brb", "back", "nice", "wow", "ouch", "oops", "sorry", "thanks",
  "wp", "gg", "rematch", "bye"];

/** MAX_TEXT is the longest free text, in characters: internal/chat's MaxRunes (a test checks it). */
export const MAX_TEXT = 200;

/** AFTER_GAME_HOURS is how long the chat stays open after the game: internal/chat's AfterGame (a test checks it). */
export const AFTER_GAME_HOURS = 24;

const OPEN_KEY = "razzia.chat.open";

/** DOCK is razzia.css's desktop layout: there the panel docks at the foot of the table's side column. */
const DOCK = "(min-width: 1100px) and (min-height: 560px)";
// dockQuery is DOCK's query, made once: place asks it after every redraw,
// and a new one parses the query and joins the page's list each time.
let dockQuery = null;
const docks = () => (dockQuery || (dockQuery = matchMedia(DOCK))).matches;

/** lineText is what a chat line says in the reader's language. */
export function lineText(t, line) {
  if (line.removed) return t("moderation.chat.removed");
  if (line.muted) return t("chat.muted");
  if (line.phrase) return t(`chat.phrase.${line.phrase}`);
  return line.text || "";
}

/** lineItem draws one chat line: the sender's colour and name, then the words; onReport, if given, reports it. */
export function lineItem(t, line, onReport) {
  const seat = line.seat >= 0 ? ` s${line.seat}` : "";
  const cls = `chat-line${line.muted ? " chat-muted" : ""}${line.removed ? " chat-removed" : ""}${line.phrase ? " chat-phrase" : ""}${seat}`;
  return h("li", { class: cls, "data-seat": line.seat, "data-seq": line.seq },
    line.seat >= 0 ? h("span", { class: "seat-dot", "aria-hidden": "true" }) : null,
    h("span", { class: "chat-name" }, line.name, ": "),
    h("span", { class: "chat-words" }, lineText(t, line)),
    onReport && !line.removed && !line.muted
      ? h("button", { type: "button", class: "chat-report", "aria-label": t("moderation.chat.report", { name: line.name }),
        title: t("moderation.chat.report", { name: line.name }), onclick: () => onReport(line) }, "⚑")
      : null);
}

export class ChatPanel {
  /** root: the panel's element; send(msg): sends a WebSocket message, false when not connected. */
  constructor(root, send) {
    this.root = root;
    this.send = send;
    this.t = (k) => k;
    this.lines = [];
    this.muted = [];
    this.unread = 0;
    this.tab = "players";
    this.state = { game: null, you: -1, over: false, signedIn: false };
    this.error = "";
    this.sentAt = 0;
    let open = false;
    try {
      open = localStorage.getItem(OPEN_KEY) === "1";
    } catch {
      // storage disabled
    }
    this.open = open;
    this.build();
  }

  build() {
    this.title = h("span", { class: "chat-title", id: "chat-title" });
    this.unreadEl = h("span", { class: "chat-unread badge", id: "chat-unread", hidden: true });
    this.toggle = h("button", { type: "button", class: "chat-toggle", id: "chat-toggle", "aria-expanded": "false", "aria-controls": "chat-body",
      onclick: () => this.setOpen(!this.open) }, this.title, this.unreadEl);
    this.tabs = h("div", { class: "chat-tabs", role: "tablist", id: "chat-tabs" });
    this.list = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", "aria-relevant": "additions" });
    this.phrases = h("div", { class: "chat-phrases", id: "chat-phrases", role: "group" });
    this.input = h("input", { type: "text", id: "chat-input", name: "chat", maxlength: String(MAX_TEXT), autocomplete: "off", enterkeyhint: "send" });
    this.inputLabel = h("label", { for: "chat-input", class: "visually-hidden" });
    this.sendButton = h("button", { type: "submit", id: "chat-send" });
    this.form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (ev) => this.submit(ev) },
      this.inputLabel, this.input, this.sendButton);
    this.hint = h("p", { class: "chat-hint muted", id: "chat-hint" });
    this.errorEl = h("p", { class: "chat-error", id: "chat-error", role: "alert", hidden: true });
    this.mutes = h("div", { class: "chat-mutes", id: "chat-mutes" });
    this.body = h("div", { class: "chat-body", id: "chat-body", hidden: true },
      this.tabs, this.list, this.errorEl, this.phrases, this.form, this.hint, this.mutes);
    replace(this.root, this.toggle, this.body);
    addEventListener("resize", () => this.placeNow());
  }

  /**
   * place docks the panel on a desktop at the foot of the table's side
   * column (the log), which gives it room: the decision area keeps its
   * place and size. Elsewhere the panel follows the table in the page.
   * Call it after the table is drawn.
   */
  place() {
    // Asked after every redraw of the table, it measures nothing then: the
    // panel is placed when it docks or leaves, and again whenever the side
    // column or the panel change size (a ResizeObserver, which reports
    // after the frame's layout, not in the middle of a redraw).
    const side = document.querySelector("#table .tbl-side");
    const dock = !!side && !this.root.hidden && docks();
    if (side === this.side && dock === this.docked) return;
    this.side = side;
    this.docked = dock;
    if (typeof ResizeObserver !== "function") {
      this.placeNow();
      return;
    }
    if (!this.observer) this.observer = new ResizeObserver(() => this.placeNow());
    this.observer.disconnect();
    this.observer.observe(this.root);
    if (side) this.observer.observe(side);
  }

  placeNow() {
    const side = document.querySelector("#table .tbl-side");
    const dock = !!side && !this.root.hidden && docks();
    if (this.root.classList.contains("chat-docked") !== dock) this.root.classList.toggle("chat-docked", dock);
    // Set only when different: the table calls this after every redraw.
    const style = (el, k, v) => { if (el.style[k] !== v) el.style[k] = v; };
    if (!dock) {
      if (this.root.hasAttribute("style")) this.root.removeAttribute("style");
      if (side) style(side, "paddingBottom", "");
      return;
    }
    const r = side.getBoundingClientRect();
    style(this.root, "left", `${r.left}px`);
    style(this.root, "width", `${r.width}px`);
    style(this.root, "bottom", `${Math.max(0, innerHeight - r.bottom)}px`);
    style(this.root, "maxHeight", `${Math.round(r.height * 0.6)}px`);
    style(side, "paddingBottom", `${this.root.offsetHeight + 8}px`);
  }

  setOpen(open) {
    this.open = open;
    try {
      localStorage.setItem(OPEN_KEY, open ? "1" : "0");
    } catch {
      // storage disabled
    }
    if (open) this.unread = 0;
    this.render();
    if (open) this.list.scrollTop = this.list.scrollHeight;
  }

  setT(t) {
    this.t = t;
    this.render();
  }

  /** update takes the table's state: the game, our seat, whether it is over, whether we are signed in. */
  update(state) {
    this.state = { ...this.state, ...state };
    // The table calls this on every state message, which seldom changes
    // what the panel shows: it is drawn again only when that changed.
    const key = this.drawnFrom();
    if (key === this.drawn) return;
    this.render();
  }

  /** drawnFrom is what of the table's state the panel shows, as one string. */
  drawnFrom() {
    const { game, you, over, signedIn } = this.state;
    const seats = game ? game.seats.map((s) => [s.name, !!s.bot, !!s.open, !!s.account]) : null;
    return JSON.stringify([game && game.id, over && game && game.updated, seats, you, over, signedIn]);
  }

  /** receive takes a server "chat" message. */
  receive(msg) {
    // A line sent again (removed by an operator) replaces the one shown.
    const fresh = [];
    for (const l of msg.lines || []) {
      const i = this.lines.findIndex((o) => o.seq === l.seq);
      if (i >= 0) this.lines[i] = l;
      else fresh.push(l);
    }
    this.lines.push(...fresh);
    if (this.lines.length > 500) this.lines = this.lines.slice(-500);
    this.muted = msg.muted || [];
    if (!this.open) this.unread += fresh.filter((l) => l.seat !== this.state.you || this.state.you < 0).length;
    this.render();
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** reset forgets the lines: a new connection sends the conversation again. */
  reset() {
    this.lines = [];
    this.unread = 0;
  }

  /** handles shows a refusal of a chat message, if the error is one: it reports whether it was. */
  handles(msg) {
    const code = msg.code || "";
    const recent = Date.now() - this.sentAt < 5000;
    if (!code.startsWith("chat_") && !(recent && (code === "game_over" || code === "bad_message"))) return false;
    this.error = code === "chat_too_fast" && msg.retryAfter
      ? this.t("chat.error.too_fast", { seconds: msg.retryAfter })
      : code === "chat_too_long" ? this.t("chat.error.too_long", { max: MAX_TEXT }) : errorText(this.t, code);
    this.render();
    return true;
  }

  say(msg) {
    this.error = "";
    this.sentAt = Date.now();
    if (!this.send(msg)) this.error = this.t("web.conn.connecting");
    this.render();
  }

  submit(ev) {
    ev.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    this.say({ type: "chat", text });
    this.input.value = "";
  }

  /** reportable returns how a signed-in reader reports line, another account's; null when they may not. */
  reportable(line) {
    const { game, you, signedIn } = this.state;
    if (!game || !signedIn || line.seat === you && you >= 0) return null;
    if (line.seat >= 0 && !(game.seats[line.seat] && game.seats[line.seat].account)) return null;
    // The dialog's module comes when first wanted: few ever report.
    return (l) => import("./report.js").then(({ openReport }) =>
      openReport(this.t, { name: l.name, game: game.id, line: { seq: l.seq, text: lineText(this.t, l) } }));
  }

  /** seats returns the people at the table other than us: those one may mute. */
  others() {
    const { game, you } = this.state;
    if (!game) return [];
    return game.seats.map((s, i) => ({ ...s, seat: i })).filter((s) => s.seat !== you && !s.bot && !s.open && s.name);
  }

  render() {
    this.drawn = this.drawnFrom();
    const t = this.t;
    const { game, you, over, signedIn } = this.state;
    setAttr(this.root, "hidden", !game && "");
    const spectator = you < 0;
    // A player reads the spectators' channel only once the game is over.
    const channels = spectator || over ? ["players", "spectators"] : ["players"];
    if (!channels.includes(this.tab)) this.tab = "players";
    setText(this.title, t("web.chat.title"));
    setAttr(this.toggle, "aria-expanded", String(this.open));
    const unread = this.unreadEl;
    setAttr(unread, "hidden", (this.open || this.unread === 0) && "");
    setText(unread, String(this.unread));
    setAttr(unread, "aria-label", t("web.chat.unread", { n: this.unread }));
    setAttr(this.body, "hidden", !this.open && "");
    if (this.root.classList.contains("chat-open") !== this.open) this.root.classList.toggle("chat-open", this.open);
    this.place();

    // Drawn by sync: a redraw for the table's sake changes nothing here.
    sync(this.tabs, channels.length < 2 ? null : channels.map((ch) =>
      h("button", { type: "button", role: "tab", class: "chat-tab", "data-channel": ch, "aria-selected": String(this.tab === ch),
        onclick: () => { this.tab = ch; this.render(); } }, t(`chat.channel.${ch}`))));
    const shown = this.lines.filter((l) => l.channel === this.tab);
    sync(this.list, shown.length ? shown.map((l) => lineItem(t, l, this.reportable(l))) : h("li", { class: "chat-empty muted" }, t("web.chat.empty")));

    // Who may write here: players in theirs, signed-in spectators in
    // theirs, also after the game ("gg"), until its chat closes.
    const closed = over && !!game && Date.parse(game.updated) + AFTER_GAME_HOURS * 3600e3 < Date.now();
    const writes = this.tab === (spectator ? "spectators" : "players") && !closed && (!spectator || signedIn);
    setAttr(this.phrases, "hidden", !writes && "");
    setAttr(this.phrases, "aria-label", t("web.chat.phrases"));
    sync(this.phrases, PHRASES.map((p) => h("button", { type: "button", class: "chat-phrase-button", "data-phrase": p,
      onclick: () => this.say({ type: "chat", phrase: p }) }, t(`chat.phrase.${p}`))));
    setAttr(this.form, "hidden", (!writes || !signedIn) && "");
    setText(this.inputLabel, t("web.chat.input"));
    setAttr(this.input, "placeholder", t("web.chat.input"));
    setText(this.sendButton, t("web.chat.send"));
    setAttr(this.hint, "hidden", (!(this.tab === (spectator ? "spectators" : "players")) || closed || signedIn) && "");
    setText(this.hint, spectator ? t("web.chat.signin.spectator") : t("web.chat.signin"));
    setAttr(this.errorEl, "hidden", !this.error && "");
    setText(this.errorEl, this.error);

    const mutable = closed || (spectator && !signedIn) ? [] : this.others();
    sync(this.mutes, mutable.map((s) => {
      const muted = this.muted.includes(s.seat);
      return h("button", { type: "button", class: `chat-mute s${s.seat}`, "data-seat": s.seat, "aria-pressed": String(muted),
        onclick: () => this.say({ type: muted ? "unmute" : "mute", seat: s.seat }) },
      t(muted ? "web.chat.unmute" : "web.chat.mute", { name: s.name }));
    }));
  }
}
