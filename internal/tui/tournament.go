package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
)

// A TournamentScreen is the screen of a tournament between its games: where it is,
// the countdown to its next round, the standings, and what the person
// can do. It follows the tournament as the server sends it and ends
// when the person's next table is ready (NextGame), when the person
// quits (q), or never by itself once the tournament is over (its last
// standings stay until q).
type TournamentScreen struct {
	cat    *i18n.Catalogue
	feed   <-chan protocol.Tournament
	t      protocol.Tournament
	played map[string]bool // the games already played here, not to open again
	now    func() time.Time
	act    func(ctx context.Context, action string) (protocol.Tournament, error)
	ctx    context.Context

	width, height int
	notice        string
	next          string // the game to play, once ready
	lost          bool   // the feed ended: the connection is gone
	quit          bool
}

// NewTournamentScreen returns the screen of tournament t, fed by feed. played are
// the games this person already played, which do not end it again; act
// makes the person's actions (pause, resume, withdraw).
func NewTournamentScreen(ctx context.Context, t protocol.Tournament, feed <-chan protocol.Tournament, played map[string]bool,
	act func(ctx context.Context, action string) (protocol.Tournament, error), opt Options) *TournamentScreen {
	cat, ok := i18n.Lookup(opt.Lang)
	if !ok {
		cat, _ = i18n.Lookup(i18n.Fallback)
	}
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	l := &TournamentScreen{cat: cat, feed: feed, t: t, played: played, now: now, act: act, ctx: ctx}
	l.check()
	return l
}

// NextGame returns the game whose table is ready for the person, "" when
// the screen ended otherwise.
func (l *TournamentScreen) NextGame() string { return l.next }

// Tournament returns the tournament as last received.
func (l *TournamentScreen) Tournament() protocol.Tournament { return l.t }

// Lost reports whether the connection to the server ended the screen.
func (l *TournamentScreen) Lost() bool { return l.lost }

type (
	tourTick   struct{}
	tourUpdate struct{ t protocol.Tournament }
	tourClosed struct{}
	tourActed  struct{ err error }
)

func (l *TournamentScreen) listen() tea.Cmd {
	feed := l.feed
	return func() tea.Msg {
		t, ok := <-feed
		if !ok {
			return tourClosed{}
		}
		return tourUpdate{t}
	}
}

func tourTickCmd() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tourTick{} })
}

// Init starts listening and the countdown.
func (l *TournamentScreen) Init() tea.Cmd {
	if l.next != "" {
		return tea.Quit
	}
	return tea.Batch(l.listen(), tourTickCmd())
}

// check ends the screen when the person's next table is ready.
func (l *TournamentScreen) check() bool {
	if y := l.t.You; y != nil && y.Game != "" && !l.played[y.Game] {
		l.next = y.Game
		return true
	}
	return false
}

// Update handles the tournament's news, the clock and the keys.
func (l *TournamentScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.width, l.height = msg.Width, msg.Height
	case tourTick:
		return l, tourTickCmd()
	case tourUpdate:
		if msg.t.Version >= l.t.Version {
			l.t = msg.t
		}
		if l.check() {
			return l, tea.Quit
		}
		return l, l.listen()
	case tourClosed:
		l.lost = true
		return l, tea.Quit
	case tourActed:
		l.notice = ""
		if msg.err != nil {
			l.notice = msg.err.Error()
		}
	case tea.KeyPressMsg:
		return l, l.key(msg.String())
	}
	return l, nil
}

func (l *TournamentScreen) key(k string) tea.Cmd {
	switch k {
	case "q", "ctrl+c", "esc":
		l.quit = true
		return tea.Quit
	}
	y := l.t.You
	if y == nil || !y.Joined || l.act == nil || (l.t.Status != protocol.TournamentWaiting && l.t.Status != protocol.TournamentRunning) {
		return nil
	}
	action := map[string]string{"p": protocol.ActionPause, "r": protocol.ActionResume, "w": protocol.ActionWithdraw}[k]
	if action == "" {
		return nil
	}
	act, ctx := l.act, l.ctx
	return func() tea.Msg {
		_, err := act(ctx, action)
		return tourActed{err}
	}
}

// View draws the screen.
func (l *TournamentScreen) View() tea.View {
	v := tea.NewView(l.Render())
	v.AltScreen = true
	v.WindowTitle = "Razzia! " + l.t.Name
	return v
}

// Render returns the screen as text: at most height lines of at most
// width cells.
func (l *TournamentScreen) Render() string {
	if l.width <= 0 || l.height <= 0 || l.quit {
		return ""
	}
	c := l.cat
	t := l.t
	lines := []string{titleStyle.Render(t.Name), dimStyle.Render(l.meta())}
	lines = append(lines, "", boldStyle.Render(l.status()))
	if cd := l.countdown(); cd != "" {
		lines = append(lines, noticeStyle.Render(cd))
	}
	if y := t.You; y != nil && y.Joined && (t.Status == protocol.TournamentWaiting || t.Status == protocol.TournamentRunning) {
		lines = append(lines, c.T("tour.you."+y.Status))
	}
	lines = append(lines, "", titleStyle.Render(c.T("tour.standings")))
	lines = append(lines, l.standings()...)
	if l.notice != "" {
		lines = append(lines, "", errorStyle.Render(l.notice))
	}
	lines = append(lines, "", dimStyle.Render(l.keys()))
	if len(lines) > l.height {
		// The keys stay; the standings' tail goes.
		keys := lines[len(lines)-1]
		lines = append(lines[:l.height-1], keys)
	}
	for i, s := range lines {
		lines[i] = ansi.Truncate(s, l.width, "…")
	}
	return strings.Join(lines, "\n")
}

