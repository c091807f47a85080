package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/razziagame/razzia"
)

// The pages that cover the table: help, rules, scores, the log and the
// undrawn cards. Each is a scrollable viewport below the title line and the
// page's head, above the status line and the key line.

// open shows a page.
func (m *Model) open(o overlay) {
	m.over = o
	m.layoutPage()
	m.fillPage(false)
}

// layoutPage sizes the page to the terminal.
func (m *Model) layoutPage() {
	m.page.SetWidth(max(m.width, 1))
	m.page.SetHeight(max(m.height-4, 1))
	if m.over != noOverlay {
		m.fillPage(true)
	}
}

// fillPage writes the page's text; keep says whether to keep the scroll
// position (a new state arrived) or start at the page's natural place.
func (m *Model) fillPage(keep bool) {
	var lines []string
	switch m.over {
	case helpOverlay:
		lines = m.helpLines()
	case rulesOverlay:
		lines = m.rulesLines()
	case scoresOverlay:
		lines = m.scoreLines()
	case logOverlay:
		lines = m.logLines()
	case deckOverlay:
		lines = m.deckLines()
	}
	atBottom := m.page.AtBottom()
	offset := m.page.YOffset()
	m.page.SetContentLines(lines)
	switch {
	case keep && !(m.over == logOverlay && atBottom):
		m.page.SetYOffset(offset)
	case m.over == logOverlay:
		m.page.GotoBottom()
	default:
		m.page.GotoTop()
	}
}

// pageKey handles a key while a page is shown: scrolling, another page,
// or closing it.
func (m *Model) pageKey(k tea.KeyPressMsg) tea.Cmd {
	switch s := k.String(); s {
	case "esc", "q", "enter", "backspace":
		m.over = noOverlay
	case "?", "f1", "r", "s", "l", "i":
		o := map[string]overlay{"?": helpOverlay, "f1": helpOverlay, "r": rulesOverlay, "s": scoresOverlay, "l": logOverlay, "i": deckOverlay}[s]
		if o == m.over {
			m.over = noOverlay
		} else {
			m.open(o)
		}
	case "up", "k":
		m.page.ScrollUp(1)
	case "down", "j":
		m.page.ScrollDown(1)
	case "pgup", "b":
		m.page.PageUp()
	case "pgdown", "space", "f":
		m.page.PageDown()
	case "home", "g":
		m.page.GotoTop()
	case "end", "G":
		m.page.GotoBottom()
	}
	return nil
}

// pageHead is the line above the page: its title and how to move in it.
func (m *Model) pageHead() string {
	head := titleStyle.Render("» " + m.pageTitle())
	if m.page.TotalLineCount() > m.page.Height() {
		head += dimStyle.Render("  ↑↓ " + strconv.Itoa(int(m.page.ScrollPercent()*100+0.5)) + "%")
	}
	return head + dimStyle.Render("  esc ✕")
}

// pageTitle is the heading of the page shown.
func (m *Model) pageTitle() string {
	switch m.over {
	case helpOverlay:
		return m.cat.T("tui.help.title")
	case rulesOverlay:
		return m.cat.T("rules.title")
	case scoresOverlay:
		return m.cat.T("tui.scores.title")
	case logOverlay:
		return m.cat.T("tui.log.title")
	case deckOverlay:
		return m.cat.T("tui.deck.title")
	}
	return ""
}

