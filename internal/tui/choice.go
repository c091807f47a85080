package tui

import (
	"slices"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
)

// A choice is one thing the person to move can do: a legal move, or the
// thieves, which open the picker for row cards.
type choice struct {
	label  string
	token  string // the move's record token; "" for the thieves picker
	action razzia.Action
	cheque int // ActionBid
}

// choices returns what the person to move can choose, in the engine's
// order: draw, call, thieves; or pass and the bids, lowest first.
func (m *Model) choices() []choice {
	if !m.mine() {
		return nil
	}
	var cs []choice
	thieves := false
	for _, tok := range m.snap.Legal {
		mv, err := razzia.ParseMove(tok)
		if err != nil {
			continue // cannot happen: the engine wrote the token
		}
		c := choice{token: tok, action: mv.Action}
		switch mv.Action {
		case razzia.ActionDraw:
			c.label = m.cat.T("action.draw")
		case razzia.ActionCall:
			c.label = m.cat.T("action.call")
		case razzia.ActionPass:
			c.label = m.cat.T("action.pass")
		case razzia.ActionBid:
			c.cheque = int(mv.Cheque)
			c.label = m.cat.T("action.bid.cheque", "cheque", c.cheque)
		case razzia.ActionThieves:
			thieves = true
			continue
		}
		cs = append(cs, c)
	}
	if thieves {
		cs = append(cs, choice{label: m.cat.T("action.thieves") + "…", action: razzia.ActionThieves})
	}
	return cs
}

// safeChoice returns the index of the safe move among the choices, the one
// a bot plays for a person whose time ran out (bot.DefaultMove): a draw,
// or a pass or the lowest bid in an auction.
func (m *Model) safeChoice() int {
	safe := bot.DefaultMove(m.snap.Legal)
	return max(0, slices.IndexFunc(m.choices(), func(c choice) bool { return c.token == safe }))
}

// find returns the index of the first choice with the action, or -1.
func find(cs []choice, a razzia.Action) int {
	return slices.IndexFunc(cs, func(c choice) bool { return c.action == a })
}

// pickedMove returns the thief move for the row cards picked and whether it
// is legal now.
func (m *Model) pickedMove() (string, bool) {
	var kinds []razzia.Kind
	for i, p := range m.picked {
		if p && i < len(m.snap.Row) {
			k, err := razzia.ParseKind(m.snap.Row[i])
			if err != nil {
				return "", false
			}
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return "", false
	}
	tok := razzia.Thieves(kinds...).String()
	return tok, slices.Contains(m.snap.Legal, tok)
}

// thievesHeld returns how many thieves the person to move holds.
func (m *Model) thievesHeld() int {
	if t := m.snap.ToMove; t >= 0 && t < len(m.snap.Seats) {
		return m.snap.Seats[t].Holdings[razzia.Thief.String()]
	}
	return 0
}
