// Package arena plays many games between bots and reports how each one did:
// wins with a confidence interval, mean scores by category, head-to-head
// results and the time the bots take to decide. It is the engine of
// "razzia arena" and knows nothing of flags or terminals.
//
// A run is reproducible: every game draws its deck, its cheque deal and its
// bots' seeds from the run's seed and the game's index alone, so the
// results and records do not depend on how the games were scheduled (bots
// limited by time, and the timing figures, excepted).
package arena

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
)

// DefaultGames is the number of games a Config with Games 0 plays.
const DefaultGames = 100

// A Factory makes a bot from its spec and seed, such as bot.New. The
// arena runs no program itself: a factory that also makes bots played by
// programs (internal/botexec) is wired in by the command.
type Factory func(spec string, seed uint64) (bot.Bot, error)

// Config describes a run.
type Config struct {
	// Seats is the lineup: one bot spec per seat, 2 to 5. Game i seats the
	// lineup rotated left by i mod len(Seats), so that every bot sits in
	// every position equally often when Games is a multiple of len(Seats).
	Seats []string
	// Games is the number of games; 0 means DefaultGames.
	Games int
	// Seed makes the run reproducible.
	Seed uint64
	// Duplicate replays every deal with the seats rotated: games i and j
	// share their shuffled deck and their cheque deal when i/len(Seats) ==
	// j/len(Seats), so every bot of the lineup meets the same luck from
	// every seat. Games should be a multiple of len(Seats).
	Duplicate bool
	// Workers is the number of games played at once; 0 means GOMAXPROCS.
	Workers int
	// Records, when set, is a directory to write every game's record to,
	// as game-0001.json and so on (numbered from 1, in game order).
	Records string
	// Resume, with Records, reads a game whose record is in Records
	// already instead of playing it, so that a run stopped or killed and
	// started again with the same configuration plays only the games it
	// lacks. A record that is not this run's game (other players, another
	// deal or draw, a game not over) stops the run with an error naming
	// it. Decision times and faults are of the games played
	// (Result.Resumed counts the others).
	Resume bool
	// New makes the bots; nil means bot.New. It is called with every spec
	// and seed 0 before the first game to check the specs, then once per
	// seat and game.
	New Factory
	// Progress, when set, is called after each finished game with the
	// number finished so far; calls are never concurrent.
	Progress func(done int)
	// Fault, when set, is called for every decision a bot lost (one with
	// a Faults method, such as a program's), with the game's index and the seat, both from 0,
	// after the game; calls are never concurrent.
	Fault func(game, seat int, spec string, f bot.Fault)
}

// A faulter is a bot that may lose decisions and play bot.Default instead,
// such as a program's. Its faults are counted in BotStats.Faults.
type faulter interface {
	Faults() []bot.Fault
}

// A gameNamer wants to know the game it plays, such as a program's bot,
// which names it to the program.
type gameNamer interface {
	SetGame(game string)
}

// Lineup fills the seats from a list of bots: seat s gets bots[s mod
// len(bots)], so "a,b" for 4 players seats a,b,a,b and for 3 players
// a,b,a. Together with the rotation of Config.Seats every bot plays every
// position. There must be no more bots than players.
func Lineup(bots []string, players int) ([]string, error) {
	if players < razzia.MinPlayers || players > razzia.MaxPlayers {
		return nil, fmt.Errorf("%d players: Razzia is for %d to %d", players, razzia.MinPlayers, razzia.MaxPlayers)
	}
	if len(bots) == 0 {
		return nil, errors.New("no bots given")
	}
	if len(bots) > players {
		return nil, fmt.Errorf("%d bots cannot all sit at a table of %d players", len(bots), players)
	}
	seats := make([]string, players)
	for s := range seats {
		seats[s] = bots[s%len(bots)]
	}
	return seats, nil
}

// Check validates the configuration without playing: the number of seats
// and games, and every spec, by making its bot. The error of a bad spec is
// the factory's, which for bot.New wraps bot.ErrSpec and lists the valid
// specs. Check sets a nil New to bot.New.
func (c *Config) Check() error {
	n := len(c.Seats)
	if n < razzia.MinPlayers || n > razzia.MaxPlayers {
		return fmt.Errorf("a table of %d: Razzia is for %d to %d players", n, razzia.MinPlayers, razzia.MaxPlayers)
	}
	if c.Games < 0 {
		return fmt.Errorf("%d games: the number of games cannot be negative", c.Games)
	}
	if c.Workers < 0 {
		return fmt.Errorf("%d workers: the number of workers cannot be negative", c.Workers)
	}
	if c.New == nil {
		c.New = bot.New
	}
	checked := map[string]bool{}
	for _, spec := range c.Seats {
		if checked[spec] {
			continue
		}
		checked[spec] = true
		b, err := c.New(spec, 0)
		if err != nil {
			return err
		}
		b.Close()
	}
	// The names are the specs: a game must accept them.
	if _, err := razzia.NewGame(razzia.Setup{Players: names(c.Seats)}); err != nil {
		return err
	}
	return nil
}

