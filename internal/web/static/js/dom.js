// dom.js: a small helper to build elements. Text always goes in as text
// nodes, never as HTML, because player names come from other people.

/**
 * h builds an element: h("p", {class: "x"}, "text", child, ...).
 * Attributes starting with "on" are event listeners; false/null/undefined
 * attributes and children are skipped; arrays of children are flattened.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
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

/** replace empties el and fills it with children. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** $ returns the element with the id, or throws: the page is broken without it. */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing element #${id}`);
  return el;
}
