package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/protocol"
)

// The defaults of the hint fields of Options.
const (
	DefaultHintRate    = 1.0 / 10 // 6 a minute
	DefaultHintBurst   = 3
	DefaultHintWorkers = 1
)

// hinting is what the hint route keeps: the rate of each seat and the
// searches under way.
type hinting struct {
	seats      *clientRate   // by game and seat
	searches   chan struct{} // a token per search that may run
	iterations int
}

func newHinting(o Options) *hinting {
	rate, burst, workers := o.HintRate, o.HintBurst, o.HintWorkers
	if rate <= 0 {
		rate = DefaultHintRate
	}
	if burst <= 0 {
		burst = DefaultHintBurst
	}
	if workers <= 0 {
		workers = DefaultHintWorkers
	}
	return &hinting{seats: newClientRate("hints", rate, burst), searches: make(chan struct{}, workers),
		iterations: min(max(0, o.HintIterations), analysis.MaxIterations)}
}

// routeAnalysis serves the analyses of finished games and the hints.
func (s *Server) routeAnalysis(mux *http.ServeMux) {
	s.hinting = newHinting(s.opts)
	mux.HandleFunc("GET /api/games/{id}/analysis", s.analysis)
	mux.HandleFunc("POST /api/games/{id}/hints", s.hints)
}

// analysis answers the analysis of a finished game: pending (202) until
// the background analysis stored it. A game still being played is
// refused, since its analysis would be advice to its players.
func (s *Server) analysis(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	info, a, err := s.hub.Analysis(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	switch {
	case info.Status == protocol.StatusFinished:
	case info.Status.Live():
		s.fail(w, r, newError(protocol.GameInProgress, "game %s is still being played: it is analysed once it is over, so that nobody at the table gets advice", id))
		return
	default:
		s.fail(w, r, newError(protocol.NotAnalysed, "game %s is %s: the server analyses the games played here once they are over; run razzia analyze on a record", id, info.Status))
		return
	}
	status := http.StatusOK
	if a.Status == protocol.AnalysisPending {
		status = http.StatusAccepted
	}
	writeJSON(w, status, a)
}

// hintRefusal says why the seat of view may not have hints at the table
// of info, or nil: a rated table, a game that is over, another seat to
// move.
func hintRefusal(info protocol.GameInfo, view razzia.View) error {
	switch st := &view.State; {
	case info.Rated:
		return newError(protocol.RatedTable, "this table is rated: its games are played without the engine's help")
	case st.Over():
		return newError(protocol.GameOver, "the game is over")
	case st.ToMove() != view.Seat:
		return newError(protocol.NotYourTurn, "hints are for the seat to move: seat %d is to move, yours is %d", st.ToMove(), view.Seat)
	}
	return nil
}

// hints answers the best moves for the seat the request's token holds,
// at a casual table, when the seat is to move; a seat may ask HintBurst
// times at once and HintRate times a second.
func (s *Server) hints(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	info, view, err := s.hub.SeatView(r.Context(), id, tokenOf(r, id, false))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := hintRefusal(info, view); err != nil {
		s.fail(w, r, err)
		return
	}
	h := s.hinting
	if err := h.seats.allow(id+"/"+strconv.Itoa(view.Seat), s.now()); err != nil {
		var e *apiError
		if errors.As(err, &e) {
			e.obj.Message = fmt.Sprintf("too many hints for your seat: at most %d at once and %s a minute", h.seats.burst, perMinute(h.seats.rate))
		}
		s.fail(w, r, err)
		return
	}
	select {
	case h.searches <- struct{}{}:
		defer func() { <-h.searches }()
	case <-r.Context().Done():
		return
	}
	// Seeded by the position alone: the same question, the same answer.
	hints, err := analysis.Hints(r.Context(), view, analysis.Options{Iterations: h.iterations, Seed: uint64(view.Moves)})
	if err != nil {
		if r.Context().Err() == nil {
			s.fail(w, r, fmt.Errorf("hints for game %s: %w", id, err))
		}
		return
	}
	writeJSON(w, http.StatusOK, protocol.HintsAnswer{Seat: view.Seat, Moves: view.Moves, Hints: hints})
}
