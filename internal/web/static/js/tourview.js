// tourview.js: what a tournament's page says, as pure functions of the
// tournament (docs/protocol.md, "Tournaments") and the time: its status
// line, its countdown and its standings' columns. The page (tournament.js)
// draws them; the node tests check them.

/** clock prints a wait of ms as m:ss, or h:mm:ss from an hour. */
export function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh > 0 ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

const future = (iso, now) => iso && Date.parse(iso) > now;

/** countdown is the wait the page counts down at now (ms): to the start, the next round, or an arena's end; "" for none. */
export function countdown(t, tour, now) {
  if (tour.status === "waiting" && future(tour.start, now)) {
    return t("tour.starts.in", { time: clock(Date.parse(tour.start) - now) });
  }
  if (tour.status !== "running" || tour.paused) return "";
  if (tour.format === "arena") {
    return future(tour.ends, now) ? t("tour.ends.in", { time: clock(Date.parse(tour.ends) - now) }) : "";
  }
  if (future(tour.next, now)) return t("tour.next.in", { n: tour.round + 1, time: clock(Date.parse(tour.next) - now) });
  return "";
}

/** statusLine says where the tournament is; when prints a time. */
export function statusLine(t, tour, when) {
  switch (tour.status) {
    case "waiting":
      if (!tour.start) return t("tour.starts.word");
      return Date.parse(tour.start) <= Date.now() ? t("tour.waiting.few") : t("tour.starts.at", { when: when(tour.start) });
    case "running":
      if (tour.paused) return t("tour.paused");
      if (tour.format === "arena") return Date.parse(tour.ends) > Date.now() ? t("tour.arena.running") : t("tour.ended");
      if (tour.next) return t("tour.between", { n: tour.round, of: tour.rounds });
      return t("tour.round.now", { n: tour.round, of: tour.rounds });
    default:
      return t(`tour.status.${tour.status}`);
  }
}

/** standingsColumns are the columns of a format's standings after rank and player. */
export function standingsColumns(format) {
  switch (format) {
    case "swiss":
      return ["points", "buchholz", "games", "wins", "sheet"];
    case "duplicate":
      return ["percent", "games", "score", "sheet"];
    default:
      return ["points", "games", "wins", "sheet"];
  }
}

/** figure prints a number with at most two decimals in the page's language. */
export function figure(x) {
  const lang = (typeof document !== "undefined" && document.documentElement.lang) || undefined;
  return Number(x).toLocaleString(lang, { maximumFractionDigits: 2 });
}

/** cellsOf returns the line's cells for the columns. */
export function cellsOf(t, cols, line) {
  return cols.map((c) => {
    switch (c) {
      case "percent":
        return `${figure(line.percent || 0)} %`;
      case "sheet":
        return (line.sheet || []).map(figure).join(" ");
      default:
        return figure(line[c] || 0);
    }
  });
}
