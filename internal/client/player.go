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
// seat loop of the protocol, written once, for every Go client (razzia
// bot, the load generator). Each move is sent with the seq of the
// position it was chosen on, so that the server never plays it twice;
// what follows a refusal is AfterRefusal's: a move refused for a while
// (rate limited, a store hiccup) is sent again after Retry, a move given
// up (illegal) is replaced, once per position, by the safe move
// (bot.DefaultMove), and after a refusal the game moved past, the next
// state decides; a position seen again after a reconnection gets the
// move sent for it again, since it may have been lost with the
// connection.
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

// DefaultRetry is the wait before a temporary refusal's move is sent
// again: the server's message rate refills a message every 100 ms.
const DefaultRetry = 250 * time.Millisecond

// sentMove is the last move sent and the position it was for.
type sentMove struct {
	move     string
	seq      int
	fallback bool // the safe move, sent after the chosen one was refused
}

// Play plays the seat until the game is over, and returns its last
// state; or the error that ended the session (ErrNoSeat for a token that
// holds no seat).
func (p *Player) Play(ctx context.Context) (*State, error) {
	sent := sentMove{seq: -1}
	var last *State
	for {
		st, err := p.Session.Next(ctx)
		var refused *Error
		switch {
		case errors.As(err, &refused) && refused.Status == 0:
			// A refusal of the move sent; one of the connection (an HTTP
			// status: no such game, expired) ends the session.
			next, ok := p.refused(ctx, refused, last, sent)
			if ok {
				sent = next
				p.send(ctx, sent)
			}
			continue
		case err != nil:
			return last, err
		}
		last = st
		if p.OnState != nil {
			p.OnState(st)
		}
		switch {
		case st.Seat < 0:
			return st, ErrNoSeat
		case st.Over():
			return st, nil
		case !st.MyTurn():
			continue
		case st.View.Moves == sent.seq:
			if st.First {
				p.send(ctx, sent) // reconnected: the move may have been lost with the connection
			}
			continue
		}
		sent = sentMove{move: p.Decide(st), seq: st.View.Moves}
		p.send(ctx, sent)
	}
}

// refused decides what follows a refusal of the move sent: the same move
// again after a temporary refusal, the safe move after an illegal one,
// nothing when the game has moved on.
func (p *Player) refused(ctx context.Context, e *Error, last *State, sent sentMove) (sentMove, bool) {
	if p.OnRefused != nil {
		p.OnRefused(e, sent.move)
	}
	next := AfterRefusal(e.Code)
	if next == Resync || sent.move == "" {
		return sent, false
	}
	if next == Resend {
		retry := p.Retry
		if retry == 0 {
			retry = DefaultRetry
		}
		t := time.NewTimer(retry)
		defer t.Stop()
		select {
		case <-t.C:
			return sent, sent.seq >= 0
		case <-ctx.Done():
			return sent, false
		}
	}
	if last != nil && last.MyTurn() && last.View.Moves == sent.seq && !sent.fallback {
		return sentMove{move: bot.DefaultMove(last.View.Legal), seq: sent.seq, fallback: true}, true
	}
	return sent, false
}

// send sends the move, if any, telling OnSent, and OnSendError when it
// did not leave.
func (p *Player) send(ctx context.Context, m sentMove) {
	if m.move == "" {
		return
	}
	if p.OnSent != nil {
		p.OnSent(m.move, m.seq)
	}
	if err := p.Session.Move(ctx, m.move, m.seq); err != nil && ctx.Err() == nil && p.OnSendError != nil {
		p.OnSendError(m.move, err)
	}
}
