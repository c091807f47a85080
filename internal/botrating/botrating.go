// Package botrating measures how strong the server's bot levels are on
// the scale of player ratings, and keeps the measure fixed: games between
// the levels (internal/arena) are fed to the same Weng–Lin model that
// rates players (internal/rating), and the result is embedded in
// levels.json, which `razzia calibrate` rewrites.
//
// The ratings are relative: only differences mean anything. They are
// shifted so that the default level (bot.DefaultLevel) has the Mu of a new
// player: a newcomer is believed, before their first game, to play like
// the bot the server offers first.
//
// The bots never change, so Tau is 0 while calibrating, and their ratings
// are never updated by the games people play against them.
package botrating

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/arena"
	"github.com/razziagame/razzia/internal/rating"
)

// A Calibration is the measured strength of the bot levels.
type Calibration struct {
	// Command is the command that made it.
	Command string `json:"command"`
	Seed    uint64 `json:"seed"`
	Games   int    `json:"games"`
	// Levels are the ratings of the levels, shifted so that the default
	// level's Mu is the model's new player's.
	Levels map[string]rating.Rating `json:"levels"`
	// ByPlayers are the same, measured on the games of each table size
	// alone (keyed "2" to "5"), to see whether the strength of a level
	// depends on the number of players.
	ByPlayers map[string]map[string]rating.Rating `json:"byPlayers"`
	// Groups says whether ratings per table size are called for: some
	// difference between two levels differs between two sizes by more
	// than twice its uncertainty.
	Groups bool `json:"groups"`
	// Specs are the bot specs each level was played with: its level's
	// Fixed spec, bounded by iterations rather than time, so that the games
	// are the same on any machine.
	Specs map[string]string `json:"specs"`
	// Weights are the levels' weights in the draw of the tables' seats,
	// when not all 1 (see Config.Weights).
	Weights map[string]float64 `json:"weights,omitempty"`
}

//go:embed levels.json
var levelsJSON []byte

// Embedded returns the calibration embedded in the program.
func Embedded() (*Calibration, error) {
	var c Calibration
	if err := json.Unmarshal(levelsJSON, &c); err != nil {
		return nil, fmt.Errorf("botrating: the embedded levels.json: %w", err)
	}
	return &c, nil
}

// MaxSigma is the widest uncertainty of a level's rating that people are
// rated against. A new player's is 8.33; a level measured hardly better
// than that (played in a handful of calibration games, as a costly level
// is when the run's budget is short) would move its opponents' ratings on
// a guess, and could even rank below a weaker level, so it is left out of
// Levels until a longer calibration knows it.
const MaxSigma = 7.0

// Levels returns the embedded ratings of the levels known well enough to
// rate people against (Sigma at most MaxSigma); a level it lacks (one
// added since the last calibration, or measured too thinly) is refused at
// rated tables.
func Levels() map[string]rating.Rating {
	c, err := Embedded()
	if err != nil {
		panic(err) // the file is part of the program and tested
	}
	out := make(map[string]rating.Rating, len(c.Levels))
	for l, r := range c.Levels {
		if r.Sigma <= MaxSigma {
			out[l] = r
		}
	}
	return out
}

// Config describes a calibration run.
type Config struct {
	// Games is how many games to play, at least; default 400.
	Games int
	// Seed makes the run reproducible; default 1.
	Seed uint64
	// Workers is the games played at once; 0 means GOMAXPROCS.
	Workers int
	// Levels are the levels to rate; default bot.LevelNames().
	Levels []string
	// Weights weigh the levels in the draw of each seat (a level not
	// named weighs 1): a costly level (expert thinks for about nine times
	// as long as hard) can sit at fewer tables, so that the cheap levels'
	// games, which cost next to nothing, can be many in the same time.
	Weights map[string]float64
	// Progress, when set, is told the games played so far and the total.
	Progress func(done, total int)
	// Log, when set, is a file of the tables played so far, one JSON line
	// each, appended to as each table ends. A run finds there the tables
	// it would play (the same table and seed, and bots that play there as
	// the levels' specs do: bot.SamePlay) and takes their games instead of
	// playing them again, so that a run stopped on a busy machine goes on
	// where it stopped, a run with more games extends one with fewer (the
	// tables of fewer games begin those of more), and a level changed at
	// one table size is played again at that size only. The log knows the
	// bots by their specs only: delete it when a bot's play changes
	// without its spec.
	Log string
	// Build names the program playing the games (razzia's revision, say;
	// "" for none): each table logged keeps it, and a table taken from
	// the log that another build played, or an unnamed one, is reported
	// to OtherBuild, since a fix to a bot can change its play without
	// changing its spec.
	Build      string
	OtherBuild func(table int, build string)
}

