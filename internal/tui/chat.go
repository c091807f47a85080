package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/protocol"
)

// The table chat of a game on a server, kept small: the last lines are
// shown under the table, m picks a quick phrase and M sends it. Free
// text is the page's.

// chatShown is how many of the newest chat lines the screen shows.
const chatShown = 2

// chatSent is what the session's Chat returned.
type chatSent struct{ err error }

// heard takes the server's chat message: a line sent again (an operator
// removed it) replaces the one kept.
func (m *Model) heard(msg *protocol.ChatMessage) {
	r := m.remote
	for _, l := range msg.Lines {
		if i := slices.IndexFunc(r.chat, func(o protocol.ChatLine) bool { return o.Seq == l.Seq }); i >= 0 {
			r.chat[i] = l
			continue
		}
		r.chat = append(r.chat, l)
	}
	if n := len(r.chat); n > chatShown {
		r.chat = r.chat[n-chatShown:]
	}
}

// chatKey handles m and M at a server's table; it reports whether the
// key was one of them.
func (m *Model) chatKey(s string) (tea.Cmd, bool) {
	r := m.remote
	if r == nil || (s != "m" && s != "M") {
		return nil, false
	}
	phrases := chat.Phrases()
	if s == "m" || r.phrase == "" {
		// The next phrase; the first m shows the first.
		next := 0
		for i, p := range phrases {
			if p == r.phrase && s == "m" {
				next = (i + 1) % len(phrases)
			}
		}
		r.phrase = phrases[next]
		m.notice, m.failed = m.cat.T("tui.chat.pick", "phrase", m.cat.T("chat.phrase."+r.phrase)), false
		return nil, true
	}
	sess, ctx, phrase := r.session, r.ctx, r.phrase
	m.notice, m.failed = "", false
	return func() tea.Msg { return chatSent{sess.Chat(ctx, phrase, "")} }, true
}

// chatLines are the newest chat lines, told: a phrase in the reader's
// language, free text as sent (the terminal shows it as text).
func (m *Model) chatLines() []string {
	if m.remote == nil {
		return nil
	}
	var out []string
	for _, l := range m.remote.chat {
		words := l.Text
		switch {
		case l.Removed:
			words = m.cat.T("moderation.chat.removed")
		case l.Muted:
			words = m.cat.T("chat.muted")
		case l.Phrase != "":
			words = m.cat.T("chat.phrase." + l.Phrase)
		}
		who := boldStyle.Render(l.Name)
		if l.Channel == protocol.ChannelSpectators {
			who = dimStyle.Render(m.cat.T("chat.channel.spectators") + " · " + l.Name)
		}
		out = append(out, "» "+who+": "+words)
	}
	return out
}
