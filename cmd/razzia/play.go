package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/tui"
)

var playSynopsis = fmt.Sprintf(`
usage: razzia play [--players NAMES|N] [--bots SPEC,...] [--seed N] [--lang TAG] [flags]
       razzia play --server URL [--name NAME | --account NAME [--rated]] [INVITE|ID]
       razzia play --server URL --tournaments
       razzia play --server URL --account NAME --tournament ID [--password P]
       razzia play --server URL [--name NAME | --account NAME] --lobby | --play-now PLAYERS [--pace ID] [--rated] [--bots-after DURATION]

Play plays Razzia! in the terminal (80×24 or larger), driven by the keyboard:
arrows or tab select a move and enter plays it; d draws, c calls an auction,
t uses thieves, p passes, number keys pick a bid; l shows the log, s the
score tables, i the undrawn cards, r the rules, ? the help, q quits.

A local game seats the people at this keyboard first, then the bots. One
person plays against three %[2]s bots. Several people (--players Ann,Bob
or --players 2) play a game among themselves, without bots: hot-seat, it
names whose turn it is before showing their choices. --bots sets the bots
in either case: --players Ann,Bob --bots medium,hard seats two people and
two bots; --bots '' none. A bot is a level (%[1]s) or any built-in
spec "razzia arena" accepts; a server's bots are levels. The same --seed
deals the same cheques and cards to the same moves.

With --server the terminal joins a game on a Razzia server as a player:
give the invite link (http://host:8080/g/ID) or the game's id. Without one,
it creates a table with your seat, the --bots as server bots and open seats
up to --players, and shows the invite link for the others. --account NAME
signs in to the server's account NAME first (the password from
$RAZZIA_PASSWORD, else asked for without echo): the seat is the account's,
under its name, and follows it to the browser; --rated makes the new
table rated (signed-in players and bots only).

--tournaments lists the server's tournaments; --tournament ID joins one as
the --account (--password for a private one) and plays its rounds: between
games its standings and the countdown to the next round, each game at its
table as soon as it is seated; q between games leaves the screen (the
tournament goes on; run the same command to come back).
--lobby shows the server's lobby instead: who is online, the open Play-now
requests (enter joins one), yours (x cancels one) and the challenges to you
(a accepts, d declines with the reason tab chooses). --play-now PLAYERS asks
the server for a table at once (a count, 3, or a range, 2-4, at --pace,
rated with --rated; --bots-after 30s lets bots fill the seats nobody took
after that wait) and waits in the lobby. Seated, by a request or an accepted
challenge, the terminal goes to the table.

Your seat is kept: the seat's token is saved in your configuration folder
(razzia/seats.json, readable by you only), so razzia play LINK takes the
seat back after q, a crash or a reboot, and razzia play --server URL alone
lists your games there, yours to move first. q at a started table leaves
the seat to a server bot until you come back, and so do ctrl+c and a
terminal closed; q at a table you created that still waits for players
asks whether to close it. razzia watch LINK watches a game.

Colours always come with symbols; NO_COLOR turns them off.

Examples:
  razzia play
  razzia play --bots hard,hard --lang nl
  razzia play --players Ann,Bob
  razzia play --players Ann,Bob --bots medium --seed 7
  razzia play --name Ann http://localhost:8080/g/k3x7q2m5ab
  razzia play --server http://localhost:8080 --name Ann --bots easy,easy
  razzia play --server http://localhost:8080 --account Ann --rated --bots hard
  razzia play --server http://localhost:8080 --account Ann --tournament k3x7q2m5ab
  razzia play --server http://localhost:8080 --name Ann --play-now 2-4 --pace blitz --bots-after 30s
  razzia play --server http://localhost:8080 --account Ann --lobby
`, strings.Join(bot.LevelNames(), ", "), bot.DefaultLevel)

// defaultBots are the bots of a person who names none: a game of four.
var defaultBots = strings.Repeat(","+bot.DefaultLevel, 3)[1:]

