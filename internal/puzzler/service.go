package puzzler

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/analyst"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/puzzle"
	"github.com/razziagame/razzia/internal/rating"
	"github.com/razziagame/razzia/internal/store"
)

// The refusals of the service.
var (
	ErrNoPuzzle   = protocol.NewRefusal(protocol.PuzzleNotFound, "no such puzzle")
	ErrAnswered   = protocol.NewRefusal(protocol.PuzzleAnswered, "the puzzle was answered already")
	ErrBadAnswer  = protocol.NewRefusal(protocol.BadAnswer, "not a legal move of the puzzle")
	ErrInProgress = protocol.NewRefusal(protocol.GameInProgress, "the game is still being played: no puzzles yet")
	ErrNoGame     = protocol.NewRefusal(protocol.NotFound, "no such game or player")
	ErrBadQuery   = protocol.NewRefusal(protocol.BadRequest, "bad puzzle request")
	ErrFailed     = protocol.NewRefusal(protocol.Internal, "the puzzles failed")
)

// An Error is a request the Service refused; nothing changed.
type Error struct {
	Kind *protocol.Refusal // one of the refusals above
	Msg  string            // for the player
	Err  error             // the cause, if any
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the refusal and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

func refuse(kind *protocol.Refusal, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// A Service serves the puzzles of a store.
type Service struct {
	st  Store
	now func() time.Time
	log *slog.Logger
}

// NewService returns the service of st's puzzles; now is its clock
// (nil: time.Now).
func NewService(st Store, now func() time.Time, log *slog.Logger) *Service {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Service{st: st, now: now, log: log}
}

// internal is a failure of the store, logged; the player reads a generic
// message.
func (s *Service) internal(what string, err error) *Error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Kind: ErrFailed, Msg: "the request was cancelled", Err: err}
	}
	s.log.Error("puzzles: "+what, "err", err)
	return &Error{Kind: ErrFailed, Msg: "the server failed to " + what + ": please try again", Err: err}
}

// MaxSkip bounds the puzzles a request for the next one may skip.
const MaxSkip = store.MaxSkip

// Overview returns what there is to solve and, for a signed-in solver
// (account not ""), their rating.
func (s *Service) Overview(ctx context.Context, account string) (protocol.PuzzlesAnswer, error) {
	counts, err := s.st.PuzzleThemes(ctx)
	if err != nil {
		return protocol.PuzzlesAnswer{}, s.internal("count the puzzles", err)
	}
	out := protocol.PuzzlesAnswer{Total: counts[""], Themes: []protocol.PuzzleThemeCount{}}
	for _, t := range protocol.PuzzleThemes {
		out.Themes = append(out.Themes, protocol.PuzzleThemeCount{Theme: t, Count: counts[string(t)]})
	}
	if account != "" {
		v, err := s.solver(ctx, account)
		if err != nil {
			return out, err
		}
		out.Solver = solverInfo(v)
		recent, err := s.st.PuzzleAttempts(ctx, account, RecentAnswers)
		if err != nil {
			return out, s.internal("read your answers", err)
		}
		for _, a := range recent {
			out.Recent = append(out.Recent, answerOf(a))
		}
	}
	return out, nil
}

// RecentAnswers is how many of a solver's last answers the overview lists.
const RecentAnswers = 10

// answerOf is an answer kept, as its solver reads it.
func answerOf(a *store.PuzzleAttempt) protocol.PuzzleAnswer {
	c := change(a)
	return protocol.PuzzleAnswer{Puzzle: a.Puzzle, Move: a.Answer, Correct: a.Correct, At: a.At.UTC(), Before: c.Before, After: c.After}
}

// solver returns account's puzzle rating, a new solver's when it has none.
func (s *Service) solver(ctx context.Context, account string) (store.Solver, error) {
	v, err := s.st.PuzzleSolver(ctx, account)
	if errors.Is(err, store.ErrNotFound) {
		r := puzzle.Model().New()
		return store.Solver{Rating: store.Rating{Mu: r.Mu, Sigma: r.Sigma}}, nil
	}
	if err != nil {
		return v, s.internal("read your puzzle rating", err)
	}
	return v, nil
}

