package httpapi

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/razziagame/razzia/internal/protocol"
)

// readyTimeout bounds the checks of /readyz: a load balancer asks often.
const readyTimeout = 2 * time.Second

// metrics are what the Server tells an operator (Options.Metrics).
type metrics struct {
	clients prometheus.Gauge       // WebSockets open
	refused *prometheus.CounterVec // requests refused by a limit, by code
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		clients: prometheus.NewGauge(prometheus.GaugeOpts{Name: "razzia_connected_clients",
			Help: "WebSockets open on this node: players and spectators."}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "razzia_rate_limit_refusals_total",
			Help: "Requests and messages refused by a limit, by error code: rate_limited, too_many_connections, too_many_games."},
			[]string{"code"}),
	}
	if reg != nil {
		reg.MustRegister(m.clients, m.refused)
	}
	return m
}

// refusal counts an error sent to a client if a limit refused it.
func (m *metrics) refusal(code protocol.Code) {
	switch code {
	case protocol.RateLimited, protocol.TooManyConnections, protocol.TooManyGames:
		m.refused.WithLabelValues(string(code)).Inc()
	}
}

// operatorRoutes adds /healthz, /readyz and, with a registry, /metrics.
func (s *Server) operatorRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok")
	})
	mux.HandleFunc("GET /readyz", s.ready)
	if s.opts.Metrics != nil {
		mux.Handle("GET /metrics", promhttp.HandlerFor(s.opts.Metrics, promhttp.HandlerOpts{ErrorLog: slogPrinter{s}}))
	}
}

// ready answers a load balancer: 200 while the node should get clients,
// 503 with the reason while its database cannot serve (unreachable, a
// schema not this program's, commits failing) or it is shutting down.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err := s.hub.Ready(ctx); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "not ready: "+err.Error())
		return
	}
	io.WriteString(w, "ready")
}

// slogPrinter logs promhttp's errors.
type slogPrinter struct{ s *Server }

func (p slogPrinter) Println(v ...any) { p.s.log.Error("metrics", "err", v) }

// registerer is reg as a Registerer: nil when there is none.
func registerer(reg *prometheus.Registry) prometheus.Registerer {
	if reg == nil {
		return nil
	}
	return reg
}
