package i18n

import "github.com/razziagame/razzia"

// Card returns n cards of the kind whose record token is token, counted:
// "2 cars", "1 driver" (the key card.<token>.count, or card.one for one).
func (c *Catalogue) Card(token string, n int) string {
	if n == 1 {
		return c.T("card.one", "card", c.T("card."+token))
	}
	return c.T("card."+token+".count", "n", n)
}

// Cards describes cards, given as record tokens, grouped by kind in the
// engine's order: "2 cars, 1 driver and 1 ring", or "no cards". Tokens that
// are not cards are left out.
func (c *Catalogue) Cards(tokens []string) string {
	var count [len(razzia.Kinds)]int
	for _, t := range tokens {
		for i, k := range razzia.Kinds {
			if k.String() == t {
				count[i]++
			}
		}
	}
	var parts []string
	for i, k := range razzia.Kinds {
		if count[i] > 0 {
			parts = append(parts, c.Card(k.String(), count[i]))
		}
	}
	if len(parts) == 0 {
		return c.T("cards.none")
	}
	return c.List(parts)
}

// List joins items as the language does: "a, b and c".
func (c *Catalogue) List(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	s := items[0]
	for _, it := range items[1 : len(items)-1] {
		s += c.T("list.sep") + it
	}
	return c.T("list.and", "first", s, "last", items[len(items)-1])
}

// Narrate describes the event in a sentence of the catalogue's language,
// naming the players. It is the one narrator: the server sends its
// sentences with the events (the page shows them), the terminal and
// "razzia replay" call it (see locales/README.md).
func (c *Catalogue) Narrate(e razzia.Event, players []string) string {
	name := func(seat int) string {
		if seat >= 0 && seat < len(players) {
			return players[seat]
		}
		return c.T("term.seat.n", "n", seat+1)
	}
	tokens := func() []string {
		t := make([]string, len(e.Cards))
		for i, k := range e.Cards {
			t[i] = k.String()
		}
		return t
	}
	switch e.Kind {
	case razzia.EventDraw:
		if e.Card == razzia.Police {
			return c.T("event.draw.police", "player", name(e.Seat), "police", e.Police)
		}
		return c.T("event.draw", "player", name(e.Seat), "card", c.T("card."+e.Card.String()+".a"))
	case razzia.EventThieves:
		return c.T("event.thieves", "player", name(e.Seat), "thieves", c.Card("thief", len(e.Cards)), "cards", c.Cards(tokens()))
	case razzia.EventAuction:
		return c.T("event.auction."+e.Auction.String(), "player", name(e.Seat))
	case razzia.EventBid:
		return c.T("event.bid", "player", name(e.Seat), "cheque", e.Cheque)
	case razzia.EventPass:
		return c.T("event.pass", "player", name(e.Seat))
	case razzia.EventWin:
		return c.T("event.win", "player", name(e.Seat), "cheque", e.Cheque, "cards", c.Cards(tokens()), "centre", e.Centre)
	case razzia.EventNoWinner:
		if e.Auction == razzia.AuctionSeventh {
			return c.T("event.nowinner.seventh", "cards", c.Cards(tokens()))
		}
		return c.T("event.nowinner")
	case razzia.EventRoundEnd:
		if e.PoliceLimit {
			return c.T("event.roundend.police", "round", e.Round)
		}
		return c.T("event.roundend", "round", e.Round)
	case razzia.EventGameOver:
		names := make([]string, len(e.Winners))
		for i, w := range e.Winners {
			names[i] = name(w)
		}
		if len(names) == 1 {
			return c.T("event.gameover", "winner", names[0])
		}
		return c.T("event.gameover.shared", "winners", c.List(names))
	}
	return ""
}