// Spec returns the bot spec level is calibrated with: the level's Fixed
// spec (bot.Level), bounded by iterations rather than time, so that a
// loaded machine plays the same games as an idle one.
func Spec(level string) (string, error) {
	l, ok := bot.LookupLevel(level)
	if !ok {
		return "", fmt.Errorf("botrating: %q is not a bot level (the levels are %s)", level, strings.Join(bot.LevelNames(), ", "))
	}
	return l.Fixed, nil
}

// Lineups returns the tables a run plays, in order: multisets of the
// levels drawn from seed, 2 to 5 seats, each seat's level drawn with a
// chance in proportion to its weight in weights (1 when absent), never
// one level alone, until their games (one per seat, every level in every
// position) reach games.
func Lineups(levels []string, weights map[string]float64, games int, seed uint64) [][]string {
	r := rand.New(rand.NewPCG(seed, 0x6f746162)) // "bota"
	cum := make([]float64, len(levels))
	total := 0.0
	for i, l := range levels {
		w, ok := weights[l]
		if !ok {
			w = 1
		}
		total += w
		cum[i] = total
	}
	var out [][]string
	for n := 0; n < games; {
		players := razzia.MinPlayers + r.IntN(razzia.MaxPlayers-razzia.MinPlayers+1)
		seats := make([]string, players)
		for i := range seats {
			x := r.Float64() * total
			k, _ := slices.BinarySearch(cum, x)
			if k < len(levels) && cum[k] == x {
				k++ // x is in [cum[k-1], cum[k])
			}
			seats[i] = levels[min(k, len(levels)-1)]
		}
		if slices.Min(seats) == slices.Max(seats) {
			continue
		}
		out = append(out, seats)
		n += players
	}
	return out
}

// A Game is the outcome of one calibration game: the level and final
// total of each seat.
type Game struct {
	Levels []string `json:"levels"`
	Totals []int    `json:"totals"`
}

// A logged table is one line of Config.Log: a table's games.
type logged struct {
	Table int      `json:"table"`
	Seed  uint64   `json:"seed"`
	Specs []string `json:"specs"`
	Games []Game   `json:"games"`
	Build string   `json:"build,omitempty"`
}

// readLog returns the tables of the log at path by their index; a missing
// file is an empty log, and a line that does not parse (the last one of a
// run killed while writing it) is ignored: its table is played again.
func readLog(path string) (map[int]logged, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[int]logged{}
	for line := range bytes.Lines(data) {
		var l logged
		if json.Unmarshal(line, &l) == nil {
			out[l.Table] = l
		}
	}
	return out, nil
}

