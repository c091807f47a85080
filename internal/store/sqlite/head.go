package sqlite

// A move of a game that stays in play writes its own row and nothing
// else (migration 00016): the game's time updated, and its clock as the
// move left it, go with the move's row, where they rewrote the game's
// row, one page of the log a move fewer. The games row keeps them as its
// last write left them (a change of status, of the clock between moves,
// a move that changed the status): a game's time updated, clock and
// count of moves are the latest of its row and its last move's. The
// moves' count is its last move's index plus one: moves are stored from
// 0 with no gap. A move's time updated is NULL where its game's row was
// written with it (a move that changed the status, a move stored before
// the migration, a copied move): the row then holds the latest.
//
// The expressions below are of the games row named g, in the statements
// that read or change a game.

// lastMove is column of the last move of game g (NULL for no move).
func lastMove(g, column string) string {
	return "(SELECT moves." + column + " FROM moves WHERE moves.game_id = " + g + ".id ORDER BY moves.idx DESC LIMIT 1)"
}

// updatedOf is the time updated of game g.
func updatedOf(g string) string {
	return "max(" + g + ".updated, coalesce(" + lastMove(g, "updated") + ", 0))"
}

// movesOf is the count of moves of game g.
func movesOf(g string) string {
	return "max(" + g + ".move_count, coalesce(" + lastMove(g, "idx + 1") + ", 0))"
}

// clockOf is the clock of game g.
func clockOf(g string) string {
	return "CASE WHEN " + lastMove(g, "updated") + " > " + g + ".updated THEN " + lastMove(g, "clock") + " ELSE " + g + ".clock END"
}

// nextUpdated is the time updated a change of a game sets, from ?2, now:
// it never goes backwards, so that the order of changes survives a
// clock step.
var nextUpdated = "max(" + updatedOf("games") + " + 1, ?2)"

// moveRow is a move of a game in play, which stays in play, where the
// move may go: its row, inserted only if its game is in play at the
// move's index and the fence permits (store.Lease's Permits: a fence of
// zero, no live lease; else the live lease's fence), with its game's time
// updated and clock (the clock kept when the clock given is NULL). Its
// arguments: index, token, time updated, clock, game twice, index, now,
// and the fence three times; its parameters are bound by position, which
// the driver does without a name to look up. It changes no row of the
// games table, and writes to no index but the moves table's own
// (TestMoveWritesNothingIndexed), so that a move's commit writes one
// page. No row inserted: wtx.live says why.
const moveRow = `INSERT INTO moves (game_id, idx, token, updated, clock)
	SELECT g.id, ?, ?, max(max(g.updated, coalesce(m.updated, 0)) + 1, ?),
		coalesce(?, CASE WHEN m.updated > g.updated THEN m.clock ELSE g.clock END)
	FROM games AS g LEFT JOIN (SELECT idx, updated, clock FROM moves WHERE game_id = ? ORDER BY idx DESC LIMIT 1) AS m ON true
	WHERE g.id = ? AND g.status = 'playing' AND max(g.move_count, coalesce(m.idx + 1, 0)) = ?
		AND (coalesce(g.lease_node, '') <> '' AND g.lease_expires IS NOT NULL AND g.lease_expires > ?) = (? <> 0)
		AND (? = 0 OR g.lease_fence = ?)`

// moveStatus is the update of its game's row by a move that may change
// its status (the last, or the first of a game still open), ?1: it sets
// the status, listed with it, and the game's count of moves, time updated
// and clock, which its move's row (insertMove) then leaves to it. Its
// arguments: status, now, clock, game, index, fence, now.
var moveStatus = `UPDATE games SET status = ?1, updated = ` + nextUpdated + `, listed = ` + listedAs("?1", nextUpdated) + `,
		move_count = ?5 + 1, clock = coalesce(?3, ` + clockOf("games") + `)
	WHERE id = ?4 AND ` + movesOf("games") + ` = ?5 AND status IN ('open', 'playing')
		AND (coalesce(lease_node, '') <> '' AND lease_expires IS NOT NULL AND lease_expires > ?7) = (?6 <> 0)
		AND (?6 = 0 OR lease_fence = ?6)`
