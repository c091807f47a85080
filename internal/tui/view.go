package tui

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// View renders the table, a page over it, or the request for a larger
// terminal, always within the terminal's size.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.WindowTitle = "Razzia!"
	return v
}

// Render returns the screen as a string: at most height lines of at most
// width cells.
func (m *Model) Render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.quit {
		return ""
	}
	var lines []string
	if m.small() {
		lines = m.wrap(m.cat.T("tui.small", "width", m.width, "height", m.height, "minwidth", MinWidth, "minheight", MinHeight), 0)
	} else {
		lines = m.screen()
	}
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	for i, l := range lines {
		lines[i] = trunc(l, m.width)
	}
	return strings.Join(lines, "\n")
}

// screen is the full-size screen: the title line, the table or a page,
// the status line and the keys.
func (m *Model) screen() []string {
	top := m.title()
	keys := m.cat.T("tui.keys")
	if extra := m.onlineKeys(); extra != "" {
		keys += "  " + extra
	}
	// A long notice or question takes two lines rather than losing its
	// end, where the keys to answer it are.
	status := m.wrap(m.status(), 2)
	chat := m.chatLines()
	var bottom, body []string
	var h int
	for {
		bottom = append(append(slices.Clone(chat), status[:min(len(status), 2)]...), dimStyle.Render(keys))
		h = m.height - 1 - len(bottom)
		squeezed := false
		switch {
		case m.over != noOverlay:
			body = append([]string{m.pageHead()}, strings.Split(m.page.View(), "\n")...)
		case m.remote != nil && m.remote.open:
			body = m.waiting()
		default:
			body, squeezed = m.table(h)
		}
		// The players' holdings come before the older chat line.
		if !squeezed || len(chat) == 0 {
			break
		}
		chat = chat[1:]
	}
	for len(body) < h {
		body = append(body, "")
	}
	return append(append([]string{top}, body[:h]...), bottom...)
}

// title is the top line: round, police track and centre cheque; once the
// game is over, the round and the end.
func (m *Model) title() string {
	s := m.snap
	parts := []string{titleStyle.Render("Razzia!")}
	switch {
	case len(s.Players) == 0:
	case m.Over():
		// No police track or centre cheque: the round that had them is over.
		parts = append(parts, m.cat.T("term.round.n", "round", s.Round), boldStyle.Render(m.cat.T("phase.over")))
	default:
		limit := max(s.PoliceLimit, 1)
		track := strings.Repeat(policeSymbol, min(s.Police, limit)) + strings.Repeat("☆", max(0, limit-s.Police))
		parts = append(parts,
			m.cat.T("term.round.n", "round", s.Round),
			m.cat.T("term.police")+" "+paint(policeColour, track)+" "+strconv.Itoa(s.Police)+"/"+strconv.Itoa(limit),
			m.cat.T("term.centre.cheque")+" "+boldStyle.Render("["+strconv.Itoa(s.Centre)+"]"),
		)
	}
	line := strings.Join(parts, "  ")
	if ansiWidth(line) > m.width && len(parts) > 1 {
		// Long words (de, nl) make room by leaving out the name.
		line = strings.Join(parts[1:], "  ")
	}
	return line
}

// status is the line for notices and errors.
func (m *Model) status() string {
	switch {
	case m.confirm:
		return noticeStyle.Render("? " + m.quitQuestion())
	case m.notice == "":
		if s := m.onlineStatus(); s != "" {
			return noticeStyle.Render("! " + s)
		}
		return ""
	case m.failed:
		return errorStyle.Render("✗ " + m.notice)
	}
	return noticeStyle.Render("! " + m.notice)
}

