package protocol

import "github.com/razziagame/razzia"

// Replay replays a record into steps: step 0 is the start and step i the
// table after move i, each a spectator's view with the events of its move,
// told by n (nil: without sentences). It also returns the replayed game. A
// record with an illegal move is a *razzia.RecordError, as Record.Game
// gives it. The work is linear in the number of moves: after each move
// only that move's events are read.
func Replay(rec *razzia.Record, n Narrator) ([]Step, *razzia.Game, error) {
	g, err := rec.Game()
	if err != nil {
		return nil, nil, err
	}
	players := g.Players()
	steps := make([]Step, 0, g.Len()+1)
	// A second game, played alongside, gives each step's view and events.
	step, err := razzia.NewGame(razzia.Setup{Players: players, Cheques: rec.Cheques})
	if err != nil {
		return nil, nil, err
	}
	steps = append(steps, Step{View: NewView(step.View(-1)), Events: []Event{}})
	for i, m := range g.Moves() {
		if err := step.Play(m); err != nil {
			return nil, nil, &razzia.RecordError{Move: i + 1, Token: m.String(), Err: err}
		}
		steps = append(steps, Step{View: NewView(step.View(-1)), Events: Events(step.EventsSince(i), players, n)})
	}
	return steps, g, nil
}
