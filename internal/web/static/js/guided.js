// guided.js: what tells a guided first game (the tutorial) from another.
// Every table page asks; only a guided game needs the tutorial's script
// (tutorial.js, loaded with coach.js when one is played), so the question
// lives here, apart from it, and a table's first load does not bring it.

/** BOT is the kind of a tutorial's bot seats (tutorial.Bot on the server). */
export const BOT = "tutorial";

/** isTutorial reports whether a game (GameInfo) is a guided first game. */
export function isTutorial(game) {
  return !!game && game.seats.some((s) => s.bot === BOT);
}