// waiting is the screen of a server table still open for players.
func (m *Model) waiting() []string {
	lines := []string{"", boldStyle.Render(m.cat.T("tui.server.waiting")), ""}
	// Who sits already and how many seats wait, numbered from 1 as the
	// page and razzia bot --seat number them.
	for i, seat := range m.remote.seats {
		name := seat.Name
		switch {
		case seat.Open:
			name = dimStyle.Render("— " + m.cat.T("web.seat.open") + " —")
		case i == m.remote.seat:
			name = boldStyle.Render(name) + dimStyle.Render(" ("+m.cat.T("term.you")+")")
		}
		lines = append(lines, fmt.Sprintf("  %d  %s", i+1, trunc(name, m.width-6)))
	}
	if m.changesLevels() && slices.ContainsFunc(m.remote.seats, func(s protocol.SeatInfo) bool { return s.Bot != "" }) {
		lines = append(lines, "", dimStyle.Render(trunc(m.cat.T("tui.server.levelkey"), m.width-2)))
	}
	if m.remote.invite != "" {
		lines = append(lines, "", m.cat.T("tui.server.invite"), "  "+m.remote.invite)
	}
	return lines
}

// table renders the table in h lines: the row, the auction, every player,
// the choices or the result, and as much of the log as fits. squeezed
// reports that the players' holdings found no line.
func (m *Model) table(h int) (lines []string, squeezed bool) {
	s := m.snap
	if len(s.Players) == 0 {
		lines := []string{"", dimStyle.Render(m.cat.T("tui.server.connecting"))}
		if m.remote != nil && m.remote.drop != nil {
			// Not yet a table to show: why, and when it tries again.
			lines = append(append(lines, ""), m.prompt()...)
		}
		return lines, false
	}
	var top []string
	top = append(top, m.row()...)
	var bottom []string
	if m.Over() {
		bottom = m.result()
	} else {
		top = append(top, m.deck(), m.raid())
		if s.Auction != nil {
			top = append(top, m.auction()...)
		}
		bottom = append(m.stakeLine(), m.prompt()...)
	}
	// Each player gets up to three lines; the log gets what is left, at
	// least one line, unless that line would cost the players their
	// holdings.
	n := max(len(s.Seats), 1)
	room := h - len(top) - len(bottom)
	per := min(3, max(1, (room-1)/n))
	if per < 2 && room >= 2*n {
		per = 2
	}
	var players []string
	for i := range s.Seats {
		players = append(players, m.player(i, per)...)
	}
	logRoom := h - len(top) - len(players) - len(bottom)
	var log []string
	if logRoom > 0 {
		log = m.recentLog(logRoom - 1)
		log = append([]string{""}, log...)
	}
	out := append(top, players...)
	out = append(out, log...)
	for len(out)+len(bottom) < h {
		out = append(out, "")
	}
	held := false
	for _, seat := range s.Seats {
		held = held || len(seat.Holdings) > 0
	}
	return append(out, bottom...), per < 2 && held
}

// row renders the auction row, wrapped to two lines at most.
func (m *Model) row() []string {
	label := boldStyle.Render(m.cat.T("term.row")) + " (" + strconv.Itoa(len(m.snap.Row)) + "/" + strconv.Itoa(razzia.RowSize) + "):"
	if len(m.snap.Row) == 0 {
		return []string{label + " " + dimStyle.Render("—")}
	}
	var cards []string
	for i, tok := range m.snap.Row {
		c := m.cardLabel(tok)
		if m.picking {
			mark := "[ ]"
			if m.picked[i] {
				mark = "[x]"
			}
			c = strconv.Itoa(i+1) + mark + " " + c
			if i == m.cursor {
				c = selectedStyle.Render(c)
			}
		}
		cards = append(cards, c)
	}
	lines := m.wrap(label+" "+strings.Join(cards, "  "), 2)
	if len(lines) > 2 {
		lines = lines[:2]
	}
	return lines
}

// cardLabel is a card of the row: its symbol and name.
func (m *Model) cardLabel(tok string) string {
	k, err := razzia.ParseKind(tok)
	if err != nil {
		return tok
	}
	f := familyOf(k)
	// A no-break space: the symbol never ends a line without its card.
	return paint(f.colour, f.symbol) + "\u00a0" + strings.ReplaceAll(m.cat.T("card."+tok), " ", "\u00a0")
}

