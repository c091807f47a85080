// dom.js: a small helper to build elements, and to bring a live part of
// the page up to date with a freshly built one (sync) by changing only
// what differs. Text always goes in as text nodes, never as HTML, because
// player names come from other people.

/**
 * h builds an element: h("p", {class: "x"}, "text", child, ...).
 * Attributes starting with "on" are event listeners; false/null/undefined
 * attributes and children are skipped; arrays of children are flattened.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  // for-in, not Object.entries: a table builds a thousand elements per
  // state, and the entries' arrays were garbage to collect in its task.
  for (const name in attrs) {
    const value = attrs[name];
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      listen(el, name.slice(2), value);
    } else if (value === true) {
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

// listen keeps an element's handler of an event type in el.__on, behind
// one listener: sync() hands a kept element the handlers of the element
// built in its place, whose closures know the newest state.
function listen(el, type, fn) {
  const on = el.__on || (el.__on = {});
  if (!(type in on)) el.addEventListener(type, (ev) => (on[type] ? on[type].call(el, ev) : undefined));
  on[type] = fn;
}

/** replace empties el and fills it with children. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** setText sets el's text, leaving it alone when it says that already. */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * setAttr sets (value a string) or removes (false, null or undefined) an
 * attribute unless it is so already: setting even the same value is a
 * change to the page, which observers and assistive technology hear of.
 */
export function setAttr(el, name, value) {
  if (value === false || value === null || value === undefined) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== String(value)) el.setAttribute(name, String(value));
}

/** setClass sets el's class attribute, leaving it alone when it is that already. */
export function setClass(el, cls) {
  if (el.getAttribute("class") !== cls) el.setAttribute("class", cls);
}

/** $ returns the element with the id, or throws: the page is broken without it. */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing element #${id}`);
  return el;
}

/**
 * sync makes el's children look like children (built by h, not yet in the
 * page) while touching only what differs: an element of the same tag (and
 * the same id or data-key, when it has one) is kept and brought up to
 * date, so that focus, scroll positions, selections and open details
 * survive, and a change costs the nodes it changes. The nodes of children
 * that are used are moved into el; the others are dropped. A child with
 * __keep set stands in for the live element of its id, left as it is;
 * one with __keepFirst = n leaves the first n children of its live twin.
 */
export function sync(el, ...children) {
  const want = [];
  flatten(children, want);
  syncChildren(el, want);
}

