package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/puzzler"
)

// routePuzzles serves the puzzles and the players' luck, when the server
// has them (Options.Puzzles).
func (s *Server) routePuzzles(mux *http.ServeMux) {
	if s.opts.Puzzles == nil {
		return
	}
	mux.HandleFunc("GET /api/puzzles", s.puzzles)
	mux.HandleFunc("GET /api/puzzles/next", s.nextPuzzle)
	mux.HandleFunc("GET /api/puzzles/daily", s.dailyPuzzle)
	mux.HandleFunc("GET /api/puzzles/{id}", s.puzzle)
	mux.HandleFunc("POST /api/puzzles/{id}/answer", s.answerPuzzle)
	mux.HandleFunc("GET /api/games/{id}/puzzles", s.gamePuzzles)
	mux.HandleFunc("GET /api/players/{name}/luck", s.luck)
	mux.HandleFunc("GET /api/players/{name}/puzzles", s.solverRating)
}

// puzzleError is the API's error of the puzzle service's.
func puzzleError(err error) error {
	var pe *puzzler.Error
	if !errors.As(err, &pe) {
		return err
	}
	return newError(pe.Kind.Code(), "%s", pe.Msg)
}

// solverOf returns the account id of the request's signed-in solver, ""
// for a guest (no session, or one that ended). A session that cannot be
// read is an error: a solver is never taken for a guest, whose answers
// are not kept.
func (s *Server) solverOf(r *http.Request) (string, error) {
	if s.opts.Accounts == nil {
		return "", nil
	}
	se, err := s.sessionOf(r)
	switch {
	case errors.Is(err, account.ErrUnauthorized):
		return "", nil
	case err != nil:
		return "", err
	}
	return se.Account.ID, nil
}

func (s *Server) puzzles(w http.ResponseWriter, r *http.Request) {
	solver, err := s.solverOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, err := s.opts.Puzzles.Overview(r.Context(), solver)
	if err != nil {
		s.fail(w, r, puzzleError(err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// nextPuzzle answers the next puzzle at the solver's level: ?theme=
// chooses a theme, ?skip= lists puzzle ids (comma-separated) a guest has
// seen.
func (s *Server) nextPuzzle(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var skip []string
	for _, id := range strings.Split(q.Get("skip"), ",") {
		if id = strings.TrimSpace(id); id != "" {
			skip = append(skip, id)
		}
	}
	solver, err := s.solverOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p, err := s.opts.Puzzles.Next(r.Context(), solver, q.Get("theme"), skip, catalogue(r))
	if err != nil {
		s.fail(w, r, puzzleError(err))
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) dailyPuzzle(w http.ResponseWriter, r *http.Request) {
	solver, err := s.solverOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p, err := s.opts.Puzzles.Daily(r.Context(), solver, catalogue(r))
	if err != nil {
		s.fail(w, r, puzzleError(err))
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) puzzle(w http.ResponseWriter, r *http.Request) {
	solver, err := s.solverOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p, err := s.opts.Puzzles.Puzzle(r.Context(), r.PathValue("id"), solver, catalogue(r))
	if err != nil {
		s.fail(w, r, puzzleError(err))
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// answerPuzzle judges an answer; a signed-in solver's is stored and
// rated, once.
func (s *Server) answerPuzzle(w http.ResponseWriter, r *http.Request) {
	var req protocol.PuzzleAnswerRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	solver, err := s.solverOf(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, err := s.opts.Puzzles.Answer(r.Context(), r.PathValue("id"), solver, req.Move)
	if err != nil {
		s.fail(w, r, puzzleError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// gamePuzzles answers the puzzles found in a game, for its players to
// learn from their mistakes; a game still being played is refused.
func (s *Server) gamePuzzles(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	info, _, err := s.hub.Game(r.Context(), id, "")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, err := s.opts.Puzzles.GamePuzzles(r.Context(), id, info.Status)
	if err != nil {
		s.fail(w, r, puzzleError(err))
		return
	}
	status := http.StatusOK
	if out.Status == protocol.AnalysisPending {
		status = http.StatusAccepted
	}
	writeJSON(w, status, out)
}

func (s *Server) luck(w http.ResponseWriter, r *http.Request) {
	out, err := s.opts.Puzzles.Luck(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, r, puzzleError(err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// solverRating answers a player's puzzle rating, for their profile.
func (s *Server) solverRating(w http.ResponseWriter, r *http.Request) {
	out, err := s.opts.Puzzles.Solver(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, r, puzzleError(err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}