func solverInfo(v store.Solver) *protocol.PuzzleSolver {
	return &protocol.PuzzleSolver{Rating: puzzle.Scale(rating.Rating{Mu: v.Rating.Mu, Sigma: v.Rating.Sigma}),
		Attempts: v.Rating.Games, Solved: v.Solved, Provisional: v.Rating.Games < puzzle.ProvisionalAttempts}
}

// Puzzle returns puzzle id as account (or a guest, "") sees it, its
// events told by n.
func (s *Service) Puzzle(ctx context.Context, id, account string, n protocol.Narrator) (protocol.Puzzle, error) {
	p, err := s.st.Puzzle(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return protocol.Puzzle{}, refuse(ErrNoPuzzle, "there is no puzzle %q", id)
	}
	if err != nil {
		return protocol.Puzzle{}, s.internal("read the puzzle", err)
	}
	return s.describe(ctx, p, account, n)
}

// Next returns the next puzzle for account (a guest: ""), of theme (any:
// ""), skipping the puzzles of skip: the one nearest the solver's rating
// that they never answered.
func (s *Service) Next(ctx context.Context, account, theme string, skip []string, n protocol.Narrator) (protocol.Puzzle, error) {
	if theme != "" && !protocol.PuzzleTheme(theme).Valid() {
		return protocol.Puzzle{}, refuse(ErrBadQuery, "%q is not a theme; the themes are %s", theme, themeList())
	}
	if len(skip) > MaxSkip {
		return protocol.Puzzle{}, refuse(ErrBadQuery, "%d puzzles to skip; at most %d", len(skip), MaxSkip)
	}
	mu := puzzle.Model().Mu
	if account != "" {
		v, err := s.solver(ctx, account)
		if err != nil {
			return protocol.Puzzle{}, err
		}
		mu = v.Rating.Mu
	}
	p, err := s.st.NextPuzzle(ctx, store.PuzzleQuery{Account: account, Theme: theme, Mu: mu, Skip: skip})
	if errors.Is(err, store.ErrNotFound) {
		if theme != "" {
			return protocol.Puzzle{}, refuse(ErrNoPuzzle, "no puzzle of the theme %s is left for you to solve", theme)
		}
		return protocol.Puzzle{}, refuse(ErrNoPuzzle, "no puzzle is left for you to solve")
	}
	if err != nil {
		return protocol.Puzzle{}, s.internal("find a puzzle", err)
	}
	return s.describe(ctx, p, account, n)
}

