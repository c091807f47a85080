package main

import (
	"context"
	"log/slog"

	"github.com/razziagame/razzia/internal/analyst"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
)

// startAnalyst analyses the finished games of st in the background, below
// the priority of hub's bots, unless o.Workers is 0; stop ends it and
// waits for it, and may be called again.
func startAnalyst(ctx context.Context, st store.Store, hub *table.Hub, o analyst.Options, log *slog.Logger) (stop func()) {
	if o.Workers == 0 {
		return func() {}
	}
	o.Spare, o.Logger = hub.WaitSpare, log
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		analyst.Run(ctx, st, o)
	}()
	return func() {
		cancel()
		<-done
	}
}