func (l *TournamentScreen) meta() string {
	c, t := l.cat, l.t
	parts := []string{c.T("tour.format." + t.Format), c.T("tour.meta.size", "n", t.TableSize)}
	if t.Format == protocol.FormatArena {
		parts = append(parts, c.T("tour.meta.minutes", "n", t.Minutes))
	} else {
		parts = append(parts, c.T("tour.meta.rounds", "n", t.Rounds))
	}
	parts = append(parts, t.Pace, c.T(map[bool]string{true: "tour.meta.rated", false: "tour.meta.casual"}[t.Rated]),
		c.T("tour.meta.players", "n", t.Players, "max", t.Max))
	return strings.Join(parts, " · ")
}

// status says where the tournament is, as the page does.
func (l *TournamentScreen) status() string {
	c, t := l.cat, l.t
	switch t.Status {
	case protocol.TournamentWaiting:
		if t.Start == nil {
			return c.T("tour.starts.word")
		}
		if !t.Start.After(l.now()) {
			return c.T("tour.waiting.few")
		}
		return c.T("tour.starts.at", "when", t.Start.Local().Format("2006-01-02 15:04"))
	case protocol.TournamentRunning:
		switch {
		case t.Paused:
			return c.T("tour.paused")
		case t.Format == protocol.FormatArena && t.Ends != nil && t.Ends.After(l.now()):
			return c.T("tour.arena.running")
		case t.Format == protocol.FormatArena:
			return c.T("tour.ended")
		case t.Next != nil:
			return c.T("tour.between", "n", t.Round, "of", t.Rounds)
		}
		return c.T("tour.round.now", "n", t.Round, "of", t.Rounds)
	}
	return c.T("tour.status." + t.Status)
}

// countdown is the wait to the start, the next round or an arena's end.
func (l *TournamentScreen) countdown() string {
	c, t, now := l.cat, l.t, l.now()
	left := func(at *time.Time) string { return clockText(at.Sub(now)) }
	switch {
	case t.Status == protocol.TournamentWaiting && t.Start != nil && t.Start.After(now):
		return c.T("tour.starts.in", "time", left(t.Start))
	case t.Status != protocol.TournamentRunning || t.Paused:
		return ""
	case t.Format == protocol.FormatArena && t.Ends != nil && t.Ends.After(now):
		return c.T("tour.ends.in", "time", left(t.Ends))
	case t.Format != protocol.FormatArena && t.Next != nil && t.Next.After(now):
		return c.T("tour.next.in", "n", t.Round+1, "time", left(t.Next))
	}
	return ""
}

// clockText prints a wait as m:ss, or h:mm:ss from an hour.
func clockText(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	if s < 0 {
		s = 0
	}
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// standings are the standings' lines: rank, name, the format's figure,
// games.
func (l *TournamentScreen) standings() []string {
	c, t := l.cat, l.t
	if len(t.Ranking) == 0 {
		return []string{dimStyle.Render(c.T("tour.standings.none"))}
	}
	col := "tour.col.points"
	if t.Format == protocol.FormatDuplicate {
		col = "tour.col.percent"
	}
	out := []string{dimStyle.Render(fmt.Sprintf("%4s  %-22s %10s %6s", c.T("tour.col.rank"), c.T("tour.col.player"), c.T(col), c.T("tour.col.games")))}
	for _, s := range t.Ranking {
		figure := strconv.FormatFloat(s.Points, 'f', -1, 64)
		if t.Format == protocol.FormatDuplicate {
			figure = strconv.FormatFloat(s.Percent, 'f', 2, 64) + " %"
		}
		name := ansi.Truncate(s.Name, 22, "…")
		if s.Fire {
			name = ansi.Truncate(name, 19, "…") + " ×2"
		}
		line := fmt.Sprintf("%4d  %s%s %10s %6d", s.Rank, name, strings.Repeat(" ", max(0, 22-ansi.StringWidth(name))), figure, s.Games)
		if y := t.You; y != nil && y.Name != "" && s.Name == y.Name {
			line = selectedStyle.Render(line)
		}
		out = append(out, line)
	}
	return out
}

func (l *TournamentScreen) keys() string {
	c := l.cat
	y := l.t.You
	live := l.t.Status == protocol.TournamentWaiting || l.t.Status == protocol.TournamentRunning
	if y == nil || !y.Joined || !live {
		return c.T("tour.tui.keys.quit")
	}
	if y.Status == protocol.PlayerPaused {
		return c.T("tour.tui.keys.paused")
	}
	return c.T("tour.tui.keys")
}