// runPlay is the play command.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("play")
	f := definePlayFlags(fs)
	rest, status, done := parseFlags(fs, playSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	fs.Visit(func(fl *flag.Flag) { f.botsGiven = f.botsGiven || fl.Name == "bots" })
	usage := func(format string, args ...any) int { return usageError(stderr, fs, playSynopsis, format, args...) }
	if len(rest) > 1 {
		return usage("at most one invite link or game id, got %d arguments", len(rest))
	}
	if *f.delay < 0 {
		return usage("--delay must not be negative")
	}
	tag, cat, err := pickLang(*f.lang)
	if err != nil {
		return usage("%v", err)
	}
	opt := tui.Options{Lang: tag, Delay: *f.delay}
	if _, ok := pace.Lookup(*f.pace); *f.pace != "" && !ok {
		return usage("--pace: no pace %q (the paces are %s)", *f.pace, paceIDs())
	}
	online := *f.server != "" || len(rest) == 1
	if *f.record != "" {
		if online {
			return usage("--record is for a game at this keyboard; a server keeps its games' records (razzia replay LINK)")
		}
		if err := checkRecord(*f.record); err != nil {
			fmt.Fprintf(stderr, "razzia play: --record: %v\n", err)
			return 1
		}
	}
	if *f.tournament != "" || *f.tournaments {
		if *f.lobby || *f.playNow != "" {
			return usage("--tournament and --tournaments are screens of their own: not with --lobby or --play-now")
		}
		return playTournaments(tournamentPlay{server: *f.server, account: *f.account, id: *f.tournament, password: *f.password},
			*f.tournaments, opt, stdin, stdout, stderr, fs)
	}
	if online {
		g, err := f.serverGame(rest)
		if err != nil {
			return usage("%v", err)
		}
		return playOnServer(g, opt, stdin, stdout, stderr, fs)
	}
	g, seats, code := f.localGame(cat, usage)
	if g == nil {
		return code
	}
	defer closeBots(seats)
	return playLocal(g, seats, opt, *f.record, *f.seed, stdin, stdout, stderr)
}

// playFlags are razzia play's flags.
type playFlags struct {
	players, bots, lang, record, server, name, account, pace *string
	seed                                                     *uint64
	delay                                                    *time.Duration
	rated, lobby                                             *bool
	playNow                                                  *string
	botsAfter                                                *time.Duration
	tournament, password                                     *string
	tournaments                                              *bool
	botsGiven                                                bool // --bots was given, if only as ''
}

// definePlayFlags defines razzia play's flags on fs.
func definePlayFlags(fs *flag.FlagSet) *playFlags {
	return &playFlags{
		players:     fs.String("players", "", "the people at this keyboard: `NAMES`, comma-separated, or a number (default: you)"),
		bots:        fs.String("bots", "", "the bots' `SPEC`s, comma-separated: "+strings.Join(bot.LevelNames(), ", ")+", ... (default: "+defaultBots+" with one person, none with several)"),
		seed:        fs.Uint64("seed", 0, "seed of the game: the same seed deals the same cards (default: random)"),
		lang:        fs.String("lang", "", "language `TAG`: "+langTags()+" (default: from $LANG)"),
		delay:       fs.Duration("delay", tui.DefaultDelay, "the least time a bot takes to move"),
		record:      fs.String("record", "", "write the game's record to a new `FILE` as the game goes (a game at this keyboard)"),
		server:      fs.String("server", "", "play on the Razzia server at `URL`"),
		name:        fs.String("name", "", "your `NAME` at a server's table (default: $USER)"),
		account:     fs.String("account", "", "sign in to the server's account `NAME` (password: $RAZZIA_PASSWORD, else asked)"),
		rated:       fs.Bool("rated", false, "with --account, create a rated table"),
		pace:        fs.String("pace", "", "the pace of a new table on a server: `ID`, "+paceIDs()+" (default: untimed, standard when rated)"),
		lobby:       fs.Bool("lobby", false, "with --server, show the lobby: who is online, the open Play-now requests, your challenges"),
		playNow:     fs.String("play-now", "", "with --server, ask to play now with `PLAYERS` (a count, 3, or a range, 2-4) at --pace, rated with --rated"),
		botsAfter:   fs.Duration("bots-after", 0, "with --play-now, let bots fill the table after `DURATION` (15s to 10m)"),
		tournament:  fs.String("tournament", "", "with --server and --account, join tournament `ID` and play its rounds"),
		tournaments: fs.Bool("tournaments", false, "with --server, list the server's tournaments"),
		password:    fs.String("password", "", "a private tournament's `PASSWORD`"),
	}
}

