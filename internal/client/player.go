package client

import (
	"context"
	"errors"
	"time"

	"github.com/razziagame/razzia/bot"
)

// ErrNoSeat is returned by Player.Play when the session's token holds no
// seat in the game: it can only watch.
var ErrNoSeat = errors.New("client: the token holds no seat in the game")

// A Player plays a seat through a session until the game is over: the
// seat loop of the protocol (SeatLoop) run in a goroutine, for the Go
// clients that decide by program (razzia bot, the load generator). A
// move given up (illegal) is replaced, once per position, by the safe
// move (bot.DefaultMove).
type Player struct {
	Session *Session
	// Decide returns the move for a state in which the seat is to move
	// (State.MyTurn): one of View.Legal; or "" to send nothing for this
	// position (a load generator that stopped).
	Decide func(st *State) string
	// Retry is the wait before a move refused for a while is sent again;
	// DefaultRetry when 0.
	Retry time.Duration
	// OnState, when set, hears every state the seat receives.
	OnState func(st *State)
	// OnRefused, when set, hears every refusal of a move;
	// err.MoveMatters tells those the game has not moved past.
	OnRefused func(err *Error, move string)
	// OnSent, when set, hears every move as it is sent, again too.
	OnSent func(move string, seq int)
	// OnSendError, when set, hears a move that did not leave; the next
	// state tells whether it arrived.
	OnSendError func(move string, err error)
}

// Play plays the seat until the game is over, and returns its last
// state; or the error that ended the session (ErrNoSeat for a token that
// holds no seat).
func (p *Player) Play(ctx context.Context) (*State, error) {
	loop := SeatLoop{Retry: p.Retry, Fallback: func(st *State) string { return bot.DefaultMove(st.View.Legal) }}
	for {
		st, err := p.Session.Next(ctx)
		var refused *Error
		switch {
		case errors.As(err, &refused) && refused.Status == 0:
			// A refusal of the move sent; one of the connection (an HTTP
			// status: no such game, expired) ends the session.
			if p.OnRefused != nil {
				p.OnRefused(refused, loop.sent.Move)
			}
			if s, ok := loop.Refused(refused); ok && wait(ctx, s.Wait) {
				p.send(ctx, s)
			}
			continue
		case err != nil:
			return loop.last, err
		}
		if p.OnState != nil {
			p.OnState(st)
		}
		again, ok := loop.Seen(st)
		switch {
		case st.Chat != nil:
		case st.Seat < 0:
			return st, ErrNoSeat
		case st.Over():
			return st, nil
		case ok:
			p.send(ctx, again)
		case loop.Choosing():
			if s, ok := loop.Chose(p.Decide(st)); ok {
				p.send(ctx, s)
			}
		}
	}
}

// wait waits d, and reports whether ctx let it.
func wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// send sends the move, telling OnSent, and OnSendError when it did not
// leave.
func (p *Player) send(ctx context.Context, s Send) {
	if p.OnSent != nil {
		p.OnSent(s.Move, s.Seq)
	}
	if err := p.Session.Move(ctx, s.Move, s.Seq); err != nil && ctx.Err() == nil && p.OnSendError != nil {
		p.OnSendError(s.Move, err)
	}
}
