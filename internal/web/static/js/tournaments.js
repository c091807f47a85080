// tournaments.js: the tournaments page (/tournaments): those running,
// coming and finished, and the form that organises a new one.

import { onSubmit } from "./forms.js";
import { h, replace, $ } from "./dom.js";
import * as api from "./api.js";
import { start } from "./page.js";
import { translator } from "./i18n.js";
import { errorText } from "./errors.js";
import { whoami, showAccount } from "./players.js";
import { drawList, tourURL } from "./tourlist.js";

let t = translator({}, {});
let me = null;
let lists = null;

function draw() {
  showAccount(t, me);
  $("create-signin").hidden = me !== null;
  $("create-form").hidden = !me;
  $("t-format-about").textContent = t(`tour.format.${$("t-format").value}.about`);
  const arena = $("t-format").value === "arena";
  $("t-rounds-field").hidden = arena;
  $("t-break-field").hidden = arena;
  $("t-minutes-field").hidden = !arena;
  if (!lists) return;
  for (const k of ["running", "coming", "finished"]) drawList(t, $(`tours-${k}`), lists instanceof Error ? lists : lists[k]);
}

const num = (id) => {
  const v = $(id).value.trim();
  return v === "" ? 0 : Number(v);
};

// settings reads the form as the API's TournamentSettings.
function settings() {
  const arena = $("t-format").value === "arena";
  const s = {
    name: $("t-name").value.trim(), format: $("t-format").value, tableSize: Number($("t-size").value),
    pace: $("t-pace").value, rated: $("t-rated").checked, fill: $("t-fill").checked,
    absent: $("t-absent").value, tooFew: $("t-toofew").value,
    maxPlayers: num("t-max"), minRating: num("t-minrating"), maxRating: num("t-maxrating"),
  };
  if (arena) s.minutes = num("t-minutes");
  else {
    s.rounds = num("t-rounds");
    s.breakSeconds = num("t-break");
  }
  if ($("t-password").value) s.password = $("t-password").value;
  if ($("t-start-at").checked && $("t-start-time").value) s.start = new Date($("t-start-time").value).toISOString();
  return s;
}

async function create(ev) {
  ev.preventDefault();
  const button = $("t-create");
  button.disabled = true;
  $("create-error").hidden = true;
  try {
    const v = await api.request("POST", "/api/tournaments", settings());
    location.assign(tourURL(v.id));
  } catch (err) {
    $("create-error").textContent = `${errorText(t, err)} ${err.message && err.code !== "network" ? `(${err.message})` : ""}`.trim();
    $("create-error").hidden = false;
    button.disabled = false;
  }
}

async function paces(lang) {
  const select = $("t-pace");
  const was = select.value || "rapid";
  try {
    const { paces: list } = await api.listPaces(lang);
    replace(select, list.filter((p) => p.kind === "live").map((p) => h("option", { value: p.id, selected: p.id === was }, p.name)));
  } catch {
    replace(select, h("option", { value: "rapid" }, "rapid"));
  }
}

$("t-format").addEventListener("change", draw);
$("t-start-time").addEventListener("input", () => ($("t-start-at").checked = true));
onSubmit("create-form", create);
await start((tr, lang) => {
  t = tr;
  paces(lang);
  draw();
});
try {
  [lists, me] = await Promise.all([api.request("GET", "/api/tournaments"), whoami()]);
} catch (err) {
  lists = err;
}
draw();
// Keep the lists fresh while the page is visible.
setInterval(async () => {
  if (document.visibilityState !== "visible") return;
  try {
    lists = await api.request("GET", "/api/tournaments");
  } catch (err) {
    lists = err;
  }
  draw();
}, 30000);