// checkRecord refuses a --record file that cannot be written, or that
// holds another game's record, which the first move would write over.
func checkRecord(path string) error {
	if err := checkWritable(path); err != nil {
		return err
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		return fmt.Errorf("%s exists: give a new file, or remove that one first", path)
	}
	return nil
}

// serverGame is the game on a server the flags and the invite link or
// id (rest) ask for.
func (f *playFlags) serverGame(rest []string) (serverGame, error) {
	invite := ""
	if len(rest) == 1 {
		invite = rest[0]
	}
	bots := *f.bots
	if !f.botsGiven {
		bots = defaultBots
	}
	// Nothing said about a new table: the games to resume come first.
	resume := !f.botsGiven && *f.players == "" && *f.pace == "" && !*f.rated && !*f.lobby && *f.playNow == ""
	g := serverGame{server: *f.server, invite: invite, name: *f.name, account: *f.account, rated: *f.rated,
		pace: *f.pace, bots: bots, players: *f.players, resume: resume, lobby: *f.lobby || *f.playNow != "", playNow: *f.playNow != ""}
	if !g.lobby {
		if *f.botsAfter != 0 {
			return g, errors.New("--bots-after is for a Play-now request (--play-now)")
		}
		return g, nil
	}
	if invite != "" || f.botsGiven || *f.players != "" {
		return g, errors.New("--lobby and --play-now seat you by the server's choice: not with an invite, --bots or --players")
	}
	var err error
	g.request, err = playNowRequest(*f.playNow, *f.pace, *f.rated, *f.botsAfter)
	return g, err
}

// localGame deals the game at this keyboard the flags ask for, and seats
// its people and bots; on a usage error it returns a nil game and the
// exit status. A zero --seed is drawn at random, and set.
func (f *playFlags) localGame(cat *i18n.Catalogue, usage func(string, ...any) int) (*razzia.Game, []tui.Seat, int) {
	switch {
	case *f.account != "" || *f.rated:
		return nil, nil, usage("--account and --rated need --server URL")
	case *f.pace != "":
		return nil, nil, usage("--pace is for a new table on a server (--server): a game at this keyboard has no clock")
	}
	people, err := peopleNames(*f.players, cat)
	if err != nil {
		return nil, nil, usage("--players: %v", err)
	}
	bots := *f.bots
	if !f.botsGiven && len(people) == 1 {
		bots = defaultBots
	}
	var specs []string
	if strings.TrimSpace(bots) != "" {
		specs = strings.Split(bots, ",")
	}
	if n := len(people) + len(specs); n < razzia.MinPlayers || n > razzia.MaxPlayers {
		return nil, nil, usage("%s and %s make %s; the game needs %d to %d",
			plural(len(people), "person", "people"), plural(len(specs), "bot", "bots"), plural(n, "player", "players"),
			razzia.MinPlayers, razzia.MaxPlayers)
	}
	if *f.seed == 0 {
		var b [8]byte
		_, _ = crand.Read(b[:])
		*f.seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	// The game is dealt from the seed as the server deals its tables.
	seedBytes := binary.LittleEndian.AppendUint64(nil, *f.seed)
	seats, err := localSeats(people, specs, seedBytes, cat)
	if err != nil {
		return nil, nil, usage("--bots: %v", err) // which lists the valid specs
	}
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.Name
	}
	if err := distinctNames(names); err != nil {
		closeBots(seats)
		return nil, nil, usage("--players: %v", err) // a person named as a bot is
	}
	g, err := razzia.NewGame(razzia.NewSetup(names, seedBytes))
	if err != nil {
		closeBots(seats)
		return nil, nil, usage("%v", err)
	}
	return g, seats, 0
}

