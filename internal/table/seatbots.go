package table

import "github.com/razziagame/razzia/bot"

// seatBots are the bots of a game's seats on its owner (none on a
// replica or before the start) and the one a bot goroutine is asking for
// a move. Each bot is closed once: when it is dropped or released, but
// the one asked, which is closed by whoever takes its answer (answered),
// or by the goroutine itself if the game's goroutine ended first.
type seatBots struct {
	bySeat []bot.Bot // nil for people
	asked  bool      // a bot goroutine is choosing the next move
	seat   int       // the seat whose bot it asks
	orphan bot.Bot   // that bot, dropped or released meanwhile
}

// at returns the bot of seat, nil for a person or before the start.
func (b *seatBots) at(seat int) bot.Bot {
	if b.bySeat == nil {
		return nil
	}
	return b.bySeat[seat]
}

// asking reports whether the bot of seat is the one asked, and still the
// seat's.
func (b *seatBots) asking(seat int) bool { return b.asked && b.orphan == nil && seat == b.seat }

// ask marks the bot of seat as asked, and returns it.
func (b *seatBots) ask(seat int) bot.Bot {
	b.asked, b.seat = true, seat
	return b.bySeat[seat]
}

// answered ends the asking: a bot asked and dropped meanwhile is closed.
func (b *seatBots) answered() {
	b.asked = false
	if b.orphan != nil {
		b.orphan.Close()
		b.orphan = nil
	}
}

// closeAll closes the bots but the one asked.
func (b *seatBots) closeAll() {
	for seat, x := range b.bySeat {
		if x != nil && !b.asking(seat) {
			x.Close()
		}
	}
}

// drop closes the bots and forgets them; the one asked is left to
// answered.
func (b *seatBots) drop() {
	b.closeAll()
	if b.asked && b.orphan == nil && b.bySeat != nil {
		b.orphan = b.bySeat[b.seat]
	}
	b.bySeat = nil
}

// release closes the bot that stood in for a seat its player took back;
// the one asked is left to answered, which drops its choice.
func (b *seatBots) release(seat int) {
	x := b.at(seat)
	if x == nil {
		return
	}
	if b.asking(seat) {
		b.orphan = x
	} else {
		x.Close()
	}
	b.bySeat[seat] = nil
}
