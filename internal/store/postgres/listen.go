package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/razziagame/razzia/internal/store"
)

// listener holds the Store's one dedicated LISTEN connection. Its
// goroutine starts with the first Subscribe and waits for notifications;
// a Subscribe that needs a new channel queues a request and interrupts
// the wait, and returns once the channel is listened to, so that no
// notice sent after Subscribe returns is missed.
//
// A node hears several notifications a move, so the wait is made without
// a context: pgx would watch one (a registration and a goroutine's
// wake-up) for every notification. A request or the Store's Close
// interrupts it with a read deadline in the past instead, which pgx
// survives (a timeout leaves the connection usable, the message half read
// kept).
type listener struct {
	s    *Store
	reqs chan listenReq

	mu      sync.Mutex
	started bool
	waiting net.Conn // the connection while it waits for notifications
}

type listenReq struct {
	channels []string
	done     chan error
}

func (l *listener) init(s *Store) {
	l.s = s
	l.reqs = make(chan listenReq, 16)
}

// Subscribe implements store.Store: the notices of every node.
func (s *Store) Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error) {
	var ch <-chan store.Notice
	err := s.listenFor(ctx, channels, func(ctx context.Context) (err error) {
		ch, err = s.broker.Subscribe(ctx, channels...)
		return err
	})
	return ch, err
}

// Hear implements store.Hearer: the notices of every node, handed to f
// by the listening connection's goroutine as it reads them.
func (s *Store) Hear(ctx context.Context, f func(store.Notice), channels ...string) (<-chan struct{}, error) {
	var done <-chan struct{}
	err := s.listenFor(ctx, channels, func(ctx context.Context) (err error) {
		done, err = s.broker.Hear(ctx, f, channels...)
		return err
	})
	return done, err
}

// listenFor makes the broker's subscription with add, until ctx is done
// or the store closes, and listens to its channels.
func (s *Store) listenFor(ctx context.Context, channels []string, add func(context.Context) error) error {
	subCtx, cancel := context.WithCancel(ctx)
	if err := add(subCtx); err != nil {
		cancel()
		return err
	}
	if err := s.listen.add(ctx, channels); err != nil {
		cancel()
		return err
	}
	context.AfterFunc(s.ctx, cancel) // the broker ends the subscription at Close anyway
	return nil
}

// add makes sure the channels are listened to.
func (l *listener) add(ctx context.Context, channels []string) error {
	req := listenReq{channels: channels, done: make(chan error, 1)}
	l.mu.Lock()
	if !l.started {
		l.started = true
		l.s.wg.Add(1)
		go l.run()
	}
	l.mu.Unlock()
	select {
	case l.reqs <- req:
	case <-ctx.Done():
		return ctx.Err()
	case <-l.s.ctx.Done():
		return fmt.Errorf("postgres: subscribe: %w", store.ErrClosed)
	}
	l.interrupt()
	select {
	case err := <-req.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-l.s.ctx.Done():
		return fmt.Errorf("postgres: subscribe: %w", store.ErrClosed)
	}
}

// interrupt ends the current wait for notifications, if any.
func (l *listener) interrupt() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.waiting != nil {
		l.waiting.SetReadDeadline(time.Unix(1, 0)) // an error is the connection's, which the wait returns
	}
}

// run keeps the LISTEN connection until the store closes.
func (l *listener) run() {
	defer l.s.wg.Done()
	var (
		conn      *pgx.Conn
		listening = map[string]bool{}
		lost      bool // a connection was lost: notices may have been missed
		delay     = 100 * time.Millisecond
	)
	defer func() {
		if conn != nil {
			conn.Close(context.Background())
		}
	}()
	ctx := l.s.ctx
	stop := context.AfterFunc(ctx, l.interrupt)
	defer stop()
	for ctx.Err() == nil {
		if conn == nil {
			c, err := l.connect(ctx, listening)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				l.s.log.Warn("notifications: cannot listen, retrying", "db", l.s.where, "retry_in", delay, "err", err)
				l.failPending(err)
				select {
				case <-ctx.Done():
					return
				case <-time.After(delay):
				}
				delay = min(2*delay, 5*time.Second)
				continue
			}
			conn, delay = c, 100*time.Millisecond
			if lost {
				l.s.log.Info("notifications: listening again; subscribers re-read", "db", l.s.where)
				l.s.broker.Missed()
				lost = false
			}
		}
		err := l.serveRequests(ctx, conn, listening)
		if err == nil {
			err = l.wait(ctx, conn.PgConn())
		}
		if err != nil && ctx.Err() == nil {
			l.s.log.Warn("notifications: connection lost", "db", l.s.where, "err", err)
			conn.Close(context.Background())
			conn, lost = nil, true
		}
	}
}

// wait hands every notification to the broker (the connection's
// OnNotification) until interrupt ends the wait, or the connection
// fails: its error.
func (l *listener) wait(ctx context.Context, pc *pgconn.PgConn) error {
	l.mu.Lock()
	l.waiting = pc.Conn()
	l.mu.Unlock()
	var err error
	// A request queued before waiting was set finds the deadline not set:
	// look for one once more. The Store's Close likewise.
	if len(l.reqs) == 0 && ctx.Err() == nil {
		for err == nil {
			err = pc.WaitForNotification(context.Background())
		}
	}
	l.mu.Lock()
	l.waiting = nil
	l.mu.Unlock()
	var timeout net.Error
	if errors.As(err, &timeout) && timeout.Timeout() && !pc.IsClosed() {
		return pc.Conn().SetReadDeadline(time.Time{}) // interrupted
	}
	return err
}

// connect makes the dedicated connection and listens to the channels.
func (l *listener) connect(ctx context.Context, listening map[string]bool) (*pgx.Conn, error) {
	config := l.s.pool.Config().ConnConfig.Copy()
	config.OnNotification = func(_ *pgconn.PgConn, n *pgconn.Notification) { l.s.broker.Publish(n.Channel, n.Payload) }
	config.BuildFrontend = func(r io.Reader, w io.Writer) *pgproto3.Frontend {
		return pgproto3.NewFrontend(newNoticeReader(r, l.s.broker.Publish), w)
	}
	c, err := pgx.ConnectConfig(ctx, config)
	if err != nil {
		return nil, err
	}
	for ch := range listening {
		if _, err := c.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			c.Close(context.Background())
			return nil, err
		}
	}
	return c, nil
}

// serveRequests listens to the channels queued requests ask for.
func (l *listener) serveRequests(ctx context.Context, conn *pgx.Conn, listening map[string]bool) error {
	for {
		select {
		case req := <-l.reqs:
			var err error
			for _, ch := range req.channels {
				if listening[ch] {
					continue
				}
				if _, err = conn.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
					break
				}
				listening[ch] = true
			}
			req.done <- err
			if err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// failPending answers the queued requests with err: no connection.
func (l *listener) failPending(err error) {
	for {
		select {
		case req := <-l.reqs:
			req.done <- fmt.Errorf("postgres: listen: %w", err)
		default:
			return
		}
	}
}