// localSeats seats the people, then a bot for each spec, each bot seeded
// from the game's seed by its seat.
func localSeats(people, specs []string, seed []byte, cat *i18n.Catalogue) ([]tui.Seat, error) {
	var seats []tui.Seat
	for _, p := range people {
		seats = append(seats, tui.Seat{Name: p})
	}
	for i, spec := range specs {
		spec = strings.TrimSpace(spec)
		b, err := bot.New(spec, razzia.SeededRand(seed, fmt.Sprintf("bot %d", len(people)+i)).Uint64())
		if err != nil {
			closeBots(seats)
			return nil, err
		}
		level := spec
		if cat.Has("bot." + spec) {
			level = cat.T("bot." + spec)
		}
		seats = append(seats, tui.Seat{Name: cat.T("tui.botname", "n", i+1, "level", level), Bot: b})
	}
	return seats, nil
}

// closeBots closes the bots of the seats.
func closeBots(seats []tui.Seat) {
	for _, s := range seats {
		if s.Bot != nil {
			s.Bot.Close()
		}
	}
}

// playLocal plays g at this keyboard, writing its record to record (if
// not "") after every move and at the end, and prints the summary.
func playLocal(g *razzia.Game, seats []tui.Seat, opt tui.Options, record string, seed uint64, stdin io.Reader, stdout, stderr io.Writer) int {
	if err := needTerminal("play", stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "razzia play: %v\n", err)
		return 1
	}
	var saveErr error // the last failure to save the record, if any
	if record != "" {
		opt.Moved = func(g *razzia.Game) { saveErr = writeRecord(record, g.Record()) }
	}
	m, err := tui.NewLocal(g, seats, opt)
	if err != nil {
		fmt.Fprintf(stderr, "razzia play: %v\n", err)
		return 1
	}
	sig, err := runProgram(m, stdin, stdout)
	if record != "" {
		// Saved once more whatever ended the program: the last move is
		// on disk even if writing it failed before.
		saveErr = writeRecord(record, g.Record())
	}
	if err != nil {
		fmt.Fprintf(stderr, "razzia play: %v\n", err)
		return 1
	}
	if sig != syscall.SIGHUP { // after a hang-up nobody reads it
		summary(stdout, m, seed)
	}
	if saveErr != nil {
		fmt.Fprintf(stderr, "razzia play: --record: %v\n", saveErr)
		return 1
	}
	return exitStatus(sig, m)
}

// needTerminal reports why the command cannot draw the table: standard
// input and output must be a terminal, so that the keys arrive one by one
// and no escape codes land in a file.
func needTerminal(command string, stdin io.Reader, stdout io.Writer) error {
	for _, f := range []struct {
		name string
		v    any
	}{{"standard input", stdin}, {"standard output", stdout}} {
		file, ok := f.v.(*os.File)
		if !ok || !term.IsTerminal(int(file.Fd())) {
			err := fmt.Errorf("%s is not a terminal: razzia %s draws the table in a terminal of %d×%d or larger",
				f.name, command, tui.MinWidth, tui.MinHeight)
			if command == "play" {
				err = fmt.Errorf("%w (a program plays with razzia bot)", err)
			}
			return err
		}
	}
	return nil
}

// pickLang returns the language of --lang, or of the environment when the
// flag is empty (English when the environment names none Razzia speaks),
// and its catalogue; a --lang Razzia does not speak is an error naming
// those it does.
func pickLang(flag string) (string, *i18n.Catalogue, error) {
	tag := flag
	if tag == "" {
		tag = envLang()
	}
	cat, ok := i18n.Lookup(tag)
	switch {
	case !ok && flag != "":
		return "", nil, fmt.Errorf("--lang %q: the languages are %s", flag, langTags())
	case !ok:
		cat = i18n.Default()
	}
	return tag, cat, nil
}

// exitStatus is the status a shell expects: 128 and the signal's number
// after a signal, 130 after ctrl+c, else 0.
func exitStatus(sig os.Signal, m *tui.Model) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	if m.Interrupted() {
		return 128 + int(syscall.SIGINT)
	}
	return 0
}

// runProgram runs the Bubble Tea program on the terminal until it ends or
// SIGINT, SIGTERM or SIGHUP stops it; it returns that signal. The program
// quits as after q, so the screen is restored either way. SIGTSTP
// suspends it as ctrl+z does.
func runProgram(m tea.Model, stdin io.Reader, stdout io.Writer) (os.Signal, error) {
	sus := newSuspender()
	defer sus.stop()
	p := tea.NewProgram(m, tea.WithInput(stdin), tea.WithOutput(stdout), tea.WithoutSignalHandler(), tea.WithFilter(sus.filter))
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	caught := make(chan os.Signal, 1)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				caught <- s
				p.Quit()
				return
			case <-sus.tstp:
				sus.caught(p)
			case <-done:
				caught <- nil
				return
			}
		}
	}()
	_, err := p.Run()
	close(done)
	return <-caught, err
}

