package main

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/tui"
)

// listTournaments prints the server's tournaments with the command that
// plays each.
func listTournaments(ctx context.Context, c *client.Client, w io.Writer) error {
	l, err := c.Tournaments(ctx)
	if err != nil {
		return err
	}
	base := strings.TrimSuffix(c.URL(), "/")
	for _, part := range []struct {
		title string
		list  []protocol.TournamentSummary
	}{{"Running", l.Running}, {"Coming", l.Coming}, {"Finished", l.Finished}} {
		fmt.Fprintf(w, "%s:\n", part.title)
		if len(part.list) == 0 {
			fmt.Fprintln(w, "  none")
		}
		for _, s := range part.list {
			what := fmt.Sprintf("%s, tables of %d, %d/%d players", s.Format, s.TableSize, s.Players, s.Max)
			if s.Private {
				what += ", private"
			}
			fmt.Fprintf(w, "  %s (%s)\n    %s/t/%s\n", s.Name, what, base, s.ID)
			if part.title != "Finished" {
				fmt.Fprintf(w, "    razzia play --server %s --account NAME --tournament %s\n", base, s.ID)
			}
		}
	}
	return nil
}

// tournamentPlay is what razzia play --tournament was asked for.
type tournamentPlay struct {
	server, account, id, password string
}

// playTournaments is razzia play --tournaments (a list) or --tournament
// ID (play one).
func playTournaments(tp tournamentPlay, list bool, opt tui.Options, stdin io.Reader, stdout, stderr io.Writer, fs *flag.FlagSet) int {
	if tp.server == "" {
		return usageError(stderr, fs, playSynopsis, "--tournament and --tournaments need --server URL")
	}
	if list {
		c, err := client.New(tp.server)
		if err != nil {
			return usageError(stderr, fs, playSynopsis, "--server: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		if err := listTournaments(ctx, c, stdout); err != nil {
			fmt.Fprintf(stderr, "razzia play: %v\n", connectError(err, tp.server))
			return 1
		}
		return 0
	}
	if tp.account == "" {
		return usageError(stderr, fs, playSynopsis, "--tournament needs --account NAME: tournaments are for signed-in players")
	}
	return playTournament(tp, opt, stdin, stdout, stderr)
}

// playTournament joins a tournament as the signed-in account and plays its
// rounds in the terminal: between games the tournament's screen (its
// standings and countdown), each game at its table, until the tournament
// ends or the person leaves.
func playTournament(tp tournamentPlay, opt tui.Options, stdin io.Reader, stdout, stderr io.Writer) int {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "razzia play: "+format+"\n", args...) }
	if err := needTerminal("play", stdin, stdout); err != nil {
		logf("%v", err)
		return 1
	}
	cat, ok := i18n.Lookup(opt.Lang)
	if !ok {
		cat = i18n.Default()
	}
	c, err := client.New(tp.server)
	if err != nil {
		logf("--server: %v", err)
		return 2
	}
	c.Chat = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := enterTournament(ctx, c, tp, cat, stdin, stdout); err != nil {
		logf("%v", err)
		return 1
	}
	base := strings.TrimSuffix(c.URL(), "/")
	r := &tournamentRounds{c: c, tp: tp, opt: opt, cat: cat, stdin: stdin, stdout: stdout, logf: logf, base: base,
		comeBack: fmt.Sprintf("razzia play --server %s --account %s --tournament %s", base, tp.account, tp.id)}
	return r.play(ctx)
}

// enterTournament signs the account in and enters it in the tournament,
// unless it is in already.
func enterTournament(ctx context.Context, c *client.Client, tp tournamentPlay, cat *i18n.Catalogue, stdin io.Reader, stdout io.Writer) error {
	password, err := readPassword(cat, tp.account, stdin, stdout)
	if err != nil {
		return fmt.Errorf("reading the password: %w", err)
	}
	setup, done := context.WithTimeout(ctx, connectTimeout)
	defer done()
	if _, err := c.SignIn(setup, tp.account, password); err != nil {
		return fmt.Errorf("signing in to %s on %s: %w", tp.account, tp.server, connectError(err, tp.server))
	}
	t, err := c.Tournament(setup, tp.id)
	if err != nil {
		return fmt.Errorf("tournament %s: %w", tp.id, connectError(err, tp.server))
	}
	if t.You == nil || !t.You.Joined || t.You.Status == protocol.PlayerWithdrawn {
		if _, err := c.JoinTournament(setup, tp.id, tp.password); err != nil {
			return fmt.Errorf("joining %s: %w", t.Name, connectError(err, tp.server))
		}
	}
	return nil
}