// names returns the player names for a seating: the specs, with "#2",
// "#3", ... added to the second and later seats of a repeated spec.
func names(seats []string) []string {
	out := make([]string, len(seats))
	seen := map[string]int{}
	for s, spec := range seats {
		seen[spec]++
		out[s] = spec
		if k := seen[spec]; k > 1 {
			out[s] += "#" + strconv.Itoa(k)
		}
		out[s] = shorten(out[s])
	}
	return out
}

// shorten keeps a name within razzia.MaxNameLen bytes: a long spec, such
// as an exec: command with a long path, keeps its end, which names the
// program, after an ellipsis.
func shorten(name string) string {
	if len(name) <= razzia.MaxNameLen {
		return name
	}
	const ellipsis = "…"
	i := len(name) - (razzia.MaxNameLen - len(ellipsis))
	for i < len(name) && !utf8.RuneStart(name[i]) {
		i++
	}
	return ellipsis + name[i:]
}

// Run checks the configuration and plays the games. It stops at the first
// error: a bot that returns an illegal move or panics is a bug, reported with
// the game, seat and spec; a record that cannot be written stops the run too.
// Cancelling ctx stops the run: the games in progress are abandoned at
// their next decision, and Run returns ctx's error with the result of the
// games finished so far (Result.Games of them), whose records are written.
func Run(ctx context.Context, c Config) (*Result, error) {
	parent := ctx
	workers, err := c.prepare()
	if err != nil {
		return nil, err
	}
	t := newTally(c.Seats)
	start := time.Now()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	outcomes := c.collect(t, playAll(ctx, cancel, &c, t, workers))
	if parent.Err() != nil {
		// Stopped from outside, as by Ctrl-C: the games played so far
		// are a result, if a smaller one.
		r := t.result(&c, time.Since(start))
		for _, o := range outcomes {
			if o.Seats != nil {
				r.Outcomes = append(r.Outcomes, o)
			}
		}
		return r, context.Cause(parent)
	}
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	r := t.result(&c, time.Since(start))
	r.Outcomes = outcomes
	return r, nil
}

// prepare checks the configuration, fills in its defaults, makes the
// records' directory, and returns how many games to play at once.
func (c *Config) prepare() (workers int, err error) {
	if err := c.Check(); err != nil {
		return 0, err
	}
	if c.Games == 0 {
		c.Games = DefaultGames
	}
	workers = c.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if c.Records != "" {
		if err := os.MkdirAll(c.Records, 0o755); err != nil {
			return 0, err
		}
	}
	return min(workers, c.Games), nil
}