// summary prints the result after the screen is gone, so it stays in the
// terminal's history.
func summary(w io.Writer, m *tui.Model, seed uint64) {
	cat := m.Catalogue()
	s := m.Snapshot()
	if len(s.Seats) == 0 {
		return
	}
	if m.Over() {
		var names []string
		for _, i := range s.Winners {
			names = append(names, s.Players[i])
		}
		if len(names) == 1 {
			fmt.Fprintln(w, cat.T("event.gameover", "winner", names[0]))
		} else {
			fmt.Fprintln(w, cat.T("event.gameover.shared", "winners", cat.List(names)))
		}
	}
	for _, seat := range s.Seats {
		// Padded by the cells a name takes, not its bytes: "Árpád" and
		// "1. gép" line up with "Bob".
		name := ansi.Truncate(seat.Name, 24, "…")
		fmt.Fprintf(w, "  %s%s %4d\n", name, strings.Repeat(" ", 24-ansi.StringWidth(name)), seat.Total)
	}
	if seed != 0 {
		fmt.Fprintf(w, "seed %d\n", seed)
	}
}

// writeRecord writes the record to a file atomically, so that the file
// always holds a whole record, the last one written.
func writeRecord(path string, r *razzia.Record) error {
	var b bytes.Buffer
	if _, err := r.WriteTo(&b); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return writeFileAtomic(path, b.Bytes(), 0o644)
}

// peopleNames returns the names of the people at the keyboard: a list, a
// number of players, or, by default, the user.
func peopleNames(arg string, cat *i18n.Catalogue) ([]string, error) {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return []string{defaultName(cat)}, nil
	}
	if n, err := strconv.Atoi(arg); err == nil {
		switch {
		case n < 0:
			return nil, fmt.Errorf("%d: want the people's names, or their number from 0 to %d", n, razzia.MaxPlayers)
		case n > razzia.MaxPlayers:
			return nil, fmt.Errorf("%d people: at most %d can play", n, razzia.MaxPlayers)
		}
		names := make([]string, n)
		for i := range names {
			names[i] = cat.T("tui.playername", "n", i+1)
		}
		return names, nil
	}
	var names []string
	for n := range strings.SplitSeq(arg, ",") {
		n = strings.TrimSpace(n)
		if err := playername.Check(n); err != nil {
			return nil, fmt.Errorf("%q: %v", n, err)
		}
		names = append(names, n)
	}
	if err := distinctNames(names); err != nil {
		return nil, err
	}
	return names, nil
}

// distinctNames refuses two names that a server would take for the same
// (playername.Key), as it refuses them at one table.
func distinctNames(names []string) error {
	seen := make(map[string]string, len(names))
	for _, n := range names {
		k := playername.Key(n)
		if first, ok := seen[k]; ok {
			return fmt.Errorf("%q and %q are the same name: each player needs a name of their own", first, n)
		}
		seen[k] = n
	}
	return nil
}

// defaultName is the user's login name, or "Player 1".
func defaultName(cat *i18n.Catalogue) string {
	for _, v := range []string{"USER", "LOGNAME", "USERNAME"} {
		if n := os.Getenv(v); n != "" && playername.Check(n) == nil {
			return n
		}
	}
	return cat.T("tui.playername", "n", 1)
}

// envLang is the language of the environment's locale, or "" when it names
// none Razzia speaks (C, POSIX): English then, without a notice.
func envLang() string {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if l := os.Getenv(v); l != "" {
			if _, ok := i18n.Lookup(l); ok {
				return l
			}
			return ""
		}
	}
	return ""
}

func langTags() string {
	var tags []string
	for _, l := range i18n.Languages() {
		tags = append(tags, l.Tag)
	}
	return strings.Join(tags, ", ")
}