// helpLines lists the keys and what the symbols on the table mean.
func (m *Model) helpLines() []string {
	keys := []struct{ key, text string }{
		{"← → ↑ ↓ tab", "tui.help.select"},
		{"enter", "tui.help.play"},
		{"d", "tui.help.draw"},
		{"c", "tui.help.call"},
		{"t", "tui.help.thieves"},
		{"1…9", "tui.help.bid"},
		{"p", "tui.help.pass"},
		{"l", "tui.help.log"},
		{"i", "tui.help.deck"},
		{"s", "tui.help.scores"},
		{"r", "tui.help.rules"},
		{"?", "tui.help.help"},
		{"esc", "tui.help.close"},
		{"q", "tui.help.quit"},
	}
	if m.remote != nil {
		keys = append(keys, []struct{ key, text string }{
			{"m M", "tui.help.chat"}, // a server's table chat
			{"p 1…9 x", "tui.help.ahead"},
			{"L", "tui.help.leave"},
			{"B", "tui.help.back"},
		}...)
		if !m.remote.opts.Tournament {
			keys = append(keys, struct{ key, text string }{"a n", "tui.help.rematch"})
		}
	}
	lines := []string{boldStyle.Render(m.cat.T("tui.help.keys"))}
	for _, k := range keys {
		lines = append(lines, m.legend(k.key, m.cat.T(k.text))...)
	}
	lines = append(lines, "", boldStyle.Render(m.cat.T("tui.help.symbols")))
	for _, f := range families {
		var names []string
		for _, k := range f.kinds {
			names = append(names, m.cat.T("card."+k.String()))
		}
		lines = append(lines, m.wrap("  "+paint(f.colour, f.symbol)+" "+strings.Join(names, ", "), 4)...)
	}
	lines = append(lines, "  "+paint(policeColour, policeSymbol)+" "+m.cat.T("card.police.plural"))
	// The lines of the table that need words, each with an example.
	for _, l := range []struct{ example, text string }{
		{m.cat.T("tui.deck", "n", 117) + " ★ 21  ✦ 6  ■ 16  ▲ 16+10 …", "tui.help.deckline"},
		{m.cat.T("tui.stake") + " ■ +5  ♦ +5  = +10", "tui.help.stake"},
	} {
		lines = append(lines, "  "+l.example)
		lines = append(lines, m.wrap("    "+m.cat.T(l.text), 4)...)
	}
	for _, l := range []struct{ sign, text string }{
		{"[9]", "tui.help.faceup"},
		{"(9)", "tui.help.facedown"},
		{"$24", "tui.help.chequesum"},
		{"▶", "tui.help.tomove"},
		{"✓ ✗ … –", "tui.help.bids"},
		{"Σ", "tui.help.total"},
	} {
		lines = append(lines, m.legend(l.sign, m.cat.T(l.text))...)
	}
	return lines
}

// legend is a line of the help: a key or a sign, and what it means, wrapped
// under the meaning.
func (m *Model) legend(sign, text string) []string {
	return m.wrap("  "+pad(sign, 13)+text, 15)
}

// deckLines is the composition of the undrawn cards by family and kind,
// and the raid risk in words (R5, R7).
func (m *Model) deckLines() []string {
	s := m.snap
	lines := []string{m.cat.T("term.deck.left", "n", s.DeckLeft), ""}
	lines = append(lines, "  "+paint(policeColour, policeSymbol)+" "+m.cat.T("card.police")+": "+strconv.Itoa(s.Remaining["police"]))
	for _, f := range families {
		var kinds []string
		for _, k := range f.kinds {
			kinds = append(kinds, m.cat.T("card."+k.String())+": "+strconv.Itoa(s.Remaining[k.String()]))
		}
		lines = append(lines, m.wrap("  "+paint(f.colour, f.symbol)+" "+strings.Join(kinds, ", "), 4)...)
	}
	r := m.risk()
	lines = append(lines, "")
	lines = append(lines, m.wrap(m.cat.T("tui.deck.chance", "percent", percent(r.Chance()), "police", r.PoliceLeft, "cards", r.CardsLeft), 0)...)
	return append(lines, m.wrap(m.toRaid(r), 0)...)
}

// rulesLines is the rules summary, wrapped to the terminal.
func (m *Model) rulesLines() []string {
	var lines []string
	for _, sec := range m.cat.Rules() {
		lines = append(lines, boldStyle.Render(sec.Title))
		for _, item := range sec.Items {
			lines = append(lines, m.wrap("  • "+item, 4)...)
		}
		lines = append(lines, "")
	}
	return lines
}

// logLines narrates every event so far, each round under its heading,
// each round's end with every player's points.
func (m *Model) logLines() []string {
	var lines []string
	round := 0
	for _, e := range m.events {
		if round == 0 {
			round = 1
			lines = append(lines, boldStyle.Render(m.cat.T("tui.log.round", "round", round)))
		}
		lines = append(lines, m.wrap("· "+m.narrate(e), 2)...)
		if e.Kind == razzia.EventRoundEnd {
			lines = append(lines, m.roundScores(round-1)...)
			if round < razzia.Rounds {
				round++
				lines = append(lines, "", boldStyle.Render(m.cat.T("tui.log.round", "round", round)))
			}
		}
	}
	if len(lines) == 0 {
		lines = append(lines, dimStyle.Render(m.cat.T("tui.log.empty")))
	}
	return lines
}

