package protocol

import "github.com/razziagame/razzia"

// Replay replays a record into steps: step 0 is the start and step i the
// table after move i, each a spectator's view with the events of its move,
// told by n (nil: without sentences). It also returns the replayed game. A
// record with an illegal move is a *razzia.RecordError. The work is linear
// in the number of moves.
func Replay(rec *razzia.Record, n Narrator) ([]Step, *razzia.Game, error) {
	g, err := rec.Game()
	if err != nil {
		return nil, nil, err
	}
	players, moves := g.Players(), g.Moves()
	s, err := razzia.NewState(len(players), rec.Cheques)
	if err != nil {
		return nil, nil, err
	}
	per := moveEvents(g.Events(), moves)
	steps := make([]Step, 0, len(moves)+1)
	steps = append(steps, Step{View: NewView(razzia.View{Seat: -1, Players: players, State: s}), Events: []Event{}})
	for i, m := range moves {
		s.Apply(m)
		steps = append(steps, Step{
			View:   NewView(razzia.View{Seat: -1, Players: players, Moves: i + 1, State: s}),
			Events: Events(per[i], players, n),
		})
	}
	return steps, g, nil
}

// moveEvents splits a game's events by the move that caused them. Every
// move causes at least one event, the first of which its action tells
// (a call: the auction); the events that may follow it (auction, win,
// nowinner, roundend, gameover) never look like the next move's first,
// since an auction that a draw opened is followed by a bid or a pass,
// never by a call. Once the engine tells the events from a given move on,
// this becomes a call per move.
func moveEvents(events []razzia.Event, moves []razzia.Move) [][]razzia.Event {
	per := make([][]razzia.Event, len(moves))
	start := 0
	for i := range moves {
		end := len(events)
		if i+1 < len(moves) {
			first := firstKind(moves[i+1].Action)
			for end = start + 1; end < len(events) && events[end].Kind != first; end++ {
			}
		}
		per[i] = events[start:end:end]
		start = end
	}
	return per
}

// firstKind is the kind of the first event a move of the action causes.
func firstKind(a razzia.Action) razzia.EventKind {
	switch a {
	case razzia.ActionDraw:
		return razzia.EventDraw
	case razzia.ActionThieves:
		return razzia.EventThieves
	case razzia.ActionBid:
		return razzia.EventBid
	case razzia.ActionPass:
		return razzia.EventPass
	}
	return razzia.EventAuction
}