// A serverGame is what razzia play --server was asked for.
type serverGame struct {
	server, invite, name string
	account              string // the account to sign in to, if any
	rated                bool
	pace                 string // the pace of a new table, "" for the default
	bots, players        string
	resume               bool // list the saved seats there, if any, instead of creating a table
	anyName              bool // no name given: any seat kept at the game is this person's
	// lobby shows the server's lobby to be seated by Play now or a
	// challenge; playNow makes request there at once.
	lobby, playNow bool
	request        protocol.SeekRequest
}

// playOnServer joins a game on a server, or creates one, and plays it.
func playOnServer(g serverGame, opt tui.Options, stdin io.Reader, stdout, stderr io.Writer, fs *flag.FlagSet) int {
	seats, err := g.resolve()
	if err != nil {
		return usageError(stderr, fs, playSynopsis, "%v", err)
	}
	if err := needTerminal("play", stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "razzia play: %v\n", err)
		return 1
	}
	c, err := client.New(g.server)
	if err != nil {
		return usageError(stderr, fs, playSynopsis, "--server: %v", err)
	}
	c.Chat = true // the terminal shows the table's chat
	store, err := client.DefaultSeatStore()
	if err == nil {
		err = store.Check() // before the server is asked for a seat it could not keep
	}
	if err != nil {
		fmt.Fprintf(stderr, "razzia play: %v\n", err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cat, ok := i18n.Lookup(opt.Lang)
	if !ok {
		cat = i18n.Default()
	}
	fmt.Fprintln(stdout, cat.T("tui.server.connectingto", "server", c.URL()))
	seat, none, err := g.takeSeat(ctx, c, store, seats, cat, opt, stdin, stdout)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "razzia play: %v\n", err)
		return 1
	case none:
		return 0
	}
	m, sig, err := playServerSeat(ctx, c, seat, g.invite != "", opt, stdin, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "razzia play: %v\n", err)
		return 1
	}
	link := keepServerSeat(store, c, seat, m)
	if sig != syscall.SIGHUP {
		summary(stdout, m, 0)
		switch {
		case m.Cancelled():
			fmt.Fprintln(stdout, cat.T("cli.table.closed", "link", link))
		case m.GivenUp() != "":
			fmt.Fprintln(stdout, cat.T("waitroom.givenup", "link", link))
		case m.Over():
			fmt.Fprintln(stdout, link)
		default:
			fmt.Fprintln(stdout, cat.T("tui.seat.kept", "command", "razzia play "+link))
		}
	}
	return exitStatus(sig, m)
}

// resolve checks the flags of a game on a server, and sets the server
// and the game's id from an invite link and the name from $USER when
// none is given (g.anyName: any seat kept at the game is this person's).
// It returns the seats of a table to create.
func (g *serverGame) resolve() ([]string, error) {
	if g.rated && g.account == "" {
		return nil, errors.New("--rated needs --account: only signed-in players sit at rated tables")
	}
	if g.account != "" && g.name != "" {
		return nil, errors.New("--name and --account: a signed-in player sits under the account's name")
	}
	if g.invite != "" {
		s, id, err := client.ParseInvite(g.invite)
		if err != nil {
			return nil, err
		}
		if s != "" && g.server == "" {
			g.server = s
		}
		g.invite = id
	}
	if g.server == "" {
		return nil, errors.New("a game id needs --server URL")
	}
	g.anyName = g.name == ""
	if g.name == "" {
		g.name = defaultName(i18n.Default())
	}
	if err := playername.Check(g.name); err != nil {
		return nil, fmt.Errorf("--name: %v", err)
	}
	seats, err := serverSeats(g.bots, g.players)
	if err != nil && g.invite == "" && !g.lobby {
		return nil, err
	}
	return seats, nil
}