// auction is the running auction, on one line or two: its kind, who
// started it, the highest bid and the caller's obligation, never cut off.
func (m *Model) auction() []string {
	a := m.snap.Auction
	name := m.name(a.Initiator)
	parts := []string{boldStyle.Render("⚑ " + m.cat.T("auction."+a.Kind) + " (" + name + ")")}
	if a.HighBidder >= 0 {
		parts = append(parts, m.cat.T("auction.highbid", "cheque", a.HighBid, "player", m.name(a.HighBidder)))
	} else {
		parts = append(parts, m.cat.T("auction.nobid"))
	}
	if a.MustBid {
		parts = append(parts, noticeStyle.Render(m.cat.T("auction.mustbid", "player", name)))
	}
	return m.wrap(strings.Join(parts, " · "), 2)
}

// deck is the line of the undrawn cards: how many, and how many of each
// family, cars and drivers apart (R16 scores them apart).
func (m *Model) deck() string {
	s := m.snap
	parts := []string{m.cat.T("tui.deck", "n", s.DeckLeft), paint(policeColour, policeSymbol) + " " + strconv.Itoa(s.Remaining["police"])}
	for _, f := range families {
		var counts []string
		n := 0
		for _, k := range f.kinds {
			counts = append(counts, strconv.Itoa(s.Remaining[k.String()]))
			n += s.Remaining[k.String()]
		}
		c := strconv.Itoa(n)
		if f.kinds[0] == razzia.Car {
			c = strings.Join(counts, "+")
		}
		parts = append(parts, paint(f.colour, f.symbol)+" "+c)
	}
	return parts[0] + " " + strings.Join(parts[1:], "  ")
}

// risk is the raid risk of the view shown.
func (m *Model) risk() razzia.RaidRisk {
	s := m.snap
	return razzia.RaidRisk{Police: s.Police, Limit: s.PoliceLimit, PoliceLeft: s.Remaining["police"], CardsLeft: s.DeckLeft}
}

// raid is the line of the raid risk: the chance that the next card is
// police, and what one more police card means (R7).
func (m *Model) raid() string {
	r := m.risk()
	return m.cat.T("tui.raid.chance", "percent", percent(r.Chance())) + " · " + m.toRaid(r)
}

// toRaid says what one more police card means: the raid, or how many more
// bring it.
func (m *Model) toRaid(r razzia.RaidRisk) string {
	if r.ToRaid() == 1 {
		return noticeStyle.Render(m.cat.T("tui.raid.next"))
	}
	return m.cat.T("tui.raid.more", "n", r.ToRaid())
}

// percent rounds a probability to a whole percentage.
func percent(p float64) int { return int(math.Round(100 * p)) }

// stakeLine is what the row and the centre cheque are worth to the person
// deciding, by category, if the round ended now: for the bid selected, or
// else the lowest, which matters in round 3 only (R17). The engine computes
// it into the view (stakeOf), so it shows in a local game and on a server.
func (m *Model) stakeLine() []string {
	if m.curtain() || m.picking {
		return nil
	}
	if !m.mine() {
		return m.stakesAll(-1)
	}
	bid := -1
	if cs := m.choices(); m.choice >= 0 && m.choice < len(cs) && cs[m.choice].action == razzia.ActionBid {
		bid = cs[m.choice].cheque
	}
	gain, bid, ok := m.stakeOf(bid)
	if !ok {
		return nil
	}
	label := m.cat.T("tui.stake")
	if m.snap.Round == razzia.Rounds && bid > 0 {
		label = m.cat.T("tui.stake.bid", "cheque", bid)
	}
	var parts []string
	for c, v := range gain {
		if v != 0 {
			parts = append(parts, categorySymbol(razzia.Category(c))+" "+signed(v))
		}
	}
	switch len(parts) {
	case 0:
		parts = append(parts, m.cat.T("tui.stake.none"))
	case 1:
	default:
		parts = append(parts, "= "+boldStyle.Render(signed(gain.Total())))
	}
	return append(m.wrap(label+" "+strings.Join(parts, "  "), 2), m.stakesAll(m.snap.ToMove)...)
}

