// i18n.js: the page's language. The server serves each language's merged
// catalogue (every domain) at /static/[v/<version>/]i18n/<tag>.json, a flat object of
// texts with {name} placeholders, the same syntax as the Go side.

/** LANGUAGES are the languages Razzia speaks, by tag, with their own names. */
export const LANGUAGES = [
  ["en", "English"],
  ["nl", "Nederlands"],
  ["it", "Italiano"],
  ["hu", "Magyar"],
  ["es", "Español"],
  ["de", "Deutsch"],
];

const TAGS = LANGUAGES.map(([tag]) => tag);
const STORE = "razzia.lang";

/** match returns the first supported language among tags such as "nl-BE", or "en". */
export function match(tags) {
  for (const t of tags || []) {
    const primary = String(t).toLowerCase().split(/[-_]/)[0];
    if (TAGS.includes(primary)) return primary;
  }
  return "en";
}

/** chosen returns the language to show: the remembered choice, else the browser's. */
export function chosen() {
  let saved = null;
  try {
    saved = localStorage.getItem(STORE);
  } catch {
    // storage disabled: the browser's languages decide
  }
  if (saved && TAGS.includes(saved)) return saved;
  const nav = typeof navigator === "undefined" ? [] : navigator.languages || [navigator.language];
  return match(nav);
}

/** remember stores the reader's choice. */
export function remember(tag) {
  try {
    localStorage.setItem(STORE, tag);
  } catch {
    // a choice that cannot be stored still holds for this page
  }
}

/** fill replaces the {name} placeholders of text with args' values. */
export function fill(text, args) {
  // Most texts have no placeholder: the table asks hundreds per state.
  if (!args || text.indexOf("{") < 0) return text;
  return text.replace(/\{([A-Za-z0-9_]+)\}/g, (all, name) =>
    Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : all);
}

/**
 * translator returns t(key, args) for a catalogue (the flat JSON object).
 * A key the catalogue lacks is looked up in fallback (English), then shown
 * as the key itself: never a blank.
 */
export function translator(catalogue, fallback) {
  const cat = catalogue || {};
  const fb = fallback || {};
  const t = (key, args) => {
    const text = typeof cat[key] === "string" ? cat[key] : typeof fb[key] === "string" ? fb[key] : key;
    return fill(text, args);
  };
  t.has = (key) => typeof cat[key] === "string" || typeof fb[key] === "string";
  t.keys = (prefix) => [...new Set([...Object.keys(fb), ...Object.keys(cat)])].filter((k) => k.startsWith(prefix));
  t.lang = cat["lang.tag"] || "";
  return t;
}

const cache = new Map();

/** loadCatalogue fetches a language's catalogue; it resolves to {} when it cannot. */
export async function loadCatalogue(tag) {
  if (cache.has(tag)) return cache.get(tag);
  const p = (async () => {
    try {
      // Beside this module's directory: under the same version, cached as long.
      const resp = await fetch(new URL(`../i18n/${encodeURIComponent(tag)}.json`, import.meta.url), { credentials: "same-origin" });
      if (!resp.ok) return {};
      const data = await resp.json();
      return data && typeof data === "object" ? data : {};
    } catch {
      return {};
    }
  })();
  cache.set(tag, p);
  const cat = await p;
  if (Object.keys(cat).length === 0) cache.delete(tag); // try again next time
  return cat;
}

/**
 * setup loads the chosen language (and English behind it), sets html[lang],
 * fills the #lang select and calls onChange(t, tag) now and after every
 * switch. It returns the translator of the chosen language.
 */
export async function setup(onChange) {
  const select = document.getElementById("lang");
  let tag = chosen();
  const apply = async (next) => {
    const [cat, en] = await Promise.all([loadCatalogue(next), next === "en" ? null : loadCatalogue("en")]);
    const t = translator(cat, en || cat);
    if (Object.keys(cat).length === 0) {
      // The catalogue did not come (the server is restarting): the page
      // keeps its built-in English and asks again in a moment.
      setTimeout(() => {
        if (tag === next) apply(next);
      }, 3000);
    }
    tag = next;
    document.documentElement.lang = next;
    if (select) select.value = next;
    translatePage(t);
    onChange(t, next);
    return t;
  };
  if (select) {
    select.replaceChildren(...LANGUAGES.map(([value, name]) => {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = name;
      o.lang = value;
      return o;
    }));
    select.value = tag;
    select.addEventListener("change", () => {
      const next = select.value;
      if (!TAGS.includes(next) || next === tag) return;
      remember(next);
      apply(next);
    });
  }
  return apply(tag);
}

/**
 * translatePage fills every element marked data-i18n="key" with its text,
 * and data-i18n-<attr>="key" attributes (such as data-i18n-aria-label).
 */
export function translatePage(t, root = document) {
  // Without the text (no catalogue yet) the page's own English stays.
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (t.has(el.dataset.i18n)) el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("*")) {
    for (const a of el.getAttributeNames()) {
      if (a.startsWith("data-i18n-") && t.has(el.getAttribute(a))) el.setAttribute(a.slice("data-i18n-".length), t(el.getAttribute(a)));
    }
  }
}