// tournamentRounds plays an account's rounds of a tournament in the
// terminal.
type tournamentRounds struct {
	c              *client.Client
	tp             tournamentPlay
	opt            tui.Options
	cat            *i18n.Catalogue
	stdin          io.Reader
	stdout         io.Writer
	logf           func(string, ...any)
	base, comeBack string
	played         map[string]bool // the games played here, not to open again
}

// play shows the tournament's screen until a table is ready for the
// account, plays it, and again, until the person leaves or the tournament
// is over; it returns the exit status.
func (r *tournamentRounds) play(ctx context.Context) int {
	r.played = map[string]bool{}
	lost := 0
	for {
		feed, err := r.c.WatchTournament(ctx, r.tp.id)
		if err != nil {
			if lost++; lost > 5 {
				r.logf("following the tournament: %v", connectError(err, r.tp.server))
				return 1
			}
			time.Sleep(time.Duration(lost) * time.Second) // a restarting server
			continue
		}
		first, ok := <-feed
		if !ok {
			continue
		}
		lost = 0
		screen := tui.NewTournamentScreen(ctx, first, feed, r.played, func(ctx context.Context, action string) (protocol.Tournament, error) {
			return r.c.TournamentAction(ctx, r.tp.id, action)
		}, r.opt)
		sig, err := runProgram(screen, r.stdin, r.stdout)
		if err != nil {
			r.logf("%v", err)
			return 1
		}
		if s, ok := sig.(syscall.Signal); ok {
			return 128 + int(s)
		}
		if screen.Lost() {
			continue
		}
		game := screen.NextGame()
		if game == "" { // the person left the screen
			printStandings(r.stdout, screen.Tournament())
			if s := screen.Tournament().Status; s == protocol.TournamentWaiting || s == protocol.TournamentRunning {
				fmt.Fprintln(r.stdout, r.comeBack)
			}
			return 0
		}
		if status, over := r.game(ctx, game); !over {
			return status
		}
		r.played[game] = true
	}
}

// game plays the account's table game; over is false, with the exit
// status, when the person stopped before its end.
func (r *tournamentRounds) game(ctx context.Context, game string) (status int, over bool) {
	_, seat, err := r.c.Game(ctx, game, "")
	if err != nil {
		r.logf("your table %s: %v", game, connectError(err, r.tp.server))
		return 1, false
	}
	s := r.c.Session(game, "")
	defer s.Close()
	opt := r.opt
	opt.Remote.Tournament = true // the tournament seats the next game: no rematch
	m := tui.NewRemote(ctx, s, seat, r.base+"/g/"+game, opt)
	sig, err := runProgram(m, r.stdin, r.stdout)
	if err != nil {
		r.logf("%v", err)
		return 1, false
	}
	if sig != nil || !m.Over() {
		if sig != syscall.SIGHUP {
			fmt.Fprintln(r.stdout, r.cat.T("tui.seat.kept", "command", r.comeBack))
		}
		return exitStatus(sig, m), false
	}
	return 0, true
}

// printStandings prints a tournament's standings after the screen is gone.
func printStandings(w io.Writer, t protocol.Tournament) {
	fmt.Fprintf(w, "%s (%s)\n", t.Name, t.Status)
	for _, l := range t.Ranking {
		figure := fmt.Sprint(l.Points)
		if t.Format == protocol.FormatDuplicate {
			figure = fmt.Sprintf("%.2f%%", l.Percent)
		}
		fmt.Fprintf(w, "  %3d  %-24s %8s  %d games\n", l.Rank, l.Name, figure, l.Games)
	}
}

var tournamentSynopsis = `
usage: razzia tournament --server URL [--format swiss|arena|duplicate] [--players N] [flags]

Tournament runs a tournament of bots through a server, as people would
play it: it signs in N accounts (registering them the first time: the
server must let one address register that many, razzia serve
--register-burst N, and, past 20, hold N tables and N tournament pages,
--max-conns-per-client N), organises a tournament as the first, enters them
all, starts it, and plays every account's games with a bot (--bot, a
level or any built-in spec; it sees only what the account's seat sees),
until the tournament ends; then it prints the standings and the
tournament's page. The accounts are PREFIX1 to PREFIXN, their password
--secret: a second run signs the same accounts in again.

Examples:
  razzia serve --db /tmp/t.db --register-burst 40 --join-burst 40 &
  razzia tournament --server http://localhost:8080 --format swiss --players 12 --size 4 --rounds 3
  razzia tournament --server http://localhost:8080 --format duplicate --players 12 --size 4 --rounds 2
  razzia tournament --server http://localhost:8080 --format arena --players 7 --size 3 --minutes 10
`