// appendLog adds a table to the log at path, on a line of its own even
// after a line cut short.
func appendLog(path string, l logged) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	last := []byte{'\n'}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		f.ReadAt(last, st.Size()-1)
	}
	if last[0] != '\n' {
		b = append([]byte{'\n'}, b...)
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// recordsDir returns the directory for the records of the tables being
// played: beside the log, when there is one, so that a run killed in the
// middle of a table keeps the games it finished there (a table's records
// go once it is logged); else a new temporary one.
func recordsDir(log string) (string, error) {
	if log == "" {
		return os.MkdirTemp("", "razzia-calibrate-")
	}
	dir := log + ".games"
	return dir, os.MkdirAll(dir, 0o755)
}

// Play plays the lineups' games (arena.Run, one rotation of each) and
// returns their outcomes in order, taking those of a table already in
// c.Log from there, and the finished games of a table cut short from
// their records beside it (c.Log + ".games").
func Play(ctx context.Context, c Config, lineups [][]string) ([]Game, error) {
	specs := map[string]string{}
	for _, l := range c.Levels {
		s, err := Spec(l)
		if err != nil {
			return nil, err
		}
		specs[l] = s
	}
	total := 0
	for _, l := range lineups {
		total += len(l)
	}
	dir, err := recordsDir(c.Log)
	if err != nil {
		return nil, err
	}
	if c.Log == "" {
		defer os.RemoveAll(dir)
	} else {
		defer os.Remove(dir) // once every table is logged, it is empty
	}
	var past map[int]logged
	if c.Log != "" {
		if past, err = readLog(c.Log); err != nil {
			return nil, fmt.Errorf("botrating: the log: %w", err)
		}
	}
	var games []Game
	for k, lineup := range lineups {
		seats := make([]string, len(lineup))
		for i, l := range lineup {
			seats[i] = specs[l]
		}
		seed := c.Seed*1_000_003 + uint64(k)
		if p, ok := past[k]; ok && p.Seed == seed && samePlay(p.Specs, seats) && len(p.Games) == len(seats) {
			games = append(games, p.Games...)
			if c.Build != "" && p.Build != c.Build && c.OtherBuild != nil {
				c.OtherBuild(k, p.Build)
			}
			if c.Progress != nil {
				c.Progress(len(games), total)
			}
			continue
		}
		records := filepath.Join(dir, fmt.Sprint(k))
		done := len(games)
		cfg := arena.Config{Seats: seats, Games: len(seats), Seed: seed, Workers: c.Workers, Records: records, Resume: c.Log != ""}
		if c.Progress != nil {
			cfg.Progress = func(n int) { c.Progress(done+n, total) }
		}
		if _, err := arena.Run(ctx, cfg); err != nil {
			if c.Log != "" && !errors.Is(err, ctx.Err()) {
				err = fmt.Errorf("table %d: %w (remove %s to play the table again)", k, err, records)
			}
			return nil, err
		}
		for i := range len(seats) {
			data, err := os.ReadFile(filepath.Join(records, arena.RecordName(i, len(seats))))
			if err != nil {
				return nil, err
			}
			rec, err := razzia.ReadRecord(bytes.NewReader(data))
			if err != nil {
				return nil, err
			}
			g, err := rec.Game()
			if err != nil {
				return nil, err
			}
			if !g.Over() {
				return nil, errors.New("botrating: a calibration game did not end")
			}
			st := g.State()
			games = append(games, Game{Levels: arena.Rotation(lineup, i), Totals: st.Totals()})
		}
		if c.Log != "" {
			if err := appendLog(c.Log, logged{Table: k, Seed: seed, Specs: seats, Games: games[done:], Build: c.Build}); err != nil {
				return nil, fmt.Errorf("botrating: the log: %w", err)
			}
			if err := os.RemoveAll(records); err != nil {
				return nil, err
			}
		}
	}
	return games, nil
}

// samePlay reports whether a table logged with the bots of specs logged,
// seat by seat, plays as one with the bots of specs.
func samePlay(logged, specs []string) bool {
	if len(logged) != len(specs) {
		return false
	}
	for i, s := range specs {
		if !bot.SamePlay(logged[i], s, len(specs)) {
			return false
		}
	}
	return true
}

// Fit rates the levels from the games, in order, with the model (its Tau
// set to 0: the bots do not change), every level starting as a new
// player, and shifts the ratings so that anchor's Mu is the model's.
func Fit(m rating.Model, games []Game, levels []string, anchor string) (map[string]rating.Rating, error) {
	m.Tau = 0
	r := map[string]rating.Rating{}
	for _, l := range levels {
		r[l] = m.New()
	}
	for _, g := range games {
		before := make([]rating.Rating, len(g.Levels))
		for i, l := range g.Levels {
			before[i] = r[l]
		}
		after, err := m.Rate(before, rating.Ranks(g.Totals))
		if err != nil {
			return nil, err
		}
		// A level holding several seats moves by the mean of its seats'
		// updates and shrinks as the most certain of them.
		sum := map[string]rating.Rating{}
		n := map[string]float64{}
		for i, l := range g.Levels {
			s := sum[l]
			s.Mu += after[i].Mu
			if s.Sigma == 0 || after[i].Sigma < s.Sigma {
				s.Sigma = after[i].Sigma
			}
			sum[l] = s
			n[l]++
		}
		for l, s := range sum {
			r[l] = rating.Rating{Mu: s.Mu / n[l], Sigma: s.Sigma}
		}
	}
	if a, ok := r[anchor]; ok {
		shift := m.Mu - a.Mu
		for l, x := range r {
			r[l] = rating.Rating{Mu: round(x.Mu + shift), Sigma: round(x.Sigma)}
		}
	}
	return r, nil
}

// round keeps four decimals: more is noise, and the file stays readable.
func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// Calibrate plays the games and fits the ratings, overall and per table
// size.
func Calibrate(ctx context.Context, c Config) (*Calibration, error) {
	if c.Games <= 0 {
		c.Games = 400
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if len(c.Levels) == 0 {
		c.Levels = bot.LevelNames()
	}
	if len(c.Levels) < 2 || len(c.Levels) != len(slices.Compact(slices.Sorted(slices.Values(c.Levels)))) {
		return nil, errors.New("botrating: calibrating needs two levels or more, each named once")
	}
	if err := c.checkWeights(); err != nil {
		return nil, err
	}
	lineups := Lineups(c.Levels, c.Weights, c.Games, c.Seed)
	games, err := Play(ctx, c, lineups)
	if err != nil {
		return nil, err
	}
	return fitAll(rating.Default(), games, c)
}

// checkWeights refuses a weight for a level not rated and a weight that
// is not a positive finite number: a level never drawn would be written
// with a new player's rating (leave it out of Levels instead).
func (c Config) checkWeights() error {
	for l, w := range c.Weights {
		if !slices.Contains(c.Levels, l) {
			return fmt.Errorf("botrating: a weight for %q, which is not among the levels rated (%s)", l, strings.Join(c.Levels, ", "))
		}
		if !(w > 0) || math.IsInf(w, 1) {
			return fmt.Errorf("botrating: the weight of %s is %v; want a finite number above 0", l, w)
		}
	}
	return nil
}

// fitAll fits the games overall and per table size.
func fitAll(m rating.Model, games []Game, c Config) (*Calibration, error) {
	anchor := bot.DefaultLevel
	if !slices.Contains(c.Levels, anchor) {
		anchor = c.Levels[0]
	}
	out := &Calibration{Seed: c.Seed, Games: len(games), ByPlayers: map[string]map[string]rating.Rating{}, Specs: map[string]string{}}
	for l, w := range c.Weights {
		if w != 1 {
			if out.Weights == nil {
				out.Weights = map[string]float64{}
			}
			out.Weights[l] = w
		}
	}
	for _, l := range c.Levels {
		out.Specs[l], _ = Spec(l)
	}
	var err error
	if out.Levels, err = Fit(m, games, c.Levels, anchor); err != nil {
		return nil, err
	}
	for n := razzia.MinPlayers; n <= razzia.MaxPlayers; n++ {
		var sized []Game
		for _, g := range games {
			if len(g.Levels) == n {
				sized = append(sized, g)
			}
		}
		if len(sized) == 0 {
			continue
		}
		if out.ByPlayers[fmt.Sprint(n)], err = Fit(m, sized, c.Levels, anchor); err != nil {
			return nil, err
		}
	}
	out.Groups = GroupsMatter(out.ByPlayers, c.Levels)
	return out, nil
}

// GroupsMatter reports whether the difference between two levels, in
// Mu, differs between two table sizes by more than twice the uncertainty
// of that comparison (the root of the sum of the four variances): the
// data then show that a level's strength depends on the table size.
func GroupsMatter(by map[string]map[string]rating.Rating, levels []string) bool {
	var sizes []string
	for k := range by {
		sizes = append(sizes, k)
	}
	slices.Sort(sizes)
	for i, a := range levels {
		for _, b := range levels[i+1:] {
			for x, s := range sizes {
				for _, t := range sizes[x+1:] {
					ra, rb, sa, sb := by[s][a], by[s][b], by[t][a], by[t][b]
					if ra.Sigma == 0 || rb.Sigma == 0 || sa.Sigma == 0 || sb.Sigma == 0 {
						continue
					}
					d := math.Abs((ra.Mu - rb.Mu) - (sa.Mu - sb.Mu))
					u := math.Sqrt(ra.Sigma*ra.Sigma + rb.Sigma*rb.Sigma + sa.Sigma*sa.Sigma + sb.Sigma*sb.Sigma)
					if d > 2*u {
						return true
					}
				}
			}
		}
	}
	return false
}
