package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/analyst"
	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/puzzle"
	"github.com/razziagame/razzia/internal/puzzler"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/table"
)

// watched is a store that checks, when it is closed, that nothing of the
// server runs on it any more, that can refuse the push keys, and that
// tells of the analyses stored.
type watched struct {
	store.Store
	keys     error
	closed   chan struct{}
	onClose  func()
	analysed chan string // the games whose analysis was stored, if set
	lucky    chan string // the games whose seats' luck was stored, if set
	scanned  chan string // the games searched for puzzles, if set
}

func (w *watched) PutSeatLuck(ctx context.Context, id string, l []store.SeatLuck) error {
	err := w.Store.PutSeatLuck(ctx, id, l)
	if w.lucky != nil && err == nil {
		w.lucky <- id
	}
	return err
}

func (w *watched) PutPuzzleScan(ctx context.Context, id string, scan store.PuzzleScan) error {
	err := w.Store.PutPuzzleScan(ctx, id, scan)
	if w.scanned != nil && err == nil {
		w.scanned <- id
	}
	return err
}

func (w *watched) InitPushKeys(ctx context.Context, k store.VAPIDKeys) (store.VAPIDKeys, error) {
	if w.keys != nil {
		return store.VAPIDKeys{}, w.keys
	}
	return w.Store.InitPushKeys(ctx, k)
}

func (w *watched) PutAnalysis(ctx context.Context, id string, a store.Analysis) error {
	err := w.Store.PutAnalysis(ctx, id, a)
	if w.analysed != nil {
		w.analysed <- id
	}
	return err
}

func (w *watched) Close() error {
	if w.onClose != nil {
		w.onClose()
	}
	close(w.closed)
	return w.Store.Close()
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestShutdownOrder: the HTTP server and the Hub are stopped before the
// store is closed, and the store is closed.
func TestShutdownOrder(t *testing.T) {
	st := &watched{Store: memstore.New(), closed: make(chan struct{})}
	s, err := New(t.Context(), Options{Store: st, Logger: quiet(), Push: &notify.Options{Subject: "mailto:ops@razzia.test"}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	st.onClose = func() {
		select {
		case <-s.Hub.Done():
		default:
			t.Error("the store was closed while the Hub ran")
		}
		select {
		case err := <-served:
			if !errors.Is(err, http.ErrServerClosed) {
				t.Errorf("Serve: %v", err)
			}
		default:
			t.Error("the store was closed while the HTTP server served")
		}
	}
	if err := s.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-st.closed:
	default:
		t.Error("the store was left open")
	}
}

// TestNewFails: a part that cannot be built fails New, which stops what
// it had built and closes the store.
func TestNewFails(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"no store", Options{}, "no store"},
		{"push keys", Options{Store: &watched{Store: memstore.New(), keys: errors.New("disk full"), closed: make(chan struct{})},
			Push: &notify.Options{Subject: "mailto:ops@razzia.test"}}, "disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Logger = quiet()
			s, err := New(t.Context(), tt.opts)
			if err == nil || s != nil {
				t.Fatalf("New = %v, %v; want an error", s, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
			if w, ok := tt.opts.Store.(*watched); ok {
				select {
				case <-w.closed:
				default:
					t.Error("the store was left open")
				}
			}
		})
	}
}

// TestAnalyst: with Options.Analyst, a game that finishes is analysed.
func TestAnalyst(t *testing.T) {
	st := &watched{Store: memstore.New(), closed: make(chan struct{}), analysed: make(chan string, 1)}
	s, err := New(t.Context(), Options{Store: st, Logger: quiet(), Analyst: &analyst.Options{Iterations: 5}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(t.Context())
	tb, err := s.Hub.Create(t.Context(), table.TableSetup{Seats: []string{"easy", "easy"}})
	if err != nil {
		t.Fatal(err)
	}
	info := tb.Info
	select {
	case id := <-st.analysed:
		if id != info.ID {
			t.Errorf("analysed %s, want %s", id, info.ID)
		}
	case <-time.After(time.Minute): // a bound for a failure, never a wait for success
		t.Fatal("the game was not analysed within a minute")
	}
}

// TestPuzzler: a game the analyst analysed has its seats' luck stored at
// once, and is then searched for puzzles in the background.
func TestPuzzler(t *testing.T) {
	st := &watched{Store: memstore.New(), closed: make(chan struct{}), analysed: make(chan string, 1),
		lucky: make(chan string, 1), scanned: make(chan string, 1)}
	s, err := New(t.Context(), Options{Store: st, Logger: quiet(), Analyst: &analyst.Options{Iterations: 5},
		Puzzler: &puzzler.Options{Puzzle: puzzle.Options{Spec: "mcts:iters=30", Seeds: 1}, Rescan: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(t.Context())
	tb, err := s.Hub.Create(t.Context(), table.TableSetup{Seats: []string{"easy", "easy"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		ch   chan string
	}{{"analysed", st.analysed}, {"its luck stored", st.lucky}, {"searched for puzzles", st.scanned}} {
		select {
		case id := <-c.ch:
			if id != tb.Info.ID {
				t.Errorf("%s: %s, want %s", c.what, id, tb.Info.ID)
			}
		case <-time.After(time.Minute): // a bound for a failure, never a wait for success
			t.Fatalf("the game was not %s within a minute", c.what)
		}
	}
}
