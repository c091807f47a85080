package httpapi

import (
	"net/http"

	"github.com/razziagame/razzia"
)

// A replayStep is the table as a spectator saw it after one move of a
// record (or at the start), with the events that move caused.
type replayStep struct {
	View   razzia.Snapshot `json:"view"`
	Events []razzia.Event  `json:"events"`
}

// replay answers GET /api/games/{id}/replay: the game's record replayed
// by the engine, one step per move after the start, so the replay viewer
// needs no rules. A game being played is replayed as far as it has come.
func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	info, _, err := s.hub.Game(r.Context(), id, "")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rec, err := s.hub.Record(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	steps, err := replaySteps(rec)
	if err != nil {
		// The store holds only games that replayed when they were stored.
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"game": info, "steps": steps})
}

// replaySteps replays the record: step 0 is the start and step i follows
// move i.
func replaySteps(rec *razzia.Record) ([]replayStep, error) {
	g, err := razzia.NewGame(razzia.Setup{Players: rec.Players, Cheques: rec.Cheques})
	if err != nil {
		return nil, err
	}
	steps := make([]replayStep, 0, len(rec.Moves)+1)
	steps = append(steps, replayStep{View: g.View(-1).Snapshot(), Events: []razzia.Event{}})
	for i, tok := range rec.Moves {
		if err := g.PlayToken(tok); err != nil {
			return nil, &razzia.RecordError{Move: i + 1, Token: tok, Err: err}
		}
		steps = append(steps, replayStep{View: g.View(-1).Snapshot(), Events: g.EventsSince(i)})
	}
	return steps, nil
}
