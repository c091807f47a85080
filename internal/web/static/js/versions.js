// versions.js: the state of a connection that speaks version 2 of the game's
// protocol (docs/protocol.md, "Protocol versions"): a whole state, then
// patches of it, turned back into whole state messages, so that the page
// is given a whole state after every change as in version 1.

import { patch } from "./patch.js";

/** VERSIONS are the versions of the protocol the page speaks. */
export const VERSIONS = "1,2";

/** withVersions returns the WebSocket URL that states the versions spoken. */
export function withVersions(url) {
  return `${url}${url.includes("?") ? "&" : "?"}protocol=${VERSIONS}`;
}

export class LiveState {
  constructor() {
    this.reset();
  }

  /** reset forgets the state: a new connection starts with a whole one. */
  reset() {
    this.doc = null;
    this.version = 0;
    this.asked = false;
  }

  /**
   * accept takes a message of the server and returns what the page is to
   * be given: {msg, whole}, msg a whole state message for a patch, whole
   * true for a whole state that replaces the log; or null for a patch
   * that does not apply to the state held (a message went missing), after
   * calling resync once to ask for the whole state.
   */
  accept(msg, resync) {
    if (msg.type === "state" && msg.version) {
      const { events: _events, version: _version, ...doc } = msg;
      this.doc = doc;
      this.version = msg.version;
      this.asked = false;
      return { msg, whole: true };
    }
    if (msg.type !== "patch") return { msg, whole: false };
    if (!this.doc || msg.base !== this.version || msg.patch === null || typeof msg.patch !== "object") {
      if (!this.asked) {
        this.asked = true;
        resync();
      }
      return null;
    }
    const doc = withNulls(patch(this.doc, msg.patch));
    this.doc = doc;
    this.version = msg.version;
    return { msg: { ...doc, events: msg.events || [] }, whole: false };
  }
}

// withNulls puts back the members a whole state writes as null and a
// patch removes (docs/protocol.md: a null member and a missing one mean
// the same), so that the page sees the very state a whole message gives.
function withNulls(doc) {
  if (doc.view === undefined) doc.view = null;
  if (doc.view && doc.view.auction === undefined) doc.view.auction = null;
  return doc;
}
