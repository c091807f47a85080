package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
)

// The lobby of a server in the terminal (razzia play --server URL
// --lobby, or --play-now): who is online, the open Play-now requests
// (enter joins one), the person's own (x cancels one, n makes one with
// the command's settings) and the challenges to them (a accepts, d
// declines, with the reason chosen by tab). It ends once the person is
// seated: Seated says where, and the command sits down at the table.

// LobbyServer is what the lobby asks of the server: a *client.Client.
type LobbyServer interface {
	Seeks(ctx context.Context) (protocol.SeeksAnswer, error)
	Seek(ctx context.Context, req protocol.SeekRequest) (protocol.SeekInfo, error)
	JoinSeek(ctx context.Context, id, name string) (protocol.SeekInfo, error)
	CancelSeek(ctx context.Context, id string) (protocol.SeekInfo, error)
	Challenges(ctx context.Context) ([]protocol.ChallengeInfo, error)
	Answer(ctx context.Context, id string, accept bool, reason string) (protocol.ChallengeInfo, error)
	Online(ctx context.Context) (client.OnlineList, error)
}

var _ LobbyServer = (*client.Client)(nil)

// LobbyOptions configure the lobby.
type LobbyOptions struct {
	Lang   string
	Server string // the server's URL, shown
	// Me is the signed-in account's name, "" for a guest; Name is a
	// guest's name, under which they join a request.
	Me, Name string
	// Request is the Play-now request n makes, and, when Now is set,
	// makes at once.
	Request  protocol.SeekRequest
	PlayNow  bool
	Messages <-chan protocol.MeetMessage // the live socket's, as a lobby
	// Clock is the clock of the waiting times; default time.Now.
	Clock func() time.Time
}

// A Seated is where the lobby's person was seated: at the table of a
// paired request (Seek) or of an accepted challenge (Challenge).
type Seated struct {
	Game      string
	Seek      string
	Challenge string
}

// A Lobby is the Bubble Tea model of a server's lobby.
type Lobby struct {
	ctx  context.Context
	srv  LobbyServer
	opts LobbyOptions
	cat  *i18n.Catalogue

	seeks      protocol.SeeksAnswer
	challenges []protocol.ChallengeInfo
	online     *client.OnlineList // nil while unknown or not told
	onlineErr  string
	// The lists' versions: reads run at once and end in any order, so
	// each is numbered as it starts (as is a challenge a message brings),
	// and a read older than the lists shown is dropped: it would take
	// back a challenge just made, or bring back one answered since.
	version, shown int

	cursor int    // the selected item of items()
	reason int    // the decline reason chosen, of protocol.DeclineReasons
	notice string // the last outcome or error
	failed bool
	seated *Seated
	width  int
}

// NewLobby returns the lobby of the server.
func NewLobby(ctx context.Context, srv LobbyServer, opts LobbyOptions) *Lobby {
	cat, ok := i18n.Lookup(opts.Lang)
	if !ok {
		cat = i18n.Default()
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	return &Lobby{ctx: ctx, srv: srv, opts: opts, cat: cat, width: MinWidth}
}

// Seated returns where the person was seated, or nil if they left the
// lobby unseated.
func (l *Lobby) Seated() *Seated { return l.seated }

// The lobby's messages.
type (
	lobbyRead struct {
		version    int
		seeks      protocol.SeeksAnswer
		challenges []protocol.ChallengeInfo
		online     *client.OnlineList
		onlineErr  error
		err        error
	}
	lobbyMeet struct {
		msg protocol.MeetMessage
		ok  bool
	}
	lobbyDone struct {
		what string // the key of the outcome's notice
		seek protocol.SeekInfo
		ch   protocol.ChallengeInfo
		err  error
	}
	lobbyTick struct{}
)

// Init reads the lists, listens, and makes the request asked for.
func (l *Lobby) Init() tea.Cmd {
	cmds := []tea.Cmd{l.read(), l.listen(), tick()}
	if l.opts.PlayNow {
		cmds = append(cmds, l.makeSeek())
	}
	return tea.Batch(cmds...)
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return lobbyTick{} })
}

// read reads the requests, the challenges and who is online.
func (l *Lobby) read() tea.Cmd {
	l.version++
	srv, ctx, signed, version := l.srv, l.ctx, l.opts.Me != "", l.version
	return func() tea.Msg {
		r := lobbyRead{version: version}
		r.seeks, r.err = srv.Seeks(ctx)
		if r.err == nil && signed {
			r.challenges, r.err = srv.Challenges(ctx)
		}
		if online, err := srv.Online(ctx); err == nil {
			r.online = &online
		} else {
			r.onlineErr = err
		}
		return r
	}
}

