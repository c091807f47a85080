package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/botrating"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
)

// newAccounts returns the accounts of the store, their ratings with the
// bot levels' embedded calibration, and the Hub's game-over hook that
// records results and ratings.
func newAccounts(st store.Store, log *slog.Logger, origins []string) (*account.Service, func(context.Context, table.Finished)) {
	svc := account.New(st, account.Options{Logger: log, Bots: botrating.Levels(), Origins: origins})
	return svc, func(ctx context.Context, f table.Finished) {
		if err := svc.Finished(ctx, account.GameEnd(f)); err != nil {
			log.Error("recording a game's result failed", "game", f.Game, "err", err)
		}
	}
}

// purgeEvery removes the expired sessions and passkey challenges every
// interval until ctx ends.
func purgeEvery(ctx context.Context, svc *account.Service, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := svc.Purge(ctx); err != nil {
				log.Warn("purging expired sessions failed", "err", err)
			}
		}
	}
}