// runTournament is the tournament command.
func runTournament(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("tournament")
	f := defineRunnerFlags(fs)
	rest, status, done := parseFlags(fs, tournamentSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	switch {
	case len(rest) > 0:
		return usageError(stderr, fs, tournamentSynopsis, "no arguments, got %q", rest)
	case *f.server == "":
		return usageError(stderr, fs, tournamentSynopsis, "--server URL is needed")
	case *f.players < 2 || *f.players > 200:
		return usageError(stderr, fs, tournamentSynopsis, "--players: 2 to 200")
	}
	if b, err := bot.New(*f.bot, 1); err != nil {
		return usageError(stderr, fs, tournamentSynopsis, "--bot: %v (%s)", err, bot.SpecHelp)
	} else {
		b.Close()
	}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "razzia tournament: "+format+"\n", args...) }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clients, err := runnerAccounts(ctx, *f.server, *f.prefix, *f.secret, *f.players)
	if err != nil {
		logf("%v", connectError(err, *f.server))
		return 1
	}
	t, err := runnerStart(ctx, clients, f.settings())
	if err != nil {
		logf("%v", err)
		return 1
	}
	page := strings.TrimSuffix(clients[0].URL(), "/") + "/t/" + t.ID
	fmt.Fprintf(stdout, "%s: %s\n", t.Name, page)
	last := runnerAll(ctx, clients, t.ID, *f.bot, stdout, logf)
	printStandings(stdout, last)
	fmt.Fprintln(stdout, page)
	if last.Status != protocol.TournamentFinished {
		return 1
	}
	return 0
}

// runnerFlags are razzia tournament's flags.
type runnerFlags struct {
	server, format, pace, prefix, secret, bot *string
	players, size, rounds, minutes            *int
	fill                                      *bool
}

// defineRunnerFlags defines razzia tournament's flags on fs.
func defineRunnerFlags(fs *flag.FlagSet) *runnerFlags {
	return &runnerFlags{
		server:  fs.String("server", "", "the Razzia server at `URL`"),
		format:  fs.String("format", protocol.FormatSwiss, "the `FORMAT`: swiss, arena or duplicate"),
		players: fs.Int("players", 12, "the number of `N` accounts that play"),
		size:    fs.Int("size", 4, "the table `SIZE`, 2 to 5"),
		rounds:  fs.Int("rounds", 3, "the `ROUNDS` of a Swiss or duplicate tournament"),
		minutes: fs.Int("minutes", 10, "the `MINUTES` an arena lasts"),
		pace:    fs.String("pace", "blitz", "the pace `ID` of its games (a live one)"),
		prefix:  fs.String("prefix", "Runner", "the accounts' names: `PREFIX`1 to PREFIXN"),
		secret:  fs.String("secret", "tournament runner password", "the accounts' `PASSWORD`"),
		fill:    fs.Bool("fill", false, "bots fill the seats the numbers leave"),
		bot:     fs.String("bot", "medium", "the `SPEC` of the bot that plays each account: "+strings.Join(bot.LevelNames(), ", ")+", random, ..."),
	}
}

// settings are the tournament the flags ask for, named for its format
// and the time, with no break between rounds.
func (f *runnerFlags) settings() protocol.TournamentSettings {
	set := protocol.TournamentSettings{Name: fmt.Sprintf("%s run %s", strings.ToUpper((*f.format)[:1])+(*f.format)[1:], time.Now().Format("15:04:05")),
		Format: *f.format, TableSize: *f.size, Pace: *f.pace, Fill: *f.fill, BreakSeconds: new(int)}
	if *f.format == protocol.FormatArena {
		set.Minutes = *f.minutes
	} else {
		set.Rounds = *f.rounds
	}
	return set
}