// stakesAll is one line of what the lot is worth now to every player
// but skip, each at their lowest bid, so that everyone sees whom an
// auction matters to, waiting or not.
func (m *Model) stakesAll(skip int) []string {
	// The names give way, down to a few letters, so that every player's
	// stake shows on the one line: five players at 80 columns.
	line := func(name int) string {
		var parts []string
		for _, st := range m.snap.Stakes {
			if st.Seat != skip {
				parts = append(parts, trunc(m.name(st.Seat), name)+" "+boldStyle.Render(signed(st.Gain.Total())))
			}
		}
		if len(parts) == 0 {
			return ""
		}
		return m.cat.T("tui.stake.all") + " " + strings.Join(parts, " · ")
	}
	name := 20 // a person's longest name, whole where there is room
	for name > 4 && ansiWidth(line(name)) > m.width-1 {
		name--
	}
	if l := line(name); l != "" {
		return []string{dimStyle.Render(trunc(l, m.width-1))}
	}
	return nil
}

// signed writes a number of points with its sign: +5, -2, +0.
func signed(v int) string { return fmt.Sprintf("%+d", v) }

// name returns the name of a seat.
func (m *Model) name(seat int) string {
	if seat >= 0 && seat < len(m.snap.Players) {
		return m.snap.Players[seat]
	}
	return "?"
}

// player renders a seat in at most n lines: the marker of the player to
// move, the name, the cheques face up [9] and face down (9), their sum
// (the final majority, R17), the total, the part in the auction; then the
// holdings grouped by family.
func (m *Model) player(i, n int) []string {
	s := m.snap
	seat := s.Seats[i]
	mark := "  "
	if i == s.ToMove {
		mark = boldStyle.Render("▶ ")
	}
	// The name column keeps its width whatever follows the name, so that
	// the cheques stay in their column: the name gives way.
	marks := ""
	if m.isYou(i) {
		marks += " (" + m.cat.T("term.you") + ")"
	}
	if m.remote != nil && i < len(m.remote.standIn) && m.remote.standIn[i] {
		marks += " (" + m.cat.T("web.standin") + ")"
	}
	marks = trunc(marks, nameColumn-6)
	name := trunc(seat.Name, nameColumn-1-ansiWidth(marks))
	if m.isYou(i) {
		name = boldStyle.Render(name)
	}
	name += dimStyle.Render(marks)
	var up, down []string
	for _, v := range seat.FaceUp {
		up = append(up, boldStyle.Render("["+strconv.Itoa(v)+"]"))
	}
	for _, v := range seat.FaceDown {
		down = append(down, dimStyle.Render("("+strconv.Itoa(v)+")"))
	}
	cheques := strings.Join(up, "")
	if len(up) == 0 {
		cheques = dimStyle.Render("[—]")
	}
	if len(down) > 0 {
		cheques += " " + strings.Join(down, "")
	}
	sum := 0
	for _, v := range slices.Concat(seat.FaceUp, seat.FaceDown) {
		sum += v
	}
	line := mark + pad(name, nameColumn) + pad(cheques, 20) + padLeft("$"+strconv.Itoa(sum), 4) + padLeft("Σ "+strconv.Itoa(seat.Total), 7)
	if c := m.clockText(i); c != "" {
		line += padLeft(c, 11)
	}
	if s.Auction != nil && i < len(s.Auction.Bids) {
		line += "  " + m.bidding(s.Auction.Bids[i], m.width-1-ansiWidth(line)-2)
	}
	lines := []string{line}
	if n > 1 {
		held := m.wrap("    "+m.holdings(seat.Holdings), 4)
		if len(held) > n-1 {
			// Cut where the room ends, between two holdings, and say so.
			held = held[:n-1]
			held[n-2] = cutItems(held[n-2], m.width-1-2) + " …"
		}
		lines = append(lines, held...)
	}
	return lines
}

// nameColumn is the width of the players' names and their marks.
const nameColumn = 22

// isYou reports whether the seat is played at this keyboard and there is
// only one such seat, so that "you" says whom.
func (m *Model) isYou(i int) bool {
	if m.remote != nil {
		return i == m.remote.seat
	}
	return m.seats[i].Bot == nil && !m.hotSeat()
}

