// Package tournament holds the rules of Razzia tournaments as data and
// functions: how many tables of which sizes a number of people makes,
// who sits with whom in a Swiss or duplicate round and in an arena, the
// points each finishing place earns, the matchpoints of a duplicate deal
// and the standings with their tie-breaks.
//
// It has no I/O, no goroutine and no clock of its own: the time is an
// argument where it matters, and every choice that needs chance draws it
// from a seed the caller gives, so the same inputs always give the same
// tables. The director that runs a tournament on a server (stores it,
// creates its tables, follows their results) is built on it.
//
// # Formats
//
//   - Swiss: a fixed number of rounds; each round seats the people by
//     score, avoiding opponents they met before where it can (Group).
//   - Arena: for a fixed time; whoever finishes a game waits to be seated
//     again as soon as enough people are free (ArenaSeat); a person who
//     won their last two games is on fire and scores double.
//   - Duplicate: every table of a round of one size plays the same deal,
//     and each result is compared with those of everyone who held the
//     same seat of the same deal (Matchpoints).
//
// # Points by place
//
// At a table of m players, a player's share is the number of opponents
// they finished ahead of, plus half of those they tied with, divided by
// m-1: 1 for a win alone, 0 for last alone, ½ for a shared win of two.
// A player a bot stood in for (their clock ran out, or they left) ranks,
// as the clock rules say for a rated game, below everyone who stayed, and
// equal with the others a bot stood in for, whatever the bot scored.
// Points keep shares exact in 24ths (Points).
package tournament