// listen waits for the live socket's next message of Play now or challenges.
func (l *Lobby) listen() tea.Cmd {
	ch := l.opts.Messages
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		m, ok := <-ch
		return lobbyMeet{m, ok}
	}
}

func (l *Lobby) makeSeek() tea.Cmd {
	srv, ctx, req := l.srv, l.ctx, l.opts.Request
	if l.opts.Me == "" {
		req.Name = l.opts.Name
	}
	return func() tea.Msg {
		s, err := srv.Seek(ctx, req)
		return lobbyDone{what: "tui.lobby.asked", seek: s, err: err}
	}
}

// Update handles a message.
func (l *Lobby) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.width = msg.Width
	case lobbyTick:
		return l, tick()
	case lobbyRead:
		if msg.version < l.shown {
			return l, nil // a newer read or message is shown
		}
		l.shown = msg.version
		if msg.err != nil {
			l.setError(msg.err)
			return l, nil
		}
		l.seeks, l.challenges, l.online = msg.seeks, msg.challenges, msg.online
		l.onlineErr = ""
		if msg.onlineErr != nil {
			l.onlineErr = l.cat.T("tui.lobby.online.none")
		}
		l.clamp()
		return l, l.seatedBy()
	case lobbyMeet:
		if !msg.ok {
			l.notice, l.failed = l.cat.T("tui.lobby.lost"), true
			return l, nil
		}
		return l, tea.Batch(l.listen(), l.heard(msg.msg))
	case lobbyDone:
		if msg.err != nil {
			l.setError(msg.err)
			return l, l.read()
		}
		l.notice, l.failed = l.cat.T(msg.what), false
		if msg.seek.Status == protocol.SeekPaired && msg.seek.Game != "" {
			return l, l.sit(Seated{Game: msg.seek.Game, Seek: msg.seek.ID})
		}
		if msg.ch.Status == protocol.ChallengeAccepted && msg.ch.Game != "" {
			return l, l.sit(Seated{Game: msg.ch.Game, Challenge: msg.ch.ID})
		}
		return l, l.read()
	case tea.KeyPressMsg:
		return l, l.key(msg.String())
	}
	return l, nil
}

// heard follows a message of the live socket.
func (l *Lobby) heard(m protocol.MeetMessage) tea.Cmd {
	if m.Type == protocol.TypeChallenge && m.Challenge != nil {
		l.learn(*m.Challenge)
	}
	switch {
	case m.Type == protocol.TypeSeek && m.Seek != nil && m.Seek.Status == protocol.SeekPaired && m.Seek.Game != "":
		return l.sit(Seated{Game: m.Seek.Game, Seek: m.Seek.ID})
	case m.Type == protocol.TypeChallenge && m.Challenge != nil && m.Challenge.Status == protocol.ChallengeAccepted && m.Challenge.Game != "":
		return l.sit(Seated{Game: m.Challenge.Game, Challenge: m.Challenge.ID})
	case m.Type == protocol.TypeChallenge && m.Challenge != nil && !m.Challenge.Mine && m.Challenge.Status == protocol.ChallengeOpen:
		l.notice, l.failed = l.cat.T("tui.lobby.challenged", "name", m.Challenge.From), false
	}
	return l.read()
}

// learn shows the challenge as a message tells it, at once: the notice
// of a new one says a accepts it, so the list has it before the lists
// are read again.
func (l *Lobby) learn(c protocol.ChallengeInfo) {
	i := slices.IndexFunc(l.challenges, func(o protocol.ChallengeInfo) bool { return o.ID == c.ID })
	if i < 0 {
		l.challenges = append([]protocol.ChallengeInfo{c}, l.challenges...) // the newest first, as read
	} else {
		l.challenges = slices.Clone(l.challenges)
		l.challenges[i] = c
	}
	l.version++
	l.shown = l.version
	l.clamp()
}

// seatedBy sits the person down at a request of theirs the lists show
// paired (a message missed while the lobby was reading).
func (l *Lobby) seatedBy() tea.Cmd {
	for _, s := range l.seeks.Mine {
		if s.Status == protocol.SeekPaired && s.Game != "" && l.opts.Clock().Sub(s.Created) < time.Minute {
			return l.sit(Seated{Game: s.Game, Seek: s.ID})
		}
	}
	return nil
}

func (l *Lobby) sit(s Seated) tea.Cmd {
	if l.seated == nil {
		l.seated = &s
	}
	return tea.Quit
}

func (l *Lobby) setError(err error) {
	var ce *client.Error
	if errors.As(err, &ce) {
		l.notice = l.cat.T("error." + string(ce.Code))
	} else {
		l.notice = err.Error()
	}
	l.failed = true
}

// An item is one line the cursor selects: a challenge to the person, a
// request of theirs, or another's open request.
type item struct {
	challenge *protocol.ChallengeInfo
	seek      *protocol.SeekInfo
	mine      bool
}

