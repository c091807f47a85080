package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// notifySignals and stopSignals are signal.Notify and signal.Stop; tests
// replace them to send a command its signals at a chosen moment.
var (
	notifySignals = signal.Notify
	stopSignals   = signal.Stop
)

// A stopper is the context of a long command's work, cancelled by SIGINT
// (Ctrl-C) or SIGTERM, which knows the exit status the signal calls for.
type stopper struct {
	context.Context
	mu  sync.Mutex
	sig os.Signal
}

// signalContext returns a context that SIGINT or SIGTERM cancels; stop
// releases the signals and returns once notice, if called, has returned.
// notice, if not nil, is called with the first signal, once the context
// is cancelled. A second signal ends the process at once (as ctrl+c does
// by default), for work that takes a while to stop: a bot program in the
// middle of a decision.
func signalContext(notice func(os.Signal)) (s *stopper, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	s = &stopper{Context: ctx}
	ch := make(chan os.Signal, 1)
	notifySignals(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case sig := <-ch:
			s.mu.Lock()
			s.sig = sig
			s.mu.Unlock()
			stopSignals(ch)
			cancel()
			if notice != nil {
				notice(sig) // once the work is told to stop
			}
		case <-ctx.Done():
		}
	}()
	return s, func() {
		stopSignals(ch)
		cancel()
		<-done
	}
}

// status returns the shell's exit status for the signal that stopped the
// work, 128 and its number (130 for SIGINT, 143 for SIGTERM), or 1 when
// no signal did.
func (s *stopper) status() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sig, ok := s.sig.(syscall.Signal); ok {
		return 128 + int(sig)
	}
	return 1
}
