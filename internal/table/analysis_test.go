package table

import (
	"context"
	"testing"

	"github.com/razziagame/razzia/internal/store/memstore"
)

// spare reports whether WaitSpare would return at once.
func spare(w *workers) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case <-w.spare:
		return true
	default:
		return false
	}
}

func TestWaitSpareFollowsThePool(t *testing.T) {
	w := newWorkers(2)
	stop := make(chan struct{})
	steps := []struct {
		name string
		do   func()
		want bool
	}{
		{"idle", func() {}, true},
		{"one bot thinks", func() { w.acquire(0, stop, stop) }, true},
		{"both think", func() { w.acquire(1, stop, stop) }, false},
		{"one done", w.release, true},
		{"both again", func() { w.acquire(0, stop, stop) }, false},
	}
	for _, s := range steps {
		s.do()
		if got := spare(w); got != s.want {
			t.Fatalf("%s: spare = %t, want %t", s.name, got, s.want)
		}
	}
	// A worker passed from a bot to a waiting bot is never spare.
	granted := make(chan bool)
	w.onWait = func(int) { go w.release() }
	go func() { granted <- w.acquire(0, stop, stop) }()
	if !<-granted {
		t.Fatal("the waiting bot got no worker")
	}
	if spare(w) {
		t.Error("spare while a worker went from one bot to the next")
	}
	w.release()
	w.release()
	if !spare(w) {
		t.Error("not spare with every worker free")
	}
}

func TestWaitSpareWaits(t *testing.T) {
	h := newHub(t, memstore.New())
	for range h.opts.Limits.BotWorkers {
		h.workers.acquire(0, nil, nil)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- h.WaitSpare(ctx) }()
	h.workers.release()
	if err := <-done; err != nil {
		t.Fatalf("WaitSpare after a release = %v", err)
	}
	h.workers.acquire(0, nil, nil)
	go func() { done <- h.WaitSpare(ctx) }()
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("WaitSpare with a canceled context = %v", err)
	}
}