// bidding renders a seat's part in the auction with a symbol and a word.
// In less than room cells it leaves out what it says in brackets ("passed
// over (no cheque high enough)" is "passed over"), so that the line's end
// is not what is cut.
func (m *Model) bidding(b string, room int) string {
	short := func(s string) string {
		if i := strings.Index(s, " ("); i > 0 && ansiWidth(s) > room {
			return s[:i]
		}
		return s
	}
	switch {
	case b == "undecided":
		return short("… " + m.cat.T("bids.undecided"))
	case b == "pass":
		return dimStyle.Render(short("✗ " + m.cat.T("bids.pass")))
	case b == "passed over":
		return dimStyle.Render(short("– " + m.cat.T("bids.passedover")))
	case strings.HasPrefix(b, "bid "):
		return boldStyle.Render(short("✓ " + m.cat.T("bids.bid", "cheque", strings.TrimPrefix(b, "bid "))))
	}
	return b
}

// holdings lists a seat's cards by family, each family with its symbol.
func (m *Model) holdings(h map[string]int) string {
	var groups []string
	for _, f := range families {
		var names []string
		for _, k := range f.kinds {
			n := h[k.String()]
			name := ""
			switch {
			case n == 1 && (k.IsJewel() || k.IsBusiness()):
				name = m.cat.T("card." + k.String())
			case n > 0:
				name = m.cat.Card(k.String(), n)
			default:
				continue
			}
			// No-break spaces: a line breaks between holdings, never
			// inside "2 real estates".
			names = append(names, strings.ReplaceAll(name, " ", "\u00a0"))
		}
		if len(names) > 0 {
			groups = append(groups, paint(f.colour, f.symbol)+"\u00a0"+strings.Join(names, ", "))
		}
	}
	if len(groups) == 0 {
		return dimStyle.Render("—")
	}
	return strings.Join(groups, "  ")
}

// cutItems shortens a line of holdings to n cells by leaving out whole
// holdings from its end: a holding's words are joined by no-break spaces,
// so the line breaks only between two of them.
func cutItems(line string, n int) string {
	for ansiWidth(line) > n {
		i := strings.LastIndexByte(strings.TrimRight(line, " "), ' ')
		if i <= 0 || strings.TrimSpace(line[:i]) == "" {
			return trunc(line, n) // one holding wider than the line
		}
		line = strings.TrimRight(line[:i], " ") // "casino, …" when a list goes on
	}
	return line
}