// takeSeat signs in if asked and returns the seat to play: one kept for
// the game, joined now, at a table created with seats, or (g.lobby) one
// the lobby seats the person at. none is true when there is no seat to
// play and nothing went wrong: the seats kept on the server were listed
// instead (g.resume, when there are some), or the person left the lobby.
func (g *serverGame) takeSeat(ctx context.Context, c *client.Client, store *client.SeatStore, seats []string, cat *i18n.Catalogue, opt tui.Options, stdin io.Reader, stdout io.Writer) (seat client.SavedSeat, none bool, err error) {
	// A server that accepts and never answers must not leave a blank
	// screen: the setup has a deadline, the session its own.
	setup, setupDone := context.WithTimeout(ctx, connectTimeout)
	defer setupDone()
	if g.invite == "" && g.resume {
		listed, err := listSeats(setup, c, store, cat, stdout)
		if err != nil || listed {
			return seat, listed, connectError(err, g.server)
		}
	}
	name := g.name
	if g.account != "" {
		password, err := readPassword(cat, g.account, stdin, stdout)
		if err != nil {
			return seat, false, fmt.Errorf("reading the password: %w", err)
		}
		acct, err := c.SignIn(setup, g.account, password)
		if err != nil {
			return seat, false, fmt.Errorf("signing in to %s on %s: %w", g.account, g.server, connectError(err, g.server))
		}
		name = acct.Name // the name the seat is under, kept with it
	}
	if g.lobby {
		setupDone() // the person chooses in the lobby without a deadline
		g.name = name
		seat, seated, err := lobbySeat(ctx, c, store, *g, opt, stdin, stdout)
		return seat, !seated && err == nil, connectError(err, g.server)
	}
	seat, err = c.TakeSeat(setup, store, client.SeatRequest{Game: g.invite, Name: name, AnyName: g.anyName, Seats: seats, Pace: g.pace, Rated: g.rated})
	if err != nil {
		if full, ok := errors.AsType[*client.Error](err); ok && full.Code == protocol.TableFull && g.invite != "" {
			err = noSeat(setup, c, g.invite, err)
		}
		return seat, false, connectError(err, g.server)
	}
	return seat, false, nil
}

// playServerSeat plays the seat in the terminal until the person quits
// (or the program is stopped: then a bot plays for the seat).
func playServerSeat(ctx context.Context, c *client.Client, seat client.SavedSeat, invited bool, opt tui.Options, stdin io.Reader, stdout io.Writer) (*tui.Model, os.Signal, error) {
	id := seat.Game
	s := c.Session(id, seat.Token)
	defer s.Close()
	opt.Remote = tui.RemoteOptions{Resumed: !seat.Saved.IsZero() && invited, Creator: seat.Creator != ""}
	if seat.Creator == "" { // a table of a tournament is none of a person's
		ask, done := context.WithTimeout(ctx, connectTimeout)
		of, err := c.GameTournament(ask, id)
		done()
		opt.Remote.Tournament = err == nil && of != nil // unknown: the server refuses a rematch if need be
	}
	opt.Remote.GiveUp = func(ctx context.Context, game, token string, seat int) error {
		_, err := c.GiveUp(ctx, game, token, seat)
		return err
	}
	if seat.Creator != "" {
		creator := seat.Creator
		opt.Remote.Cancel = func(ctx context.Context) error {
			_, err := c.Cancel(ctx, id, creator)
			return err
		}
		opt.Remote.SetLevel = func(ctx context.Context, seat int, level string) error {
			_, err := c.SetLevel(ctx, id, creator, seat, level)
			return err
		}
	}
	m := tui.NewRemote(ctx, s, seat.Seat, gameLink(c, id), opt)
	sig, err := runProgram(m, stdin, stdout)
	if err != nil {
		return nil, nil, err
	}
	if sig != nil || m.Interrupted() {
		// Gone without q: a bot plays for the seat until its player
		// comes back, as after q, rather than the table waiting.
		leave, done := context.WithTimeout(ctx, connectTimeout)
		_ = m.LeaveToBot(leave) // unsent, the seat simply waits
		done()
	}
	return m, sig, nil
}

// keepServerSeat keeps in the store the seat the person played last (at
// a rematch, the new table's), forgets a game over or cancelled, drops a
// seat given up, and returns the game's link.
func keepServerSeat(store *client.SeatStore, c *client.Client, seat client.SavedSeat, m *tui.Model) string {
	game := m.ServerGame()
	if game != seat.Game {
		_ = store.Drop(seat)
		if tok := m.SeatToken(); tok != "" {
			_ = store.Save(client.SavedSeat{Server: c.URL(), Game: game, Seat: m.Snapshot().Seat, Name: seat.Name, Token: tok, Saved: time.Now()})
		}
	}
	if m.Over() || m.Cancelled() {
		_ = store.Forget(c.URL(), game)
	}
	if tok := m.GivenUp(); tok != "" {
		_ = store.Drop(client.SavedSeat{Server: c.URL(), Game: game, Token: tok})
	}
	return gameLink(c, game)
}

