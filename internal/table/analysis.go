package table

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// WaitSpare returns once a worker of the bot pool is free, or with ctx's
// error: work of lower priority than every bot (the analysis of finished
// games) runs only while the bots do not need all the CPU that
// Limits.BotWorkers gives them, and waits between its steps for them.
func (h *Hub) WaitSpare(ctx context.Context) error {
	h.workers.mu.Lock()
	spare := h.workers.spare
	h.workers.mu.Unlock()
	select {
	case <-spare:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SeatView returns the description of live game id and the view of the
// seat token holds: what a hint for that seat may read, never the deck.
// A token that holds no seat is ErrNotYourSeat, a table still open
// ErrNotStarted, a game that is over ErrGameOver.
func (h *Hub) SeatView(ctx context.Context, id, token string) (protocol.GameInfo, razzia.View, error) {
	var (
		in   protocol.GameInfo
		view razzia.View
	)
	hash := hashToken(token)
	err := h.with(ctx, id, func(l *loop) error {
		in = l.info()
		seat := match.SeatOf(l.m.Seats, hash)
		switch {
		case seat < 0:
			return reject(ErrNotYourSeat, "you have no seat at this table")
		case l.m.Game == nil:
			return reject(ErrNotStarted, "the game has not started")
		}
		view = l.m.Game.View(seat)
		return nil
	}, func(g *store.Game) error {
		if match.SeatOf(g.Seats, hash) < 0 {
			return reject(ErrNotYourSeat, "you have no seat at this table")
		}
		return reject(ErrGameOver, "the game is over")
	})
	return in, view, err
}

// Analysis returns the description of game id and, for a finished game,
// where its analysis is: pending until one is stored, failed, or done
// with the report. The stored report is decoded, not passed through, so
// that what a client gets is what the protocol documents, whatever an
// older server stored.
func (h *Hub) Analysis(ctx context.Context, id string) (protocol.GameInfo, protocol.AnalysisAnswer, error) {
	pending := protocol.AnalysisAnswer{Status: protocol.AnalysisPending}
	in, _, err := h.Game(ctx, id, "")
	if err != nil || in.Status != protocol.StatusFinished {
		return in, pending, err
	}
	a, err := h.store.Analysis(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return in, pending, nil
	case err != nil:
		return in, pending, h.failed("read analysis", id, err)
	case a.Failed != "":
		return in, protocol.AnalysisAnswer{Status: protocol.AnalysisFailed, Failed: a.Failed}, nil
	}
	var rep protocol.AnalysisReport
	if err := json.Unmarshal(a.Report, &rep); err != nil {
		return in, pending, h.failed("decode the stored analysis", id, err)
	}
	return in, protocol.AnalysisAnswer{Status: protocol.AnalysisDone, Report: &rep}, nil
}
