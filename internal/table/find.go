package table

import (
	"context"
	"errors"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// with runs live in the goroutine of game id if it is open or being
// played, or static with its stored form if it is finished or archived.
// An expired table is ErrExpired.
func (h *Hub) with(ctx context.Context, id string, live func(*loop) error, static func(*store.Game) error) error {
	for {
		l, g, err := h.find(ctx, id)
		if err != nil {
			return err
		}
		if l == nil {
			return static(g)
		}
		err = l.call(ctx, live)
		if err != errEnded {
			return err
		}
		// The game ended meanwhile: look again.
	}
}

// find returns the goroutine of live game id: its owner's if this node
// runs it or takes it now (no node runs it), else a replica. A game that
// is over is returned as stored.
func (h *Hub) find(ctx context.Context, id string) (*loop, *store.Game, error) {
	if !protocol.ValidID(id) {
		return nil, nil, notFound(id)
	}
	for {
		l, closed := h.live.get(id)
		switch {
		case closed:
			return nil, nil, reject(ErrClosed, "the server is shutting down")
		case l != nil:
			return l, nil, nil
		}
		g, err := h.store.Game(ctx, id)
		if err != nil {
			return nil, nil, h.storeError("read game", id, err)
		}
		switch {
		case g.Status == store.StatusExpired:
			return nil, nil, h.expired(g)
		case g.Status == store.StatusCancelled:
			return nil, nil, cancelled()
		case !g.Status.Live():
			return nil, g, nil
		}
		lease, err := h.store.Lease(ctx, id)
		if err != nil {
			return nil, nil, h.storeError("read the lease of game", id, err)
		}
		if lease.Node == "" || lease.Node == h.node {
			l, err := h.adopt(ctx, id)
			switch {
			case err == nil && l != nil:
				return l, nil, nil
			case err == nil, errors.Is(err, store.ErrConflict):
				continue // it ended meanwhile: look again
			case errors.Is(err, store.ErrLeaseHeld), errors.Is(err, errDraining):
				// Another node was quicker, or this one takes no more games.
				if lease, err = h.store.Lease(ctx, id); err != nil {
					return nil, nil, h.storeError("read the lease of game", id, err)
				}
			default:
				return nil, nil, h.storeError("take game", id, err)
			}
		}
		if l, err = newLoop(h.env, g, store.Lease{}); err != nil {
			return nil, nil, h.failed("replay game", id, err)
		}
		l.holder = lease.Node
		if got, _ := h.start(l); got != nil {
			return got, nil, nil
		}
	}
}
