package bot

import "github.com/razziagame/razzia"

// prune removes from legal, in place, the bids that pay more than needed,
// and returns what is left, in order. Two bids are alike when the seats
// still to bid after the seat to move hold no cheque between them: the
// same cheques can outbid either. Of alike bids only the lowest is kept,
// since a lower cheque wins the same lot, keeps the seat's cheque total
// higher (R17) and puts a lower cheque in the centre for the next winner
// (R11). As the last to bid, or with nobody able to outbid, that leaves
// the lowest bid alone. For an empty row, which wins only the centre
// cheque, bids worth more than the centre are dropped, unless the seat
// must bid (R9).
func prune(s *razzia.State, legal []razzia.Move) []razzia.Move {
	if s.Phase() != razzia.PhaseAuction {
		return legal
	}
	// The cheques that could still answer a bid: those of the seats after
	// the one to move, up to the initiator, that have not had their chance.
	var answers razzia.Cheques
	me := s.ToMove()
	for q := (me + 1) % s.Players(); q != me; q = (q + 1) % s.Players() {
		if s.Bidding(q) == razzia.BiddingUndecided {
			answers |= s.FaceUp(q)
		}
		if q == s.Initiator() {
			break
		}
	}
	out := legal[:0]
	prev := -1 // the previous bid kept
	for _, m := range legal {
		if m.Action != razzia.ActionBid {
			out = append(out, m)
			continue
		}
		c := int(m.Cheque)
		if s.RowLen() == 0 && !s.MustBid() && c > s.Centre() {
			continue
		}
		// Alike to the previous bid kept: no answer lies in (prev, c].
		if prev >= 0 && answers.Above(prev)&^answers.Above(c) == 0 {
			continue
		}
		out = append(out, m)
		prev = c
	}
	return out
}