// playAll plays c's games on workers goroutines and returns their
// outcomes as they finish, closed once every worker is done; a game's
// error cancels the run.
func playAll(ctx context.Context, cancel context.CancelCauseFunc, c *Config, t *tally, workers int) <-chan *outcome {
	jobs := make(chan int)
	results := make(chan *outcome, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := newPlayer(c, t)
			for i := range jobs {
				o, err := p.play(ctx, i)
				if err != nil {
					cancel(err) // a stopped run's game: ctx is done already
					return
				}
				// Sent even when the run is stopped: the game's record
				// is written, so it belongs in the result. collect
				// reads until every worker is done.
				results <- o
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range c.Games {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	return results
}

// collect tallies the outcomes until results closes, telling Fault and
// Progress, and returns them by game; a game not played has none.
func (c *Config) collect(t *tally, results <-chan *outcome) []Outcome {
	done := 0
	outcomes := make([]Outcome, c.Games)
	for o := range results {
		t.add(o)
		outcomes[o.index] = o.public(t.specs)
		if c.Fault != nil {
			for s, faults := range o.faults {
				for _, f := range faults {
					c.Fault(o.index, s, t.specs[o.bots[s]], f)
				}
			}
		}
		done++
		if c.Progress != nil {
			c.Progress(done)
		}
	}
	return outcomes
}

// An Outcome is how one game of a run ended.
type Outcome struct {
	Seats  []string // the spec of each seat
	Totals []int    // each seat's final total
}

// Ranks returns each seat's place: 1 for the highest total, and equal
// totals share a place (R18), as rating.Model.Rate takes them.
func (o Outcome) Ranks() []int {
	ranks := make([]int, len(o.Totals))
	for s, v := range o.Totals {
		ranks[s] = 1
		for _, w := range o.Totals {
			if w > v {
				ranks[s]++
			}
		}
	}
	return ranks
}

func (o *outcome) public(specs []string) Outcome {
	out := Outcome{Seats: make([]string, len(o.bots)), Totals: make([]int, len(o.bots))}
	for s, b := range o.bots {
		out.Seats[s] = specs[b]
		out.Totals[s] = o.scores[s].Total()
	}
	return out
}

// An outcome is what one game contributes to the statistics.
type outcome struct {
	index   int
	bots    []int // the index in Result.Bots of each seat's bot
	scores  []razzia.Score
	winners []int
	faults  [][]bot.Fault // by seat
	resumed bool          // read from its record, not played
}

// An iterator is a search bot that tells how many iterations its last
// decision ran.
type iterator interface{ Iterations() int }

// A player plays games for one worker, keeping its own timing histograms
// so that workers never contend; they are merged at the end.
type player struct {
	c     *Config
	index map[string]int // spec -> index in Result.Bots
	times []*histogram   // by bot index
}

func newPlayer(c *Config, t *tally) *player {
	p := &player{c: c, index: t.index}
	for range t.specs {
		p.times = append(p.times, new(histogram))
	}
	t.mu.Lock()
	t.times = append(t.times, p.times)
	t.mu.Unlock()
	return p
}

// Rotation returns the lineup of game i: the seats rotated left by i mod
// the number of seats.
func Rotation(seats []string, i int) []string {
	n := len(seats)
	out := make([]string, n)
	for s := range out {
		out[s] = seats[(s+i)%n]
	}
	return out
}

// gameSeed returns the secret seed of game i of a run, keyed with the
// run's seed and the index so that neighbouring games are unrelated. The
// game is dealt from it as the server deals its tables (razzia.NewSetup,
// bots seeded with razzia.SeededRand).
func gameSeed(run uint64, i int) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], run)
	r := razzia.SeededRand(b[:], "arena game "+strconv.Itoa(i))
	seed := make([]byte, 32)
	for k := 0; k < len(seed); k += 8 {
		binary.LittleEndian.PutUint64(seed[k:], r.Uint64())
	}
	return seed
}

// play plays game i to the end.
func (p *player) play(ctx context.Context, i int) (o *outcome, err error) {
	seats := Rotation(p.c.Seats, i)
	n := len(seats)
	seat := -1 // the seat whose bot is being made or asked
	defer func() {
		if v := recover(); v != nil {
			who := "the engine"
			if seat >= 0 {
				who = fmt.Sprintf("bot %s in seat %d", seats[seat], seat+1)
			}
			err = fmt.Errorf("game %d: %s panicked: %v\n%s", i+1, who, v, debug.Stack())
		}
	}()
	setup, seed := p.deal(i, seats)
	g, err := razzia.NewGame(setup)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", i+1, err)
	}
	o = &outcome{index: i, bots: make([]int, n), faults: make([][]bot.Fault, n)}
	for s, spec := range seats {
		o.bots[s] = p.index[spec]
	}
	if p.c.Resume && p.c.Records != "" {
		switch ok, err := p.resume(i, setup, o); {
		case err != nil:
			return nil, err
		case ok:
			return o, nil
		}
	}
	bots := make([]bot.Bot, n)
	defer func() {
		for _, b := range bots {
			if b != nil {
				b.Close()
			}
		}
	}()
	if err := p.seatBots(i, seats, seed, bots, &seat); err != nil {
		return nil, err
	}
	if err := p.moves(ctx, i, g, seats, bots, o, &seat); err != nil {
		return nil, err
	}
	if p.c.Records != "" {
		if err := p.write(i, g.Record()); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// deal returns game i's setup (its deck and cheque deal) and the seed its
// bots are drawn from.
func (p *player) deal(i int, seats []string) (razzia.Setup, []byte) {
	seed := gameSeed(p.c.Seed, i)
	deal := seed
	if p.c.Duplicate {
		// The deal's own seed, which no other game of the run uses apart
		// from its rotations: the game index is negative.
		deal = gameSeed(p.c.Seed, -1-i/len(seats))
	}
	return razzia.NewSetup(names(seats), deal), seed
}

// moves plays game i on g to its end with bots and finishes o, noting
// the seat being asked in *seat (for a panic's message).
func (p *player) moves(ctx context.Context, i int, g *razzia.Game, seats []string, bots []bot.Bot, o *outcome, seat *int) error {
	for {
		st := g.State()
		if st.Over() {
			o.finish(st, bots)
			return nil
		}
		// A stopped run abandons its games in progress at their next
		// decision, which may be a program's of up to a minute, rather
		// than play them to the end: they are neither counted nor
		// recorded.
		if err := ctx.Err(); err != nil {
			return err
		}
		to := st.ToMove()
		*seat = to
		m := p.choose(g.View(to), bots[to], o.bots[to])
		*seat = -1
		if err := g.Play(m); err != nil {
			return fmt.Errorf("game %d: bot %s in seat %d played %q, which is a bug in the bot: %w",
				i+1, seats[to], to+1, m.String(), err)
		}
	}
}

// seatBots makes the bot of each seat of game i into bots, noting the seat
// being made in *seat (for a panic's message).
func (p *player) seatBots(i int, seats []string, seed []byte, bots []bot.Bot, seat *int) error {
	for s, spec := range seats {
		*seat = s
		var err error
		if bots[s], err = p.c.New(spec, razzia.SeededRand(seed, "bot "+strconv.Itoa(s)).Uint64()); err != nil {
			return fmt.Errorf("game %d, seat %d: %w", i+1, s+1, err)
		}
		if g, ok := bots[s].(gameNamer); ok {
			g.SetGame(strconv.Itoa(i + 1))
		}
	}
	*seat = -1
	return nil
}

// choose asks b, the bot of index k, for its move at v, timing it and
// counting its iterations.
func (p *player) choose(v razzia.View, b bot.Bot, k int) razzia.Move {
	t0 := time.Now()
	m := b.Choose(v)
	h := p.times[k]
	h.add(time.Since(t0))
	if it, ok := b.(iterator); ok && len(v.Legal) > 1 {
		if n := it.Iterations(); n > 0 {
			h.addIters(n)
		}
	}
	return m
}

// finish records the end of the game at st: each seat's scores over the
// rounds, the winners, and the faults the bots noted.
func (o *outcome) finish(st razzia.State, bots []bot.Bot) {
	o.scores = make([]razzia.Score, len(o.bots))
	for rd := 1; rd <= razzia.Rounds; rd++ {
		sc := st.Scores(rd)
		for s := range o.bots {
			for c := range razzia.NumCategories {
				o.scores[s][c] += sc[s][c]
			}
		}
	}
	o.winners = st.Winners()
	for s, b := range bots {
		if f, ok := b.(faulter); ok {
			o.faults[s] = f.Faults()
		}
	}
}

// resume reads game i's outcome into o from its record in Records, if
// there is one, replaying it on the run's own deal: only a record of this
// run's game i replays to its end with the same draws.
func (p *player) resume(i int, setup razzia.Setup, o *outcome) (ok bool, err error) {
	name := filepath.Join(p.c.Records, RecordName(i, p.c.Games))
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("game %d: %w", i+1, err)
	}
	rec, err := razzia.ReadRecord(f)
	f.Close()
	if err == nil {
		err = replayOn(setup, rec, o)
	}
	if err != nil {
		return false, fmt.Errorf("game %d: %s is not this run's game (%w): resume with the run's seats, games, seed and --duplicate, or write to another directory", i+1, name, err)
	}
	return true, nil
}

