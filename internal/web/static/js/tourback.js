// tourback.js: on a table of a tournament, the way back to it (the
// header's #nav-tournament) and, once the person's next table is seated,
// the way there: the tournament's WebSocket tells (docs/protocol.md,
// "Tournaments"), in place of a rematch. The table page loads it only for
// a tournament's table.

import { h, stylesheet } from "./dom.js";
import { chosen, loadCatalogue, translator } from "./i18n.js";

const game = decodeURIComponent(location.pathname.split("/")[2] || "");

/** showTournament links the table to its tournament of and follows it. */
export async function showTournament(of) {
  stylesheet("tournament.css");
  // The next table comes from the tournament: no rematch offered here.
  document.body.classList.add("tournament-table");
  const tag = chosen();
  const [cat, en] = await Promise.all([loadCatalogue(tag), tag === "en" ? null : loadCatalogue("en")]);
  const t = translator(cat, en || cat);
  const link = document.getElementById("nav-tournament");
  const page = `/t/${encodeURIComponent(of.id)}`;
  if (link) {
    link.href = page;
    link.textContent = t("tour.back");
    link.title = of.name;
    link.hidden = false;
  }
  follow(page, t);
}

// follow watches the tournament and, when a table other than this one is
// seated for the person, offers it.
function follow(page, t) {
  const id = page.split("/")[2];
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/tournaments/${id}/ws`);
  ws.onmessage = (ev) => {
    let m;
    try {
      m = JSON.parse(ev.data);
    } catch {
      return;
    }
    const next = m.type === "tournament" && m.tournament.you && m.tournament.you.game;
    if (!next || next === game) return;
    if (document.getElementById("tour-next")) return;
    // Above the table, in the page's flow: floating over its foot it hid
    // the game's final scores on a phone, read at that very moment.
    const offer = h("div", { id: "tour-next", class: "tour-next", role: "status" },
      h("span", {}, m.tournament.name, ": "),
      h("a", { class: "button primary", href: `/g/${encodeURIComponent(next)}` }, t("tour.yourtable")));
    const table = document.getElementById("table");
    if (table) table.before(offer);
    else document.body.append(offer);
  };
  ws.onclose = () => setTimeout(() => follow(page, t), 5000);
}