// gameLink is the link to a game of the server.
func gameLink(c *client.Client, id string) string {
	return strings.TrimSuffix(c.URL(), "/") + "/g/" + id
}

// noSeat says what a person can do at a game with no seat for them: watch
// it, or replay it once it is over. err is the refusal, said when the
// game cannot be looked up.
func noSeat(ctx context.Context, c *client.Client, id string, err error) error {
	info, _, gerr := c.Game(ctx, id, "")
	link := strings.TrimSuffix(c.URL(), "/") + "/g/" + id
	switch {
	case gerr != nil:
		return err
	case info.Status.Over():
		return fmt.Errorf("game %s is over: razzia replay %s replays it", id, link)
	}
	return fmt.Errorf("game %s has no open seat: razzia watch %s watches it", id, link)
}

// listSeats prints the games the person holds a seat in on the server,
// theirs to move first, with the command that resumes each. It reports
// whether it listed any.
func listSeats(ctx context.Context, c *client.Client, store *client.SeatStore, cat *i18n.Catalogue, w io.Writer) (bool, error) {
	games, err := c.HeldGames(ctx, store)
	if err != nil || len(games) == 0 {
		return false, err
	}
	fmt.Fprintln(w, cat.T("cli.seats.title", "server", c.URL()))
	for _, g := range games {
		state := cat.T("cli.seats.waiting")
		switch {
		case g.ToMove:
			state = cat.T("cli.seats.turn")
		case g.StandIn:
			state = cat.T("cli.seats.standin")
		case g.Info.Status == protocol.StatusPlaying:
			state = cat.T("cli.seats.playing", "move", g.Info.Moves+1)
		}
		fmt.Fprintf(w, "  %s: %s\n    razzia play %s/g/%s\n", g.Seat.Name, state, strings.TrimSuffix(c.URL(), "/"), g.Seat.Game)
	}
	fmt.Fprintf(w, "%s\n    razzia play --server %s --bots %s\n", cat.T("cli.seats.new"), c.URL(), defaultBots)
	return true, nil
}

// connectTimeout is how long razzia play waits for a server's answer
// before it says that none comes.
var connectTimeout = 15 * time.Second

// netError says a network failure in words: a server that does not
// answer, or cannot be reached; other errors as they are.
func connectError(err error, server string) error {
	var refused *client.Error
	var nerr net.Error
	switch {
	case errors.As(err, &refused):
		return err
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &nerr) && nerr.Timeout():
		return fmt.Errorf("%s did not answer within %v: is it a Razzia server, and is it running?", server, connectTimeout)
	}
	return netError(err)
}

// serverSeats returns the seats of a new server table: yours first, then
// the bots, then open seats up to the number of players.
func serverSeats(bots, players string) ([]string, error) {
	seats := []string{""}
	if strings.TrimSpace(bots) != "" {
		for b := range strings.SplitSeq(bots, ",") {
			b = strings.TrimSpace(b)
			if _, ok := bot.LookupLevel(b); !ok {
				return nil, fmt.Errorf("--bots: a server plays the levels %s, not %q", strings.Join(bot.LevelNames(), ", "), b)
			}
			seats = append(seats, b)
		}
	}
	if players != "" {
		n, err := strconv.Atoi(players)
		if err != nil || n < len(seats) || n > razzia.MaxPlayers {
			return nil, fmt.Errorf("--players: with --server, the number of seats: %d to %d", max(len(seats), razzia.MinPlayers), razzia.MaxPlayers)
		}
		for len(seats) < n {
			seats = append(seats, "")
		}
	}
	if len(seats) < razzia.MinPlayers || len(seats) > razzia.MaxPlayers {
		return nil, fmt.Errorf("%d seats: a game needs %d to %d", len(seats), razzia.MinPlayers, razzia.MaxPlayers)
	}
	return seats, nil
}

// paceIDs lists the pace presets a table can be created with.
func paceIDs() string {
	var ids []string
	for _, p := range pace.Presets() {
		ids = append(ids, p.ID)
	}
	return strings.Join(ids, ", ")
}
