package httpapi_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/table"
)

// get returns the status and body of a GET.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// metricLine reports whether the /metrics text has the line.
func metricLine(t *testing.T, url, line string) bool {
	t.Helper()
	_, body := get(t, url+"/metrics")
	for l := range strings.Lines(body) {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

// TestMetrics: /metrics shows the node's games, clients, moves and
// refusals, in the Prometheus text format.
func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	e := newEnv(t, httpapi.Options{}) // no registry: no /metrics
	if status, _ := get(t, e.URL+"/metrics"); status != http.StatusNotFound {
		t.Errorf("/metrics without a registry: %d", status)
	}
	s := servertest.New(t, servertest.Options{API: httpapi.Options{Metrics: reg, MessageRate: 1, MessageBurst: 1}, Hub: table.Options{Registerer: reg}})
	id := s.Create("", "easy", "easy").ID
	_, token := s.Join(id, "Ann")
	conn := s.Dial(id, token)
	ctx := servertest.Context(t)
	st, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for !st.MyTurn() {
		if st, err = conn.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// Two moves at once: the second is over the burst of one.
	for range 2 {
		if err := conn.Move(ctx, st.View.Legal[0], st.View.Moves); err != nil {
			t.Fatal(err)
		}
	}
	for {
		st, err = conn.Read(ctx)
		if err != nil {
			break // the rate_limited error
		}
	}
	for _, line := range []string{
		`razzia_connected_clients 1`,
		`razzia_live_games{role="owner",status="playing"} 1`,
		`razzia_leases_held 1`,
		`razzia_rate_limit_refusals_total{code="rate_limited"} 1`,
	} {
		if !metricLine(t, s.URL, line) {
			_, body := get(t, s.URL+"/metrics")
			t.Errorf("no line %q in /metrics:\n%s", line, body)
		}
	}
	_, body := get(t, s.URL+"/metrics")
	for _, name := range []string{"razzia_moves_committed_total", "razzia_commit_seconds_bucket", "razzia_move_broadcast_seconds_bucket",
		"razzia_bot_decision_seconds_bucket", "razzia_leases_taken_over_total"} {
		if !strings.Contains(body, name) {
			t.Errorf("no %s in /metrics", name)
		}
	}
}

// sickStore is a store whose health check fails while sick is set.
type sickStore struct {
	*memstore.Store
	sick atomic.Bool
}

func (s *sickStore) Health(ctx context.Context) error {
	if s.sick.Load() {
		return errors.New("no space left on device")
	}
	return s.Store.Health(ctx)
}

// TestReady: /readyz says whether the node should get clients: not when
// its store cannot commit, nor while it hands its games over; /healthz
// says it is alive all the same.
func TestReady(t *testing.T) {
	st := &sickStore{Store: memstore.New()}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub := table.New(st, table.Options{Logger: log})
	api := httpapi.New(hub, nil, httpapi.Options{Logger: log})
	srv := httptest.NewServer(api)
	t.Cleanup(func() { api.Close(); srv.Close(); hub.Close() })

	if status, body := get(t, srv.URL+"/readyz"); status != http.StatusOK || body != "ready" {
		t.Errorf("healthy: /readyz %d %q", status, body)
	}
	st.sick.Store(true)
	if status, body := get(t, srv.URL+"/readyz"); status != http.StatusServiceUnavailable || !strings.Contains(body, "no space left") {
		t.Errorf("commits failing: /readyz %d %q", status, body)
	}
	if status, _ := get(t, srv.URL+"/healthz"); status != http.StatusOK {
		t.Errorf("commits failing: /healthz %d", status)
	}
	st.sick.Store(false)
	if err := hub.Drain(t.Context()); err != nil {
		t.Fatal(err)
	}
	if status, body := get(t, srv.URL+"/readyz"); status != http.StatusServiceUnavailable || !strings.Contains(body, "shutting down") {
		t.Errorf("draining: /readyz %d %q", status, body)
	}
}