// items are the selectable lines, in the order drawn.
func (l *Lobby) items() []item {
	var out []item
	for i := range l.challenges {
		c := &l.challenges[i]
		if c.Status == protocol.ChallengeOpen {
			out = append(out, item{challenge: c, mine: c.Mine})
		}
	}
	for i := range l.seeks.Mine {
		if s := &l.seeks.Mine[i]; s.Status == protocol.SeekOpen {
			out = append(out, item{seek: s, mine: true})
		}
	}
	for i := range l.seeks.Seeks {
		if s := &l.seeks.Seeks[i]; !s.Mine {
			out = append(out, item{seek: s})
		}
	}
	return out
}

func (l *Lobby) clamp() {
	n := len(l.items())
	l.cursor = max(0, min(l.cursor, n-1))
}

// key handles a key press.
func (l *Lobby) key(k string) tea.Cmd {
	items := l.items()
	var it *item
	if l.cursor < len(items) {
		it = &items[l.cursor]
	}
	srv, ctx := l.srv, l.ctx
	switch k {
	case "q", "ctrl+c", "esc":
		return tea.Quit
	case "up", "k":
		l.cursor = max(0, l.cursor-1)
	case "down", "j":
		l.cursor = min(max(0, len(items)-1), l.cursor+1)
	case "r":
		return l.read()
	case "n":
		return l.makeSeek()
	case "tab":
		l.reason = (l.reason + 1) % len(protocol.DeclineReasons)
	case "enter":
		switch {
		case it == nil:
		case it.challenge != nil && !it.mine:
			return l.answer(it.challenge.ID, true)
		case it.seek != nil && !it.mine:
			id, name := it.seek.ID, l.opts.Name
			return func() tea.Msg {
				s, err := srv.JoinSeek(ctx, id, name)
				return lobbyDone{what: "tui.lobby.joined", seek: s, err: err}
			}
		}
	case "a", "d":
		c := l.answering(it)
		if c == nil {
			l.notice, l.failed = l.cat.T("tui.lobby.pick"), true
			return nil
		}
		return l.answer(c.ID, k == "a")
	case "x":
		if it != nil && it.seek != nil && it.mine {
			id := it.seek.ID
			return func() tea.Msg {
				s, err := srv.CancelSeek(ctx, id)
				return lobbyDone{what: "tui.lobby.cancelled", seek: s, err: err}
			}
		}
	}
	return nil
}

// answering returns the challenge that a or d answers: the one selected,
// else the only open challenge to the person (the one a notice names);
// nil when there is none or the choice is not clear.
func (l *Lobby) answering(selected *item) *protocol.ChallengeInfo {
	if selected != nil && selected.challenge != nil && !selected.mine {
		return selected.challenge
	}
	var only *protocol.ChallengeInfo
	for _, it := range l.items() {
		if it.challenge != nil && !it.mine {
			if only != nil {
				return nil
			}
			only = it.challenge
		}
	}
	return only
}

// answer accepts or declines the challenge, with the reason chosen.
func (l *Lobby) answer(id string, accept bool) tea.Cmd {
	srv, ctx, reason, what := l.srv, l.ctx, "", "tui.lobby.accepted"
	if !accept {
		reason, what = protocol.DeclineReasons[l.reason], "tui.lobby.declined"
	}
	return func() tea.Msg {
		c, err := srv.Answer(ctx, id, accept, reason)
		return lobbyDone{what: what, ch: c, err: err}
	}
}

// View draws the lobby.
func (l *Lobby) View() tea.View {
	var b strings.Builder
	who := l.opts.Me
	if who == "" {
		who = l.cat.T("tui.lobby.guest", "name", l.opts.Name)
	}
	fmt.Fprintf(&b, "%s  %s\n", titleStyle.Render(l.cat.T("tui.lobby.title", "server", l.opts.Server)), dimStyle.Render(who))
	b.WriteString(l.viewOnline())
	items, n := l.items(), 0
	line := func(text string) {
		mark := "  "
		if n == l.cursor {
			mark = "▸ "
			text = selectedStyle.Render(text)
		}
		b.WriteString(mark + text + "\n")
		n++
	}
	now := l.opts.Clock()
	section := func(key string, count int) {
		if count > 0 {
			b.WriteString("\n" + boldStyle.Render(l.cat.T(key)) + "\n")
		}
	}
	count := func(f func(item) bool) int {
		c := 0
		for _, it := range items {
			if f(it) {
				c++
			}
		}
		return c
	}
	section("tui.lobby.challenges", count(func(it item) bool { return it.challenge != nil }))
	for _, it := range items {
		if c := it.challenge; c != nil {
			line(l.challengeLine(*c, now))
		}
	}
	section("tui.lobby.mine", count(func(it item) bool { return it.seek != nil && it.mine }))
	for _, it := range items {
		if it.seek != nil && it.mine {
			line(l.cat.T("tui.lobby.waiting", "wait", waited(now, it.seek.Created)) + " · " + l.seekDetail(*it.seek))
		}
	}
	b.WriteString("\n" + boldStyle.Render(l.cat.T("tui.lobby.open")) + "\n")
	if count(func(it item) bool { return it.seek != nil && !it.mine }) == 0 {
		b.WriteString(dimStyle.Render("  "+l.cat.T("tui.lobby.none")) + "\n")
	}
	for _, it := range items {
		if s := it.seek; s != nil && !it.mine {
			line(l.seekWho(*s) + " · " + l.seekDetail(*s) + " · " + waited(now, s.Created))
		}
	}
	if l.notice != "" {
		style := noticeStyle
		if l.failed {
			style = errorStyle
		}
		b.WriteString("\n" + style.Render(l.notice) + "\n")
	}
	keys := l.cat.T("tui.lobby.keys", "reason", l.cat.T("web.challenge.reason."+protocol.DeclineReasons[l.reason]))
	b.WriteString("\n" + dimStyle.Width(max(20, l.width)).Render(keys) + "\n")
	return tea.NewView(b.String())
}

