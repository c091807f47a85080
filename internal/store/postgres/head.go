package postgres

// A move of a game that stays in play writes its own row and does not
// rewrite its game's (migration 00015): the game's time updated, and its
// clock as the move left it, go with the move's row, and the move holds
// its game's row with a lock (FOR SHARE) where its update wrote a new
// version of the row: about half the log a move writes, two buffers of
// seven it touches. The lock conflicts with every update of the row, as
// the move's update did: a change of the lease waits for the move's
// transaction, and a move that waited for one checks the fence against
// the row as it is then. The games row keeps the time updated,
// clock and count of moves as its last write left them (a change of
// status, of the clock between moves, a move that changed the status): a
// game's are the latest of its row and its last move's. The count of
// moves is its last move's index plus one: moves are stored from 0 with
// no gap. A move's time updated is NULL where its game's row was written
// with it (a move that changed the status, a move stored before the
// migration, a copied move): the row then holds the latest.
//
// The expressions below are of the games row named g.

// lastMove is column of the last move of game g (NULL for no move).
func lastMove(g, column string) string {
	return "(SELECT lm." + column + " FROM moves lm WHERE lm.game_id = " + g + ".id ORDER BY lm.idx DESC LIMIT 1)"
}

// updatedOf is the time updated of game g.
func updatedOf(g string) string {
	return "greatest(" + g + ".updated, " + lastMove(g, "updated") + ")"
}

// movesOf is the count of moves of game g.
func movesOf(g string) string {
	return "greatest(" + g + ".move_count, " + lastMove(g, "idx + 1") + ")"
}

// clockOf is the clock of game g.
func clockOf(g string) string {
	return "CASE WHEN " + lastMove(g, "updated") + " > " + g + ".updated THEN " + lastMove(g, "clock") + " ELSE " + g + ".clock END"
}

// nextUpdated is the time updated a change of game g sets, from the
// parameter now: it never goes backwards, so that the order of changes
// survives a clock step.
func nextUpdated(g, now string) string {
	return "greatest(" + updatedOf(g) + " + 1, " + now + ")"
}

// gameColumns are the columns of games g a summary reads, with the time
// updated and the count of moves as they are.
func gameColumns(g string) string {
	return g + ".id, " + g + ".status, " + g + ".created, " + updatedOf(g) + " AS updated, " + movesOf(g) + " AS move_count, " + g + ".rated"
}