// roundScores are the lines of every player's points in round r (from
// 0) and in all so far, once the round is scored.
func (m *Model) roundScores(r int) []string {
	var lines []string
	total := make([]int, len(m.snap.Seats))
	for i, seat := range m.snap.Seats {
		if r >= len(seat.Scores) {
			return nil
		}
		for k := 0; k <= r; k++ {
			total[i] += seat.Scores[k].Total()
		}
	}
	for i, seat := range m.snap.Seats {
		lines = append(lines, m.wrap("  "+m.cat.T("tui.log.scored", "player", seat.Name, "points", seat.Scores[r].Total(), "total", total[i]), 4)...)
	}
	return lines
}

// scoreLines is the score table of every round scored, by category, and
// the totals.
func (m *Model) scoreLines() []string {
	seats := m.snap.Seats
	rounds := m.scoredRounds()
	if rounds == 0 {
		return []string{dimStyle.Render(m.cat.T("tui.scores.none"))}
	}
	col := min(10, max(6, (m.width-22)/max(len(seats), 1)))
	head := func(label string) string {
		s := pad(trunc(label, 21), 22)
		for _, st := range seats {
			s += padLeft(trunc(st.Name, col-1), col)
		}
		return s
	}
	row := func(label string, v func(seat int) int) string {
		s := pad(trunc(label, 21), 22)
		for i := range seats {
			s += padLeft(strconv.Itoa(v(i)), col)
		}
		return s
	}
	var lines []string
	// The latest round first, at the top: what just happened shows with
	// its head.
	for r := rounds - 1; r >= 0; r-- {
		lines = append(lines, boldStyle.Render(head(m.cat.T("term.round.n", "round", r+1))))
		for c := range razzia.Category(razzia.NumCategories) {
			label := categorySymbol(c) + " " + m.cat.T("cat."+c.String())
			lines = append(lines, row(label, func(i int) int { return seats[i].Scores[r][c] }))
		}
		lines = append(lines, boldStyle.Render(row("  "+m.cat.T("cat.total"), func(i int) int { return seats[i].Scores[r].Total() })), "")
	}
	lines = append(lines, boldStyle.Render(row("Σ "+m.cat.T("tui.scores.total"), func(i int) int { return seats[i].Total })))
	return lines
}

// categorySymbol returns the symbol of a score category's cards.
func categorySymbol(c razzia.Category) string {
	switch c {
	case razzia.CategoryThieves:
		return paint(families[0].colour, families[0].symbol)
	case razzia.CategoryBodyguards:
		return paint(families[1].colour, families[1].symbol)
	case razzia.CategoryCars:
		return paint(families[2].colour, families[2].symbol)
	case razzia.CategoryJewels:
		return paint(families[3].colour, families[3].symbol)
	case razzia.CategoryGold:
		return paint(families[4].colour, families[4].symbol)
	case razzia.CategoryBusinesses:
		return paint(families[5].colour, families[5].symbol)
	}
	return "$"
}

// wrap wraps s to the terminal's width, indenting continued lines: the
// first line takes the whole width, the rest what the indent leaves.
func (m *Model) wrap(s string, indent int) []string {
	w := max(m.width-1, 20)
	first, rest, ok := strings.Cut(ansi.Wrap(s, w, ""), "\n")
	lines := []string{first}
	if !ok {
		return lines
	}
	// The rest is one paragraph again, wrapped to the narrower width.
	rest = strings.ReplaceAll(rest, "\n", " ")
	for l := range strings.SplitSeq(ansi.Wrap(rest, w-indent, ""), "\n") {
		lines = append(lines, strings.Repeat(" ", indent)+l)
	}
	return lines
}

// pad fills s with spaces to n cells, counting cells, not bytes.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-ansi.StringWidth(s)))
}

// padLeft right-aligns s in n cells.
func padLeft(s string, n int) string {
	return strings.Repeat(" ", max(0, n-ansi.StringWidth(s))) + s
}

// trunc shortens s to n cells.
func trunc(s string, n int) string {
	return ansi.Truncate(s, n, "…")
}

// ansiWidth returns the cells s takes on the screen.
func ansiWidth(s string) int { return ansi.StringWidth(s) }