function flatten(children, out) {
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue;
    if (Array.isArray(c)) flatten(c, out);
    else out.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// keyOf is what pairs a new element with a live one wherever it moved to.
function keyOf(n) {
  if (n.nodeType !== 1) return null;
  return n.getAttribute("id") || n.getAttribute("data-key") || null;
}

function alike(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName &&
    (a.nodeName !== "INPUT" || a.getAttribute("type") === b.getAttribute("type"));
}

// staying skips the elements on their way out (drop) from n on.
function staying(n) {
  while (n && (n.__leaving || n.__guest)) n = n.nextSibling;
  return n;
}

// guest marks an element that another module placed among the children of
// a part a redraw draws (the replay's analysis under the board): a redraw
// passes it by, neither taking it out nor taking its ids, so that the
// reader's focus in it survives a redraw.
export function guest(n) {
  n.__guest = true;
  return n;
}

function syncChildren(el, want, start = el.firstChild) {
  // Each live child's key, read once: the walk below asks often. The walk
  // meets only these children (the new ones go in before it).
  const keyed = new Map();
  const keys = new Map();
  for (let c = staying(start); c; c = staying(c.nextSibling)) {
    const k = keyOf(c);
    if (k) {
      keyed.set(k, c);
      keys.set(c, k);
    }
  }
  const wantKeys = want.map(keyOf);
  const wanted = new Set(wantKeys.filter(Boolean));
  let cur = staying(start);
  for (let i = 0; i < want.length; i++) {
    const w = want[i];
    // A live element no longer wanted goes at once, not after the others
    // were built anew in front of it.
    while (cur && keys.has(cur) && !wanted.has(keys.get(cur))) {
      const next = cur.nextSibling;
      drop(el, cur);
      cur = staying(next);
    }
    const k = wantKeys[i];
    let match = null;
    if (k) {
      const m = keyed.get(k);
      if (m && alike(m, w)) match = m;
    } else if (cur && !keys.has(cur) && alike(cur, w)) {
      match = cur;
    }
    if (!match) {
      el.insertBefore(w, cur);
      continue;
    }
    if (k) keyed.delete(k);
    if (match !== cur && cur && keys.has(cur) && holdsFocus(match) && !holdsFocus(cur)) {
      // Two parts swap places: the one without the reader's focus moves,
      // since moving the focus's element takes the focus away (and lays
      // the page out there and then).
      el.insertBefore(cur, match.nextSibling);
      cur = match;
    }
    if (match === cur) cur = staying(cur.nextSibling);
    else el.insertBefore(match, cur);
    // A stand-in (__keep) says the live element is as it should be.
    if (!w.__keep) morph(match, w);
  }
  while (cur) {
    const next = cur.nextSibling;
    if (!cur.__leaving && !cur.__guest) drop(el, cur);
    cur = next;
  }
}

// A focused element taken out of the page makes the browser lay the page
// out there and then, in the middle of a redraw. drop hides such an
// element instead, and takes it out before the next frame (dropLeaving),
// whose layout comes anyway; a redraw passes it by meanwhile, and its ids
// go, so that nothing finds it for the part drawn anew. Any other node,
// and any in a hidden page (which draws no frames), goes at once.
const leaving = new Set();

function drop(el, n) {
  if (n.nodeType === 1 && typeof requestAnimationFrame === "function" && document.visibilityState !== "hidden" && holdsFocus(n)) {
    n.__leaving = true;
    // Through the CSSOM: the hidden attribute, on a focused element, lays
    // the page out at once too.
    n.style.display = "none";
    for (const e of [n, ...n.querySelectorAll("[id]")]) e.removeAttribute("id");
    if (leaving.size === 0) {
      afterLayout(dropLeaving);
      // And should the page be hidden before its frame.
      setTimeout(dropLeaving, 1000);
    }
    leaving.add(n);
    return;
  }
  el.removeChild(n);
}

/**
 * afterLayout runs fn once the next frame has laid the page out, before it
 * paints: a ResizeObserver reports a target observed anew there. What
 * reads the layout, or takes out a focused element (which makes the
 * browser lay the page out at once), costs nothing then; in a task or the
 * frame's callbacks, it lays out what the page changed meanwhile.
 */
export function afterLayout(fn) {
  if (typeof ResizeObserver !== "function") {
    requestAnimationFrame(fn);
    return;
  }
  const ro = new ResizeObserver(() => {
    ro.disconnect();
    fn();
  });
  ro.observe(document.documentElement);
}

/**
 * dropLeaving takes out the elements sync hid instead of taking them out
 * because they held the focus: the page moves the focus on first, or
 * right after, at the frame.
 */
export function dropLeaving() {
  for (const n of leaving) if (n.parentNode) n.parentNode.removeChild(n);
  leaving.clear();
}

/** isLeaving says whether n is in an element sync hid on its way out. */
export function isLeaving(n) {
  for (; n; n = n.parentNode) if (n.__leaving) return true;
  return false;
}

function holdsFocus(n) {
  const a = typeof document !== "undefined" ? document.activeElement : null;
  return !!a && a !== document.body && n.contains(a);
}

// KEPT are attributes the reader sets on a live element: a redraw leaves
// them. A redraw leaves style alone too: h never sets it (the page's
// policy refuses style attributes), so any is set through the CSSOM, by
// code that places things (the docked chat, an animation).
const KEPT = { DETAILS: "open", DIALOG: "open" };
const ours = (name, kept) => name !== kept && name !== "style";

// morph brings the live node from up to date with the new node to.
function morph(from, to) {
  if (from.nodeType !== 1) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return;
  }
  // Most of a table is as it was: the browser compares a subtree at once,
  // and only the handlers, whose closures know the newest state, move.
  if (from.isEqualNode && from.isEqualNode(to)) {
    handOver(from, to);
    return;
  }
  const kept = KEPT[from.nodeName];
  // By name: reading element.attributes makes the browser an Attr node
  // for each attribute, of every element compared.
  const names = to.getAttributeNames();
  for (const name of names) {
    if (!ours(name, kept)) continue;
    const value = to.getAttribute(name);
    if (from.getAttribute(name) !== value) from.setAttribute(name, value);
  }
  // Every attribute of to is on from now: any more are to go.
  if (from.attributes.length > names.length) {
    for (const name of from.getAttributeNames()) if (ours(name, kept) && !to.hasAttribute(name)) from.removeAttribute(name);
  }
  handlers(from, to);
  const want = [];
  for (let c = to.firstChild; c; c = c.nextSibling) want.push(c);
  // A list that grows (a log) may say its first children stand as they are.
  let start = staying(from.firstChild);
  for (let n = to.__keepFirst || 0; n > 0 && start; n--) start = staying(start.nextSibling);
  syncChildren(from, want, start);
}

// handlers gives from the event handlers of to.
function handlers(from, to) {
  if (to.__on) for (const type in to.__on) listen(from, type, to.__on[type]);
  if (from.__on) for (const type in from.__on) if (!to.__on || !(type in to.__on)) from.__on[type] = null;
}

// handOver gives each element of the live subtree from the handlers of
// its twin in the equal subtree to.
function handOver(from, to) {
  if (from.__on || to.__on) handlers(from, to);
  for (let f = from.firstChild, t = to.firstChild; f && t; f = f.nextSibling, t = t.nextSibling) {
    if (f.nodeType === 1) handOver(f, t);
  }
}

/**
 * stylesheet adds the stylesheet css/name beside the page's own (the same
 * path and version as razzia.css), once, for a part of the page loaded
 * when first needed; it resolves once the styles apply (or failed to come).
 */
export function stylesheet(name) {
  const main = document.querySelector('link[rel="stylesheet"][href*="razzia.css"]');
  if (!main) return Promise.resolve();
  const href = main.getAttribute("href").replace("razzia.css", name);
  let link = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.getAttribute("href") === href);
  if (link && !link.dataset.loading) return Promise.resolve();
  if (!link) {
    link = h("link", { rel: "stylesheet", href, "data-loading": "1" });
    document.head.appendChild(link);
  }
  return new Promise((done) => {
    const settle = () => {
      delete link.dataset.loading;
      done();
    };
    link.addEventListener("load", settle, { once: true });
    link.addEventListener("error", settle, { once: true });
  });
}