func themeList() string {
	names := make([]string, len(protocol.PuzzleThemes))
	for i, t := range protocol.PuzzleThemes {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// Daily returns today's puzzle (UTC).
func (s *Service) Daily(ctx context.Context, account string, n protocol.Narrator) (protocol.Puzzle, error) {
	day := s.now().UTC().Format(time.DateOnly)
	p, err := s.st.DailyPuzzle(ctx, day)
	if errors.Is(err, store.ErrNotFound) {
		return protocol.Puzzle{}, refuse(ErrNoPuzzle, "there is no puzzle yet: they are found in the games played here")
	}
	if err != nil {
		return protocol.Puzzle{}, s.internal("read the day's puzzle", err)
	}
	out, err := s.describe(ctx, p, account, n)
	out.Daily = day
	return out, err
}

// position is a stored puzzle with its game replayed to it.
type position struct {
	p     *store.Puzzle
	ev    storedEval
	game  *razzia.Game // replayed to the puzzle's position
	names []string
}

// position replays p's game to p.
func (s *Service) position(ctx context.Context, p *store.Puzzle) (*position, error) {
	g, err := s.st.Game(ctx, p.Game)
	if err != nil {
		return nil, s.internal("read the puzzle's game", err)
	}
	rec := analyst.Record(g)
	if p.Move >= len(rec.Moves) {
		return nil, s.internal("replay the puzzle's game", fmt.Errorf("puzzle %s: move %d of %d", p.ID, p.Move, len(rec.Moves)))
	}
	rec.Moves = rec.Moves[:p.Move]
	game, err := rec.Game()
	if err != nil {
		return nil, s.internal("replay the puzzle's game", err)
	}
	pos := &position{p: p, game: game, names: rec.Players}
	if err := json.Unmarshal(p.Eval, &pos.ev); err != nil {
		return nil, s.internal("read the puzzle's evaluation", err)
	}
	return pos, nil
}

// describe returns p as account sees it: with their verdict when they
// answered it.
func (s *Service) describe(ctx context.Context, p *store.Puzzle, account string, n protocol.Narrator) (protocol.Puzzle, error) {
	pos, err := s.position(ctx, p)
	if err != nil {
		return protocol.Puzzle{}, err
	}
	out := protocol.Puzzle{ID: p.ID, Game: p.Game, Replay: protocol.ReplayPath(p.Game), Move: p.Move, Seat: p.Seat,
		Players: pos.names, Rating: puzzle.Scale(rating.Rating{Mu: p.Rating.Mu, Sigma: p.Rating.Sigma}),
		Attempts: p.Rating.Games, Solved: p.Solved, View: protocol.NewView(pos.game.View(p.Seat)),
		Events: protocol.Events(pos.game.Events(), pos.names, n)}
	for _, t := range p.Themes {
		out.Themes = append(out.Themes, protocol.PuzzleTheme(t))
	}
	if account == "" {
		return out, nil
	}
	a, err := s.st.PuzzleAttempt(ctx, p.ID, account)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return out, nil
	case err != nil:
		return out, s.internal("read your answer", err)
	}
	v, err := pos.verdict(a.Answer)
	if err != nil {
		return out, s.internal("judge your answer again", err)
	}
	v.Rating, v.At = change(a), a.At
	out.Verdict = &v
	return out, nil
}

// verdict judges answer at pos.
func (pos *position) verdict(answer string) (protocol.PuzzleVerdict, error) {
	st := pos.game.State()
	p := &puzzle.Puzzle{Game: pos.p.Game, Move: pos.p.Move, Seat: pos.p.Seat, Played: pos.ev.Played, Eval: pos.ev.Evaluation}
	return puzzle.Answer(&st, p, answer)
}

// change is the rating change of an answer.
func change(a *store.PuzzleAttempt) *protocol.PuzzleRatingChange {
	b := puzzle.Scale(rating.Rating{Mu: a.SolverBefore.Mu, Sigma: a.SolverBefore.Sigma})
	f := puzzle.Scale(rating.Rating{Mu: a.SolverAfter.Mu, Sigma: a.SolverAfter.Sigma})
	return &protocol.PuzzleRatingChange{Before: b, After: f, Change: f - b,
		Puzzle: puzzle.Scale(rating.Rating{Mu: a.PuzzleAfter.Mu, Sigma: a.PuzzleAfter.Sigma})}
}

// Answer judges account's answer move to puzzle id and, for a signed-in
// solver, stores it with the new ratings of both; a guest ("") gets the
// verdict alone. It refuses a puzzle that does not exist, a move that is
// not legal in its position and a second answer of one account.
func (s *Service) Answer(ctx context.Context, id, account, move string) (protocol.PuzzleVerdict, error) {
	p, err := s.st.Puzzle(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return protocol.PuzzleVerdict{}, refuse(ErrNoPuzzle, "there is no puzzle %q", id)
	}
	if err != nil {
		return protocol.PuzzleVerdict{}, s.internal("read the puzzle", err)
	}
	pos, err := s.position(ctx, p)
	if err != nil {
		return protocol.PuzzleVerdict{}, err
	}
	v, err := pos.verdict(move)
	if errors.Is(err, puzzle.ErrIllegal) {
		return v, refuse(ErrBadAnswer, "%q is not a legal move here: %v", move, errors.Unwrap(err))
	}
	if err != nil {
		return v, s.internal("judge the answer", err)
	}
	v.At = s.now().UTC()
	if account == "" {
		return v, nil
	}
	for try := 0; ; try++ {
		a, err := s.rate(ctx, id, account, v)
		switch {
		case err == nil:
			v.Rating = change(a)
			v.Rating.Provisional = a.SolverBefore.Games+1 < puzzle.ProvisionalAttempts
			return v, nil
		case errors.Is(err, store.ErrAnswered):
			return v, refuse(ErrAnswered, "you have answered puzzle %s already: the first answer counts", id)
		case errors.Is(err, store.ErrConflict) && try < 5:
			continue // another answer moved a rating: again from the new ones
		}
		return v, s.internal("store your answer", err)
	}
}

// rate stores the answer with the ratings it makes.
func (s *Service) rate(ctx context.Context, id, account string, v protocol.PuzzleVerdict) (*store.PuzzleAttempt, error) {
	p, err := s.st.Puzzle(ctx, id)
	if err != nil {
		return nil, err
	}
	sv, err := s.solver(ctx, account)
	if err != nil {
		return nil, err
	}
	sb, pb := rating.Rating{Mu: sv.Rating.Mu, Sigma: sv.Rating.Sigma}, rating.Rating{Mu: p.Rating.Mu, Sigma: p.Rating.Sigma}
	sa, pa := puzzle.Rate(sb, pb, v.Correct)
	a := &store.PuzzleAttempt{Puzzle: id, Account: account, Answer: v.Answer, Correct: v.Correct, At: v.At,
		SolverBefore: store.Rating{Mu: sb.Mu, Sigma: sb.Sigma, Games: sv.Rating.Games}, SolverAfter: store.Rating{Mu: sa.Mu, Sigma: sa.Sigma},
		PuzzleBefore: p.Rating, PuzzleAfter: store.Rating{Mu: pa.Mu, Sigma: pa.Sigma}}
	return a, s.st.AnswerPuzzle(ctx, *a)
}

// GamePuzzles returns the puzzles found in game id, for the players
// who learn from their mistakes: pending until the game is searched. A
// game still being played has none, and is refused: its puzzles would be
// advice to its players.
func (s *Service) GamePuzzles(ctx context.Context, id string, status protocol.Status) (protocol.GamePuzzles, error) {
	if status.Live() {
		return protocol.GamePuzzles{}, refuse(ErrInProgress, "game %s is still being played: its puzzles are found once it is over", id)
	}
	done, err := s.st.PuzzleScanned(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return protocol.GamePuzzles{}, refuse(ErrNoGame, "there is no game %q", id)
	}
	if err != nil {
		return protocol.GamePuzzles{}, s.internal("read the game's puzzles", err)
	}
	out := protocol.GamePuzzles{Status: protocol.AnalysisPending, Puzzles: []protocol.PuzzleBrief{}}
	if status != protocol.StatusFinished {
		// Only finished games are searched: nothing will come.
		done = true
	}
	if done {
		out.Status = protocol.AnalysisDone
	}
	ps, err := s.st.GamePuzzles(ctx, id)
	if err != nil {
		return out, s.internal("read the game's puzzles", err)
	}
	for _, p := range ps {
		b := protocol.PuzzleBrief{ID: p.ID, Move: p.Move, Seat: p.Seat,
			Rating: puzzle.Scale(rating.Rating{Mu: p.Rating.Mu, Sigma: p.Rating.Sigma})}
		for _, t := range p.Themes {
			b.Themes = append(b.Themes, protocol.PuzzleTheme(t))
		}
		out.Puzzles = append(out.Puzzles, b)
	}
	return out, nil
}

// Export returns what is kept of account as a solver: its puzzle rating
// and every answer, the newest first.
func (s *Service) Export(ctx context.Context, account string) (protocol.PuzzleExport, error) {
	v, err := s.solver(ctx, account)
	if err != nil {
		return protocol.PuzzleExport{}, err
	}
	all, err := s.st.PuzzleAttempts(ctx, account, 0)
	if err != nil {
		return protocol.PuzzleExport{}, s.internal("read your answers", err)
	}
	out := protocol.PuzzleExport{Solver: *solverInfo(v), Answers: []protocol.PuzzleAnswer{}}
	for _, a := range all {
		out.Answers = append(out.Answers, answerOf(a))
	}
	return out, nil
}

// Solver returns the puzzle rating of the player called name (a new
// solver's when they never answered), for their profile.
func (s *Service) Solver(ctx context.Context, name string) (protocol.PuzzleSolver, error) {
	a, err := s.st.AccountByKey(ctx, playername.Key(name))
	if errors.Is(err, store.ErrNoAccount) {
		return protocol.PuzzleSolver{}, refuse(ErrNoGame, "there is no player %q", name)
	}
	if err != nil {
		return protocol.PuzzleSolver{}, s.internal("read the player", err)
	}
	v, err := s.solver(ctx, a.ID)
	if err != nil {
		return protocol.PuzzleSolver{}, err
	}
	return *solverInfo(v), nil
}

// LuckGames bounds the games a player's luck is counted over.
const LuckGames = 1000

// Luck returns the luck and skill of the player called name over their
// analysed finished games (the latest LuckGames).
func (s *Service) Luck(ctx context.Context, name string) (protocol.LuckRecord, error) {
	a, err := s.st.AccountByKey(ctx, playername.Key(name))
	if errors.Is(err, store.ErrNoAccount) {
		return protocol.LuckRecord{}, refuse(ErrNoGame, "there is no player %q", name)
	}
	if err != nil {
		return protocol.LuckRecord{}, s.internal("read the player", err)
	}
	rows, err := s.st.SeatLuck(ctx, a.ID, LuckGames)
	if err != nil {
		return protocol.LuckRecord{}, s.internal("read the player's luck", err)
	}
	return LuckRecord(rows), nil
}

// LuckShown is how many of the luckiest and unluckiest games a record
// names.
const LuckShown = 3

// LuckRecord sums up a player's seats: the means, and the luckiest and
// unluckiest games (a game counts as lucky only with luck above 0).
func LuckRecord(rows []store.SeatLuck) protocol.LuckRecord {
	out := protocol.LuckRecord{Games: len(rows), Luckiest: []protocol.LuckGame{}, Unluckiest: []protocol.LuckGame{}}
	if len(rows) == 0 {
		return out
	}
	var luck, skill, result, adjusted float64
	games := make([]protocol.LuckGame, len(rows))
	for i, r := range rows {
		luck += r.Luck
		skill += r.Skill
		result += r.Result
		adjusted += r.Adjusted
		games[i] = protocol.LuckGame{Game: r.Game, Replay: protocol.ReplayPath(r.Game), At: r.Finished, Players: r.Players,
			AnalysisSummary: protocol.AnalysisSummary{Seat: r.Seat, Start: protocol.WinShare(r.Start), Result: protocol.WinShare(r.Result),
				Luck: protocol.WinShare(r.Luck), Skill: protocol.WinShare(r.Skill), Adjusted: protocol.WinShare(r.Adjusted)}}
	}
	n := float64(len(rows))
	out.Luck, out.Skill = protocol.WinShare(luck/n), protocol.WinShare(skill/n)
	out.Result, out.Adjusted = protocol.WinShare(result/n), protocol.WinShare(adjusted/n)
	// Newest first already: a stable sort keeps the newer of equals first.
	slices.SortStableFunc(games, func(a, b protocol.LuckGame) int { return cmp.Compare(b.Luck, a.Luck) })
	for _, g := range games {
		if g.Luck > 0 && len(out.Luckiest) < LuckShown {
			out.Luckiest = append(out.Luckiest, g)
		}
	}
	for i := len(games) - 1; i >= 0; i-- {
		if g := games[i]; g.Luck < 0 && len(out.Unluckiest) < LuckShown {
			out.Unluckiest = append(out.Unluckiest, g)
		}
	}
	return out
}