// replayOn plays rec's moves on a new game of setup, whose seed draws the
// cards, and finishes o with its end; it fails unless the players, the
// cheques and every draw are the record's and the game ends.
func replayOn(setup razzia.Setup, rec *razzia.Record, o *outcome) error {
	if !slices.Equal(rec.Players, setup.Players) {
		return fmt.Errorf("its players are %s", strings.Join(rec.Players, ", "))
	}
	g, err := razzia.NewGame(setup)
	if err != nil {
		return err
	}
	if !slices.EqualFunc(g.Record().Cheques, rec.Cheques, slices.Equal) {
		return errors.New("its cheques are of another deal")
	}
	for k, tok := range rec.Moves {
		m, err := razzia.ParseMove(tok)
		if err == nil && m.Action == razzia.ActionDraw {
			m.Card = razzia.NoKind // the deal's own card, checked below
		}
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return fmt.Errorf("move %d, %q: %w", k+1, tok, err)
		}
	}
	for k, m := range g.Record().Moves {
		if m != rec.Moves[k] {
			return fmt.Errorf("move %d is %q, the deal's is %q", k+1, rec.Moves[k], m)
		}
	}
	st := g.State()
	if !st.Over() {
		return errors.New("its game does not end")
	}
	o.resumed = true
	o.finish(st, nil)
	return nil
}

// RecordName returns the file name of game i's record (0-based i) in a run
// of the given number of games: game-0001.json for the first, with more
// digits when the run has more than 9999 games so that names sort in order.
func RecordName(i, games int) string {
	width := max(4, len(strconv.Itoa(max(games, 1))))
	return fmt.Sprintf("game-%0*d.json", width, i+1)
}

func (p *player) write(i int, rec *razzia.Record) error {
	// Through a temporary file renamed into place: a run killed while
	// writing (a second ctrl+c) leaves no record cut short.
	name := filepath.Join(p.c.Records, RecordName(i, p.c.Games))
	f, err := os.CreateTemp(p.c.Records, "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after the rename, nothing to remove
	if _, err := rec.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
