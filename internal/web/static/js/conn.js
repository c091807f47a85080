// conn.js: a WebSocket that reconnects with backoff. The seat's cookie goes
// with every connection attempt, so reconnecting brings the seat back.

import { LiveState, withVersions } from "./versions.js";

const DELAYS = [1000, 2000, 4000, 8000, 15000, 30000];

// A whole state asked for (a patch missed its base) that does not come
// within RESYNC_WAIT gives the connection up: the next starts with one.
const RESYNC_WAIT = 3000;

// A connection is asked for a pong (docs/protocol.md) after PING_AFTER
// without a message, and is taken for lost when none came PONG_WAIT
// later: a silent network drop shows within PING_AFTER + PONG_WAIT and two
// of check's ticks, 3.5 s, well inside 5 s on a busy phone. Asking early
// costs a ping a second on a quiet table (the server allows ten); waiting
// long for the answer is what spares a slow phone link (a round trip of up
// to 2 s) a false alarm.
const PING_AFTER = 1000;
const PONG_WAIT = 2000;

// SERVICE_RESTART is the close code of a server that stops gracefully
// (docs/protocol.md): reconnect at once.
const SERVICE_RESTART = 1012;

export class Connection {
  /**
   * url: the WebSocket URL.
   * handlers.message(msg, first): a decoded server message; first is true for
   *   the first message on each new connection (it carries every event so far).
   * handlers.status(state, detail): "connecting", "open", "waiting" (detail:
   *   milliseconds until the next attempt), "offline" (the browser is
   *   offline, or no pong came: nothing sent now arrives) or "stopped".
   * options.now and options.setInterval replace the clock in tests.
   * handlers.retry(): async; return false to stop reconnecting (the game is gone).
   */
  constructor(url, handlers, options = {}) {
    this.url = url;
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.first = true;
    this.clock = options.now || (() => Date.now());
    this.heard = 0; // when the last message came
    this.pinged = 0; // when a ping went out unanswered, 0 for none
    this.offline = false;
    this.live = new LiveState(); // the state patches change (protocol version 2)
    // tell(event, players) tells the events of version 2, which come
    // without their sentences; set it once the page knows its language.
    this.tell = null;
    this.resyncAt = null; // when a whole state was asked for, null for none
    addEventListener("online", () => {
      // The old socket may have died quietly: start afresh.
      if (this.offline && !this.stopped) this.restart();
      else this.now();
    });
    addEventListener("offline", () => this.lost());
    (options.setInterval || setInterval)(() => this.check(), 250);
  }

  /** offline says whether messages sent now would be lost. */
  isOffline() {
    return this.offline || (typeof navigator !== "undefined" && navigator.onLine === false);
  }

  // lost notes that nothing gets through, once until a message comes again.
  lost() {
    if (this.offline || this.stopped) return;
    this.offline = true;
    this.handlers.status("offline");
  }

  // check pings an open connection that has been quiet, and calls it lost
  // when the pong does not come.
  check() {
    const ws = this.ws;
    if (this.stopped || !ws || ws.readyState !== WebSocket.OPEN) return;
    const now = this.clock();
    if (this.resyncAt !== null && now - this.resyncAt >= RESYNC_WAIT) {
      this.resyncAt = null;
      this.drop(ws);
      return;
    }
    if (this.pinged && now - this.pinged >= PONG_WAIT) {
      this.lost();
      // A new connection is the quickest way back once the network is.
      this.pinged = 0;
      this.drop(ws);
      return;
    }
    if (!this.pinged && now - this.heard >= PING_AFTER) {
      this.pinged = now;
      ws.send(JSON.stringify({ type: "ping" }));
    }
  }

  // drop gives up a socket and waits to open another.
  drop(ws) {
    if (this.ws !== ws) return;
    this.ws = null;
    try {
      ws.close(1000, "no pong");
    } catch {
      // closing a dead socket may throw: it is gone either way
    }
    this.later();
  }

  start() {
    this.stopped = false;
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    this.timer = null;
    this.first = true;
    this.live.reset();
    this.resyncAt = null;
    this.handlers.status("connecting");
    let ws;
    try {
      ws = new WebSocket(withVersions(this.url));
    } catch (err) {
      this.later();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.heard = this.clock();
      this.pinged = 0;
      this.handlers.status("open");
    });
    ws.addEventListener("message", (ev) => {
      if (this.ws !== ws) return;
      this.heard = this.clock();
      this.pinged = 0;
      if (this.offline) {
        this.offline = false;
        this.handlers.status("online");
      }
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return; // not ours to judge: the protocol sends JSON only
      }
      this.attempt = 0; // the connection works: start the backoff afresh
      if (msg && msg.type === "pong") return;
      const got = this.live.accept(msg, () => {
        this.resyncAt = this.clock();
        ws.send(JSON.stringify({ type: "resync" }));
      }, this.tell);
      if (!got) return; // a patch of another state: the whole one is asked for
      if (got.whole) this.resyncAt = null;
      const first = this.first || got.whole;
      this.first = false;
      this.handlers.message(got.msg, first);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.stopped) this.later(ev.code);
    });
  }

  async later(code) {
    if (this.stopped) return;
    if (code === SERVICE_RESTART) {
      // The server stops and has handed its games over: another serves
      // this one now, at the same address. Come back in a moment, spread
      // so that its clients do not all arrive at once.
      this.handlers.status("connecting");
      this.timer = setTimeout(() => this.open(), 50 + Math.round(450 * Math.random()));
      return;
    }
    if (this.handlers.retry && !(await this.handlers.retry(code))) {
      this.stop();
      return;
    }
    // Until a message comes again, nothing sent gets through.
    this.lost();
    const base = DELAYS[Math.min(this.attempt, DELAYS.length - 1)];
    this.attempt++;
    // Jitter keeps a table's clients from all coming back at the same instant.
    const delay = Math.round(base * (0.8 + 0.4 * Math.random()));
    this.handlers.status("waiting", delay);
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** now reconnects at once if a connection attempt is waiting. */
  now() {
    if (!this.stopped && this.timer !== null) this.open();
  }

  /** restart drops the connection and opens a new one, such as after joining. */
  restart() {
    this.stopped = false;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000, "reconnecting");
    this.attempt = 0;
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = null;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000, "bye");
    this.handlers.status("stopped");
  }

  /** send sends a message; it returns false when not connected or offline. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.isOffline()) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }
}