// runnerStart organises the tournament as the first account, enters every
// account and starts it.
func runnerStart(ctx context.Context, clients []*client.Client, set protocol.TournamentSettings) (protocol.Tournament, error) {
	t, err := clients[0].CreateTournament(ctx, set)
	if err != nil {
		return t, fmt.Errorf("creating the tournament: %w", err)
	}
	for _, c := range clients {
		if _, err := c.JoinTournament(ctx, t.ID, ""); err != nil {
			return t, fmt.Errorf("joining: %w", err)
		}
	}
	if _, err := clients[0].Organise(ctx, t.ID, protocol.ActionStart, ""); err != nil {
		return t, fmt.Errorf("starting: %w", err)
	}
	return t, nil
}

// runnerAll plays every account's games at once until the tournament
// ends (the first account says each round), and returns the tournament
// as last seen by any.
func runnerAll(ctx context.Context, clients []*client.Client, id, spec string, stdout io.Writer, logf func(string, ...any)) protocol.Tournament {
	var wg sync.WaitGroup
	final := make(chan protocol.Tournament, len(clients))
	for i, c := range clients {
		wg.Go(func() {
			last, err := runnerPlays(ctx, c, id, spec, uint64(i+1), func(format string, args ...any) {
				if i == 0 {
					fmt.Fprintf(stdout, format+"\n", args...)
				}
			})
			if err != nil {
				logf("account %d: %v", i+1, err)
			}
			final <- last
		})
	}
	wg.Wait()
	close(final)
	var last protocol.Tournament
	for f := range final {
		if f.Version > last.Version {
			last = f
		}
	}
	return last
}

// runnerAccounts signs in accounts PREFIX1..PREFIXn, registering those
// that do not exist yet.
func runnerAccounts(ctx context.Context, server, prefix, secret string, n int) ([]*client.Client, error) {
	var out []*client.Client
	for i := 1; i <= n; i++ {
		c, err := client.New(server)
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("%s%d", prefix, i)
		// Registering first: a sign-in to an account not there yet would
		// count as a failed one, and the server limits those.
		if _, err := c.Register(ctx, name, secret); err != nil {
			var e *client.Error
			if !errors.As(err, &e) || e.Code != protocol.NameTaken {
				return nil, fmt.Errorf("registering %s: %w", name, err)
			}
			if _, err := c.SignIn(ctx, name, secret); err != nil {
				return nil, fmt.Errorf("signing in %s: %w", name, err)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// runnerPlays plays an account's tournament games with the bot of spec,
// until the tournament ends; it returns the tournament as last seen.
func runnerPlays(ctx context.Context, c *client.Client, id, spec string, seed uint64, say func(string, ...any)) (protocol.Tournament, error) {
	var key [8]byte
	crand.Read(key[:])
	seed ^= binary.LittleEndian.Uint64(key[:])
	played := map[string]bool{}
	var last protocol.Tournament
	round := -1
	for tries := 0; tries < 20; {
		feed, err := c.WatchTournament(ctx, id)
		if err != nil {
			tries++
			select {
			case <-ctx.Done():
				return last, ctx.Err()
			case <-time.After(time.Second): // a restarting server
			}
			continue
		}
		for t := range feed {
			last = t
			if t.Round != round && t.Round > 0 {
				round = t.Round
				say("round %d seated", round)
			}
			if t.Status == protocol.TournamentFinished || t.Status == protocol.TournamentCancelled {
				return t, nil
			}
			if y := t.You; y != nil && y.Game != "" && !played[y.Game] {
				played[y.Game] = true
				seed++
				if err := runnerGame(ctx, c, y.Game, spec, seed); err != nil {
					return last, err
				}
			}
		}
		tries++
	}
	return last, errors.New("the tournament's WebSocket keeps closing")
}

// runnerGame plays the account's seat at game with the bot of spec. The
// bot reads the seat's view of the game, rebuilt from its record so far
// (the record names the cards drawn, never those to come); a bot that
// cannot decide plays the safe move.
func runnerGame(ctx context.Context, c *client.Client, game, spec string, seed uint64) error {
	b, err := bot.New(spec, seed)
	if err != nil {
		return err
	}
	defer b.Close()
	s := c.Session(game, "")
	defer s.Close()
	p := &client.Player{Session: s, Decide: func(st *client.State) string {
		if rec, err := c.Record(ctx, game); err == nil {
			if g, err := rec.Game(); err == nil && g.Len() == st.View.Moves {
				move := b.Choose(g.View(st.Seat)).String()
				if slices.Contains(st.View.Legal, move) {
					return move
				}
			}
		}
		return bot.DefaultMove(st.View.Legal)
	}}
	_, err = p.Play(ctx)
	return err
}