// viewOnline draws who is online.
func (l *Lobby) viewOnline() string {
	if l.online == nil {
		if l.onlineErr != "" {
			return dimStyle.Render(l.onlineErr) + "\n"
		}
		return ""
	}
	var names []string
	for _, p := range l.online.People {
		s := p.Name
		if p.Rating != nil {
			s += fmt.Sprintf(" %d", p.Rating.Display)
		}
		if p.Finish != nil && p.Finish.Games > 0 {
			s += fmt.Sprintf(" %d%%", p.Finish.Percent)
		}
		if p.Guest {
			s += " " + l.cat.T("tui.lobby.guestmark")
		}
		if p.Activity != "" {
			s += " · " + l.cat.T("tui.lobby.activity."+p.Activity)
		}
		names = append(names, s)
	}
	head := l.cat.T("tui.lobby.online", "n", l.online.Online, "playing", l.online.Playing)
	return head + "\n" + dimStyle.Render("  "+strings.Join(names, "   ")) + "\n"
}

func (l *Lobby) challengeLine(c protocol.ChallengeInfo, now time.Time) string {
	left := max(0, c.Expires.Sub(now)).Round(time.Second)
	detail := l.pace(c.Pace) + " · " + l.kind(c.Rated) + " · " + l.cat.T("web.playnow.players", "n", len(c.To)+1)
	if c.Mine {
		var names []string
		for _, t := range c.To {
			names = append(names, t.Name)
		}
		return l.cat.T("web.challenge.to", "names", strings.Join(names, ", ")) + " · " + detail + " · " + l.cat.T("web.challenge.left", "left", clock(left))
	}
	return l.cat.T("web.challenge.from", "name", c.From) + " · " + detail + " · " + l.cat.T("web.challenge.left", "left", clock(left))
}

func (l *Lobby) seekWho(s protocol.SeekInfo) string {
	out := s.Name
	if s.Rating > 0 {
		out += fmt.Sprintf(" %d", s.Rating)
	}
	if s.Finish != nil {
		out += " " + l.cat.T("web.playnow.finish", "n", *s.Finish)
	}
	return out
}

func (l *Lobby) seekDetail(s protocol.SeekInfo) string {
	parts := []string{l.pace(s.Pace), l.kind(s.Rated), l.cat.T("web.playnow.players", "n", playersText(s.Min, s.Max))}
	if s.RatingMin > 0 || s.RatingMax > 0 {
		parts = append(parts, l.cat.T("web.playnow.range", "min", bound(s.RatingMin), "max", bound(s.RatingMax)))
	}
	if s.MinFinish > 0 {
		parts = append(parts, l.cat.T("web.playnow.minfinish", "n", s.MinFinish))
	}
	if s.BotsAfter > 0 {
		parts = append(parts, l.cat.T("web.playnow.botsafter", "n", s.BotsAfter))
	}
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), " · ")
}

func (l *Lobby) pace(id string) string { return l.cat.T("pace." + id) }

func (l *Lobby) kind(rated bool) string {
	if rated {
		return l.cat.T("web.profile.rated")
	}
	return l.cat.T("web.profile.casual")
}

func playersText(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

func bound(n int) string {
	if n <= 0 {
		return "…"
	}
	return fmt.Sprint(n)
}

// waited says how long since then, as a clock.
func waited(now, then time.Time) string { return clock(max(0, now.Sub(then)).Round(time.Second)) }

// clock writes d as m:ss, or h:mm:ss.
func clock(d time.Duration) string {
	s := int(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
