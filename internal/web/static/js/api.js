// api.js: the HTTP API of docs/protocol.md. Every failure becomes an
// APIError with the server's code and message, or code "network" when the
// server could not be reached.

export class APIError extends Error {
  constructor(status, code, message, detail) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail || {};
  }
}

/**
 * request calls the API and returns the decoded JSON body.
 * body: an object (sent as JSON), a Blob/File (sent as is) or undefined.
 */
export async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body instanceof Blob) {
    init.body = body;
    init.headers["Content-Type"] = "application/json";
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let resp;
  try {
    resp = await fetch(path, init);
  } catch (err) {
    throw new APIError(0, "network", "The server cannot be reached. Check your connection and try again.");
  }
  let data = null;
  const text = await resp.text();
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!resp.ok) {
    const e = data && data.error;
    if (e && e.code) throw new APIError(resp.status, e.code, e.message || e.code, e);
    throw new APIError(resp.status, "http_" + resp.status, `The server answered ${resp.status} ${resp.statusText}.`);
  }
  return data;
}

export const listGames = (status) => request("GET", `/api/games?status=${encodeURIComponent(status)}`);
export const getGame = (id) => request("GET", `/api/games/${encodeURIComponent(id)}`);
/** createGame creates a table at a pace (an id of GET /api/paces, "" for the default); a rated one takes signed-in players and bots only. */
export const createGame = (seats, rated, pace) => request("POST", "/api/games", { seats, ...(rated ? { rated } : {}), ...(pace ? { pace } : {}) });
export const cancelGame = (id) => request("DELETE", `/api/games/${encodeURIComponent(id)}`);
/** giveUpSeat frees our own seat (the seat cookie says it is ours) at a table that has not started. */
export const giveUpSeat = (id, seat) => request("DELETE", `/api/games/${encodeURIComponent(id)}/seats/${seat}`);
/** setLevel gives the bot of a seat another level (a name of GET /api/levels), for the table's creator before the start. */
export const setLevel = (id, seat, level) =>
  request("PUT", `/api/games/${encodeURIComponent(id)}/seats/${seat}/level`, { level });
export const listLevels = () => request("GET", "/api/levels");
export const rematch = (id, accept) => request("POST", `/api/games/${encodeURIComponent(id)}/rematch`, { accept });
export const listPaces = (lang) => request("GET", `/api/paces?lang=${encodeURIComponent(lang || "en")}`);
export const joinGame = (id, name, seat) =>
  request("POST", `/api/games/${encodeURIComponent(id)}/join`, seat === undefined ? { name } : { name, seat });
export const uploadRecord = (file) => request("POST", "/api/records", file);
export const recordURL = (id) => `/api/games/${encodeURIComponent(id)}/record`;
/** socketURL is the game's WebSocket; lang is the language the server tells the events in; the seats' presence comes too. */
export const socketURL = (id, lang) =>
  `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api/games/${encodeURIComponent(id)}/ws?lang=${encodeURIComponent(lang || "en")}&presence=1`;
/** learnURL is the page of the puzzles of game id, seat's own (all: seat < 0). */
export const learnURL = (id, seat) => `/puzzles?game=${encodeURIComponent(id)}${seat >= 0 ? `&seat=${seat}` : ""}`;
/** replayURL is the game's replay, its events told in lang. */
export const replayURL = (id, lang) => `/api/games/${encodeURIComponent(id)}/replay?lang=${encodeURIComponent(lang || "en")}`;

/** MAX_RECORD is the largest record the server accepts (1 MiB). */
export const MAX_RECORD = 1 << 20;
