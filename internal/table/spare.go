package table

import "context"

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

// closed returns a closed channel.
func closed() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// taken notes that a worker was taken; w.mu is held.
func (w *workers) taken() {
	if w.free == 0 {
		w.spare = make(chan struct{})
	}
}

// freed notes that a worker was given back; w.mu is held.
func (w *workers) freed() {
	if w.free == 1 {
		close(w.spare)
	}
}
