package table

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/razziagame/razzia/internal/store"
)

// metrics are what the Hub tells an operator (Options.Registerer).
type metrics struct {
	committed prometheus.Counter
	commit    prometheus.Histogram
	broadcast *prometheus.HistogramVec // by role: owner, replica
	// ownerBroadcast is broadcast's owner role, looked up once: the owner
	// observes it at every move.
	ownerBroadcast prometheus.Observer
	botDecision    prometheus.Histogram
	takenOver      prometheus.Counter
	lost           prometheus.Counter
	forwarded      *prometheus.CounterVec // by outcome
	forwardWait    prometheus.Histogram
}

// latencyBuckets span a fast commit to a stalled database, in seconds.
var latencyBuckets = []float64{.0005, .001, .002, .005, .01, .02, .05, .1, .2, .5, 1, 2, 5, 10}

// newMetrics registers the node's metrics in reg; leases and games count
// the leases held and the live games by status and role when asked.
func newMetrics(reg prometheus.Registerer, leases func() int, games func() map[liveGame]int) *metrics {
	m := &metrics{
		committed: prometheus.NewCounter(prometheus.CounterOpts{Name: "razzia_moves_committed_total",
			Help: "Moves this node committed to the store."}),
		commit: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "razzia_commit_seconds",
			Help: "How long committing a move took, group wait included.", Buckets: latencyBuckets}),
		broadcast: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "razzia_move_broadcast_seconds",
			Help: "From a move's arrival to its broadcast to this node's watchers: role owner from the request " +
				"(or the bot's choice) on the node that runs the game, role replica from the store's notice on another node.",
			Buckets: latencyBuckets}, []string{"role"}),
		botDecision: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "razzia_bot_decision_seconds",
			Help: "How long a bot took to choose a move, waiting for a worker excluded.", Buckets: latencyBuckets}),
		takenOver: prometheus.NewCounter(prometheus.CounterOpts{Name: "razzia_leases_taken_over_total",
			Help: "Games this node took over from another node (or from itself before a restart)."}),
		lost: prometheus.NewCounter(prometheus.CounterOpts{Name: "razzia_leases_lost_total",
			Help: "Games this node stopped running because its lease lapsed or another node took it."}),
		forwarded: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "razzia_forwarded_requests_total",
			Help: "Writes passed to the node that runs the game, by outcome: answered, timeout, unavailable."}, []string{"outcome"}),
		forwardWait: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "razzia_forward_seconds",
			Help: "How long the node that runs a game took to answer a write passed to it.", Buckets: latencyBuckets}),
	}
	m.ownerBroadcast = m.broadcast.WithLabelValues("owner")
	reg.MustRegister(m.committed, m.commit, m.broadcast, m.botDecision, m.takenOver, m.lost, m.forwarded, m.forwardWait,
		gamesCollector{games},
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "razzia_leases_held", Help: "Games this node runs: the leases it holds."},
			func() float64 { return float64(leases()) }))
	return m
}

// since observes the time from start in o, when start is set.
func since(o prometheus.Observer, start time.Time) {
	if !start.IsZero() {
		o.Observe(time.Since(start).Seconds())
	}
}

// A liveGame is a kind of live game: its status, and whether this node
// runs it (owner) or serves it (replica).
type liveGame struct {
	status store.Status
	owner  bool
}

// gamesCollector counts the live games this node has, by status and role.
type gamesCollector struct{ count func() map[liveGame]int }

var gamesDesc = prometheus.NewDesc("razzia_live_games",
	"Live games this node has, by status (open, playing) and role: owner (it runs the game) or replica (it serves the game's watchers here).",
	[]string{"status", "role"}, nil)

func (c gamesCollector) Describe(ch chan<- *prometheus.Desc) { ch <- gamesDesc }

func (c gamesCollector) Collect(ch chan<- prometheus.Metric) {
	counts := c.count()
	for _, st := range []store.Status{store.StatusOpen, store.StatusPlaying} {
		for _, owner := range []bool{true, false} {
			ch <- prometheus.MustNewConstMetric(gamesDesc, prometheus.GaugeValue, float64(counts[liveGame{st, owner}]), string(st), role(owner))
		}
	}
}

func role(owner bool) string {
	if owner {
		return "owner"
	}
	return "replica"
}
