package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
)

// clockTick redraws the clocks once a second while the table is timed.
type clockTick struct{}

// tick starts the clocks' ticking unless it runs already or nothing is timed.
func (m *Model) tick() tea.Cmd {
	if m.clock == nil || m.ticking {
		return nil
	}
	m.ticking = true
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return clockTick{} })
}

// ticked handles a clockTick: the next one, if still timed, and the bell
// once when the seat's own time runs low.
func (m *Model) ticked() tea.Cmd {
	m.ticking = false
	return tea.Batch(m.tick(), m.bell())
}

// lowTime is when a running clock turns red: at ten seconds, or at a
// tenth of the decision when that is longer.
func (m *Model) lowTime() time.Duration {
	return max(10*time.Second, time.Duration(m.clockSpan)*time.Millisecond/10)
}

// low reports whether the seat's running decision has little time left.
func (m *Model) low(seat int) bool {
	if m.clock == nil || m.Over() {
		return false
	}
	running, decision, reserve := m.clock.Left(seat, m.now().UnixMilli()+m.offset)
	return running && decision+reserve <= m.lowTime()
}

// bell rings the terminal's bell once a decision, when the person's own
// time runs low.
func (m *Model) bell() tea.Cmd {
	r := m.remote
	if r == nil || r.seat < 0 || m.rang == m.clock.Deadline || !m.low(r.seat) || r.standingIn() {
		return nil
	}
	m.rang = m.clock.Deadline
	return tea.Raw("\a")
}

// clockText is the seat's clock as the table shows it: the running
// decision's free time and the reserve ("0:07+1:00"), or the reserve of a
// seat waiting; empty at an untimed table or once the game is over.
func (m *Model) clockText(seat int) string {
	if m.clock == nil || m.Over() {
		return ""
	}
	running, decision, reserve := m.clock.Left(seat, m.now().UnixMilli()+m.offset)
	text := clockFormat(reserve)
	if running && decision > 0 {
		text = clockFormat(decision) + "+" + text
	}
	if m.low(seat) {
		// The colour is not alone: the clock's hourglass says it too.
		return errorStyle.Render("⌛" + text)
	}
	return text
}

// clockFormat writes a duration as a clock does: "0:07", "1:02:03", or
// whole days and hours ("3d05h") for correspondence.
func clockFormat(d time.Duration) string {
	s := int64((d + time.Second - 1) / time.Second)
	switch {
	case s >= 86400:
		return fmt.Sprintf("%dd%02dh", s/86400, s%86400/3600)
	case s >= 3600:
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