// recentLog narrates the last events that fit in n lines.
func (m *Model) recentLog(n int) []string {
	if n <= 0 {
		return nil
	}
	var lines []string
	for i := len(m.events) - 1; i >= 0 && len(lines) < n; i-- {
		l := m.wrap(dimStyle.Render("· "+m.narrate(m.events[i])), 2)
		lines = append(l, lines...)
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// narrate describes an event in the model's language.
func (m *Model) narrate(e razzia.Event) string {
	return m.cat.Narrate(e, m.snap.Players)
}

// prompt is the two lines of choices: who is to move, and what they can do.
func (m *Model) prompt() []string {
	s := m.snap
	who := m.name(s.ToMove)
	switch {
	case m.remote != nil && m.remote.ended != nil:
		return []string{errorStyle.Render(m.cat.T("tui.server.ended")), ""}
	case m.remote != nil && m.remote.drop != nil:
		text := m.cat.T("tui.server.reconnecting", "seconds", max(1, int(m.remote.drop.wait.Round(time.Second)/time.Second)))
		lines := append(m.wrap(errorStyle.Render("⚠ "+text), 2), "")
		return lines[:2]
	case m.remote != nil && m.remote.loop.Pending():
		return []string{dimStyle.Render(m.cat.T("tui.server.sending")), ""}
	case m.remote != nil && s.ToMove >= 0 && s.ToMove < len(m.remote.standIn) && m.remote.standIn[s.ToMove]:
		// Not "is thinking": the person is away, a server bot plays.
		return []string{dimStyle.Render(m.cat.T("tui.standin.playing", "player", who)), ""}
	case !m.mine():
		if m.game != nil && m.seats[s.ToMove].Bot != nil {
			return []string{dimStyle.Render(m.cat.T("tui.thinking", "player", who)), ""}
		}
		return []string{m.cat.T("term.tomove", "player", who), ""}
	case m.curtain():
		return []string{noticeStyle.Render("▶ " + m.cat.T("tui.curtain", "player", who)), m.cat.T("tui.curtain.enter")}
	case m.picking:
		tok, ok := m.pickedMove()
		line := m.cat.T("tui.thieves.prompt", "n", m.thievesHeld())
		if ok {
			line += " → " + boldStyle.Render(m.takeLabel(tok))
		}
		return []string{boldStyle.Render(line), dimStyle.Render(m.cat.T("tui.thieves.keys"))}
	}
	head := boldStyle.Render(m.cat.T("tui.yourturn", "player", who))
	var items []string
	for i, c := range m.choices() {
		if i == m.choice {
			items = append(items, selectedStyle.Render("▶ "+c.label+" "))
		} else {
			items = append(items, " "+c.label+" ")
		}
	}
	return []string{head + dimStyle.Render("  "+m.cat.T("tui.choose")), m.fitChoices(items)}
}

// fitChoices joins the choices on one line, scrolled so that the selected
// one shows.
func (m *Model) fitChoices(items []string) string {
	start := 0
	for {
		line := strings.Join(items[start:], " ")
		if start > 0 {
			line = "… " + line
		}
		if len(items) == 0 || start >= m.choice || ansiWidth(strings.Join(items[start:m.choice+1], " "))+2 <= m.width-2 {
			return line
		}
		start++
	}
}

// takeLabel describes a thief move: the row cards it takes.
func (m *Model) takeLabel(tok string) string {
	mv, err := razzia.ParseMove(tok)
	if err != nil {
		return tok
	}
	var cards []string
	for _, k := range mv.Take[:mv.Taken()] {
		cards = append(cards, k.String())
	}
	return m.cat.T("action.thieves.take", "thieves", m.cat.Card("thief", mv.Taken()), "cards", m.cat.Cards(cards))
}

// result is the end of the game: the winners, and a line per player with
// round 3 by category (R16, R17), each round's points and the total.
func (m *Model) result() []string {
	s := m.snap
	var names []string
	for _, w := range s.Winners {
		names = append(names, m.name(w))
	}
	var head string
	if len(names) == 1 {
		head = m.cat.T("event.gameover", "winner", names[0])
	} else {
		head = m.cat.T("event.gameover.shared", "winners", m.cat.List(names))
	}
	lines := []string{winStyle.Render("★ " + m.cat.T("phase.over") + ": " + head)}
	hdr := "   " + pad(m.cat.T("term.player"), 16)
	for c := range razzia.Category(razzia.NumCategories) {
		hdr += padLeft(categorySymbol(c), 4)
	}
	hdr += " "
	// A round's column is as wide as its heading and a space ("3. f."
	// in Hungarian), so that the headings never run together.
	rw := 5
	for r := 1; r <= razzia.Rounds; r++ {
		rw = max(rw, 1+ansiWidth(m.cat.T("tui.round.short", "round", r)))
	}
	for r := 1; r <= razzia.Rounds; r++ {
		hdr += padLeft(m.cat.T("tui.round.short", "round", r), rw)
	}
	hdr += padLeft("Σ", 6)
	lines = append(lines, boldStyle.Render(hdr))
	for i, seat := range s.Seats {
		mark := "   "
		if slices.Contains(s.Winners, i) {
			mark = " ★ "
		}
		l := mark + pad(trunc(seat.Name, 15), 16)
		last := razzia.Score{}
		if len(seat.Scores) == razzia.Rounds {
			last = seat.Scores[razzia.Rounds-1]
		}
		for _, v := range last {
			l += padLeft(strconv.Itoa(v), 4)
		}
		l += " "
		for r := range razzia.Rounds {
			v := "–"
			if r < len(seat.Scores) {
				v = strconv.Itoa(seat.Scores[r].Total())
			}
			l += padLeft(v, rw)
		}
		l += padLeft(strconv.Itoa(seat.Total), 6)
		if mark != "   " {
			l = winStyle.Render(l)
		}
		lines = append(lines, l)
	}
	return append(lines, dimStyle.Render("   "+m.cat.T("tui.result.hint", "round", razzia.Rounds)))
}
