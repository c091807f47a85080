package table

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
)

// standIn builds the bot that plays for a person's seat.
func (l *loop) standIn(seat int) {
	if l.bots.bySeat == nil || l.bots.bySeat[seat] != nil {
		return
	}
	b, err := l.env.newBot(StandInLevel, razzia.SeededRand(l.m.Seed, fmt.Sprintf("stand-in %d", seat)).Uint64())
	if err != nil {
		l.env.log.Error("cannot build the stand-in bot; it will play the default move", "game", l.id, "seat", seat, "err", err)
		b = bot.Fallback{}
	}
	l.bots.bySeat[seat] = b
}

// standIns builds the bots of the seats a bot stands in for (load).
func (l *loop) standIns() {
	for seat := range l.m.Seats {
		if l.m.Timing.StandingIn(seat) {
			l.standIn(seat)
		}
	}
}

// startBots builds the bots of a game that has started, from the levels
// load checked. Each bot is seeded from the game's seed and its seat.
func (l *loop) startBots() {
	l.bots.bySeat = make([]bot.Bot, len(l.m.Seats))
	for i, s := range l.m.Seats {
		if s.Bot == "" {
			continue
		}
		newBot := l.env.newBot
		if s.Bot == tutorial.Bot {
			// The prepared deal needs its own bots, whatever the options.
			newBot = func(_ string, seed uint64) (bot.Bot, error) { return tutorial.NewBot(seed) }
		}
		b, err := newBot(s.Bot, razzia.SeededRand(l.m.Seed, fmt.Sprintf("bot %d", i)).Uint64())
		if err != nil {
			l.env.log.Error("cannot build bot; it will play the default move", "game", l.id, "seat", i, "bot", s.Bot, "err", err)
			b = bot.Fallback{}
		}
		l.bots.bySeat[i] = b
	}
	l.standIns()
}

// schedule starts the bot to move, if a bot is to move, after delay.
func (l *loop) schedule(delay time.Duration) {
	if !l.owns() || l.m.Game == nil || l.bots.asked || l.m.Status != store.StatusPlaying {
		return
	}
	seat := l.m.Game.ToMove()
	if seat < 0 || l.bots.at(seat) == nil {
		return
	}
	b, v := l.bots.ask(seat), l.m.Game.View(seat)
	prio := 1 // nobody waits: bots only, or stand-ins for everyone who left
	if l.personPlays() {
		prio = 0
	}
	h := l.env
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		if delay > 0 {
			ready := make(chan struct{})
			stop := h.afterFunc(delay, func() { close(ready) })
			select {
			case <-ready:
			case <-h.ctx.Done():
				stop()
				b.Close() // the loop ends too, without it
				return
			}
		}
		if !h.workers.acquire(prio, h.ctx.Done(), l.done) {
			b.Close()
			return
		}
		start := time.Now()
		m := choose(b, v, h.log, l.id)
		h.workers.release()
		h.metrics.botDecision.Observe(time.Since(start).Seconds())
		select {
		case l.botc <- botMove{moves: v.Moves, move: m, at: time.Now()}:
		case <-h.ctx.Done():
			b.Close()
		case <-l.done:
			b.Close()
		}
	}()
}

// personPlays reports whether a person plays at the table (a seat of
// theirs that no bot stands in for): their game waits for its bots, and
// those go before the bots of games nobody waits for.
func (l *loop) personPlays() bool {
	for seat := range l.m.Seats {
		if l.m.PersonPlays(seat) {
			return true
		}
	}
	return false
}

// choose asks the bot, falling back to bot.Default if it panics, so that a
// bot's bug cannot stall a game.
func choose(b bot.Bot, v razzia.View, log *slog.Logger, id string) (m razzia.Move) {
	defer func() {
		if r := recover(); r != nil {
			m = bot.Default(v.Legal)
			log.Error("bot panicked; playing the default move", "game", id, "seat", v.Seat, "panic", r, "move", m)
		}
	}()
	return b.Choose(v)
}

// retryLater moves the bot again after RetryDelay: the store failed.
func (l *loop) retryLater() {
	l.retry.stop()
	l.retry = l.env.afterFunc(l.env.retryDelay, func() {
		select {
		case l.reqs <- func(l *loop) { l.schedule(0) }:
		case <-l.done:
		}
	})
}
