package loadgen

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A kind is what a latency sample measures.
type kind int

// The kinds of samples, in the order the report shows them.
const (
	sameNode     kind = iota // a client's move to a client on the sender's node
	otherNode                // a client's move to a client on another node
	botSameNode              // a bot's move to a client on the node that created the table
	botOtherNode             // a bot's move to a client on another node
	botCommit                // a bot's move from its commit to a client
	kinds
)

// kindInfo names each kind in JSON and in the text report.
var kindInfo = [kinds]struct{ key, label string }{
	sameNode:     {"same_node", "same node"},
	otherNode:    {"other_node", "other node"},
	botSameNode:  {"bot_same_node", "bot, same node"},
	botOtherNode: {"bot_other_node", "bot, other node"},
	botCommit:    {"bot_commit", "bot, commit to client"},
}

// A Report is what a run measured.
type Report struct {
	Servers  []string `json:"servers"`
	Tables   int      `json:"tables"`
	Seats    int      `json:"seats"`    // at each table
	Clients  int      `json:"clients"`  // WebSocket players, at all tables
	Bots     int      `json:"bots"`     // server bots, at all tables
	BotLevel string   `json:"botLevel"` // their level; empty without bots
	// Rate is the moves a second each table's clients make; 0 for as fast
	// as the game allows.
	Rate float64 `json:"rate"`
	// Warmup is how long the tables played before the measured window;
	// Seconds is the window's length (to the last table's last move, with
	// Config.Moves). Every figure but the games and connections is the
	// window's.
	Warmup  float64 `json:"warmup"`
	Seconds float64 `json:"seconds"`
	CPUs    int     `json:"cpus"`
	// LoadAverage is the machine's one-minute load average at the start
	// and at the end, where the system tells it (Linux).
	LoadAverage []float64 `json:"loadAverage,omitempty"`
	Warnings    []string  `json:"warnings,omitempty"`

	Moves       Moves          `json:"moves"`
	Games       Games          `json:"games"`
	Connections Connections    `json:"connections"`
	Errors      map[string]int `json:"errors"` // by protocol code, or "transport" for a failed request
	// States are the state messages the clients received.
	States States `json:"states"`
	// Latency has a Summary per kind of sample that the run had: same_node,
	// other_node, bot_same_node, bot_other_node and bot_commit.
	Latency map[string]*Summary `json:"latency"`
	// CPU is what each process measured used in the window: the load
	// itself ("load"), the servers, and the processes Config.Procs named.
	CPU []CPU `json:"cpu,omitempty"`
	// Echo is the run against the echo alone, with Config.Echo.
	Echo *EchoReport `json:"echo,omitempty"`
}

// States counts the state messages the clients received in the window
// (not the first of each connection) and their bytes.
type States struct {
	Count int     `json:"count"`
	Bytes int64   `json:"bytes"`
	Mean  float64 `json:"mean"` // bytes a message
}

// warn adds a warning and tells it.
func (r *Report) warn(progress func(string, ...any), warning string) {
	r.Warnings = append(r.Warnings, warning)
	progress("warning: %s", warning)
}

// ratios sets each latency's p99 over the echo's.
func (r *Report) ratios() {
	if r.Echo == nil || r.Echo.Latency == nil || r.Echo.Latency.P99 <= 0 {
		return
	}
	for _, s := range r.Latency {
		s.EchoP99 = s.P99 / r.Echo.Latency.P99
	}
}

// Moves counts the moves made while the tables played.
type Moves struct {
	Total     int     `json:"total"`
	Clients   int     `json:"clients"`   // sent by the load's clients and played
	Bots      int     `json:"bots"`      // made by server bots
	PerSecond float64 `json:"perSecond"` // Total over Seconds
	// Unconfirmed are moves sent (and not refused) whose state some client
	// of the table had not received when the run ended.
	Unconfirmed int `json:"unconfirmed"`
}

// Games counts the games the tables played.
type Games struct {
	Started  int `json:"started"`
	Finished int `json:"finished"`
}

// Connections counts the WebSockets.
type Connections struct {
	Servers int `json:"servers"` // connections opened to the servers, reconnections included
	Peak    int `json:"peak"`    // the most open at once
	Drops   int `json:"drops"`   // connections lost or attempts that failed
}

// A Summary is the distribution of one kind of latency sample, in
// milliseconds.
type Summary struct {
	Count int     `json:"count"`
	Min   float64 `json:"min"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
	// EchoP99 is P99 over the echo's p99, when the run had the echo.
	EchoP99 float64 `json:"echoP99,omitempty"`
}

// summarize sorts samples and returns their summary; nil for none.
func summarize(samples []time.Duration) *Summary {
	if len(samples) == 0 {
		return nil
	}
	slices.Sort(samples)
	// The nearest rank: the smallest sample with at least q of them at or below.
	at := func(q float64) float64 {
		i := int(q*float64(len(samples))+0.999999) - 1
		return ms(samples[max(0, min(i, len(samples)-1))])
	}
	return &Summary{Count: len(samples), Min: ms(samples[0]), P50: at(0.50), P90: at(0.90), P99: at(0.99), Max: ms(samples[len(samples)-1])}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for people.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	rate := "as fast as the game allows"
	if r.Rate > 0 {
		rate = fmt.Sprintf("%g move/s per table", r.Rate)
	}
	bots := "no bots"
	if r.Bots > 0 {
		bots = fmt.Sprintf("%d %s bots", r.Bots, r.BotLevel)
	}
	where := fmt.Sprintf("on %d %s", len(r.Servers), plural(len(r.Servers), "server"))
	if len(r.Servers) == 0 {
		where = "on the echo alone"
	}
	fmt.Fprintf(&b, "%d tables of %d seats (%d clients, %s) %s, %s, measured %.1fs after %.1fs of warm-up, on %d CPUs\n",
		r.Tables, r.Seats, r.Clients, bots, where, rate, r.Seconds, r.Warmup, r.CPUs)
	if len(r.LoadAverage) == 2 {
		fmt.Fprintf(&b, "load average:  %.2f at the start, %.2f at the end\n", r.LoadAverage[0], r.LoadAverage[1])
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(&b, "warning:       %s\n", warn)
	}
	if len(r.Servers) > 0 {
		r.writeServers(&b)
	}
	if e := r.Echo; e != nil {
		fmt.Fprintf(&b, "echo alone:    %s, %d clients\n", e.URL, e.Clients)
		fmt.Fprintf(&b, "  moves:       %d (%.1f/s); %d not sent\n", e.Moves, e.PerSecond, e.Errors)
		writeLatency(&b, "move sent to message received", map[string]*Summary{"echo": e.Latency}, []string{"echo"}, map[string]string{"echo": "echo, every client"})
		writeCPU(&b, e.CPU)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeServers writes the servers' run.
func (r *Report) writeServers(b *strings.Builder) {
	m := r.Moves
	fmt.Fprintf(b, "moves:         %d (%.1f/s): %d by clients, %d by bots; %d unconfirmed\n", m.Total, m.PerSecond, m.Clients, m.Bots, m.Unconfirmed)
	fmt.Fprintf(b, "games:         %d started, %d finished\n", r.Games.Started, r.Games.Finished)
	c := r.Connections
	fmt.Fprintf(b, "connections:   %d to the servers (at most %d open at once, %d dropped or failed)\n", c.Servers, c.Peak, c.Drops)
	fmt.Fprintf(b, "errors:        %s\n", errorList(r.Errors))
	if s := r.States; s.Count > 0 {
		fmt.Fprintf(b, "states:        %d received, %.0f bytes each on average\n", s.Count, s.Mean)
	}
	keys, labels := make([]string, 0, kinds), map[string]string{}
	for k := range kinds {
		keys = append(keys, kindInfo[k].key)
		labels[kindInfo[k].key] = kindInfo[k].label
	}
	writeLatency(b, "move sent to state received", r.Latency, keys, labels)
	writeCPU(b, r.CPU)
}

// writeLatency writes the summaries of keys, in order.
func writeLatency(b *strings.Builder, title string, lat map[string]*Summary, keys []string, labels map[string]string) {
	fmt.Fprintf(b, "latency, %s:\n", title)
	fmt.Fprintf(b, "  %-22s %9s %9s %9s %9s %9s %9s\n", "", "samples", "p50", "p90", "p99", "max", "p99/echo")
	any := false
	for _, k := range keys {
		s := lat[k]
		if s == nil {
			continue
		}
		any = true
		ratio := ""
		if s.EchoP99 > 0 {
			ratio = fmt.Sprintf("%.1f×", s.EchoP99)
		}
		fmt.Fprintf(b, "  %-22s %9d %9s %9s %9s %9s %9s\n", labels[k], s.Count, msText(s.P50), msText(s.P90), msText(s.P99), msText(s.Max), ratio)
	}
	if !any {
		b.WriteString("  no samples\n")
	}
}

// writeCPU writes the processes' CPU over the window.
func writeCPU(b *strings.Builder, cpu []CPU) {
	if len(cpu) == 0 {
		b.WriteString("CPU:           not measured (Linux's /proc only)\n")
		return
	}
	fmt.Fprintf(b, "CPU in the window:\n  %-22s %9s %12s  %s\n", "", "seconds", "a move", "processes")
	for _, c := range cpu {
		pids := make([]string, len(c.PIDs))
		for i, p := range c.PIDs {
			pids[i] = strconv.Itoa(p)
		}
		if c.Missing {
			fmt.Fprintf(b, "  %-22s %9s %12s  %s (not running throughout)\n", c.Name, "?", "?", strings.Join(pids, " "))
			continue
		}
		fmt.Fprintf(b, "  %-22s %9.2f %10.0fµs  %s\n", c.Name, c.Seconds, c.PerMove, strings.Join(pids, " "))
	}
}

func msText(v float64) string {
	if v < 10 {
		return fmt.Sprintf("%.2fms", v)
	}
	return fmt.Sprintf("%.1fms", v)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// errorList lists errors by code, most frequent first.
func errorList(errs map[string]int) string {
	if len(errs) == 0 {
		return "none"
	}
	codes := make([]string, 0, len(errs))
	for c := range errs {
		codes = append(codes, c)
	}
	slices.SortFunc(codes, func(a, b string) int {
		if errs[a] != errs[b] {
			return errs[b] - errs[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%s %d", c, errs[c])
	}
	return strings.Join(parts, ", ")
}

// loadAverage returns the machine's one-minute load average, where the
// system tells it in /proc/loadavg.
func loadAverage() (float64, bool) {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}

// WriteSummary writes runs' reports as one Markdown table, a row a run,
// named by names (such as the files they were read from): what
// docs/deploy.md's figures show. Latencies are the clients' on the
// sender's node (on another node when no client was), with the p99 on
// another node beside them; CPU is
// microseconds a move, the processes of a name added up.
func WriteSummary(w io.Writer, names []string, reps []*Report) error {
	var b strings.Builder
	b.WriteString("| run | tables | moves/s | p50 | p99 | max | other node p99 | echo p50 | echo p99 | p99/echo | CPU a move: servers | PostgreSQL | load | echo | bytes a state | load average |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i, r := range reps {
		s := r.Latency[kindInfo[sameNode].key]
		if s == nil {
			s = r.Latency[kindInfo[otherNode].key]
		}
		var echo *Summary
		var echoCPU []CPU
		if r.Echo != nil {
			echo, echoCPU = r.Echo.Latency, r.Echo.CPU
		}
		ratio, load := "", ""
		if s != nil && s.EchoP99 > 0 {
			ratio = fmt.Sprintf("%.1f×", s.EchoP99)
		}
		if len(r.LoadAverage) == 2 {
			load = fmt.Sprintf("%.1f–%.1f", r.LoadAverage[0], r.LoadAverage[1])
		}
		other := r.Latency[kindInfo[otherNode].key]
		if other == s {
			other = nil
		}
		fmt.Fprintf(&b, "| %s | %d | %.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s |\n",
			names[i], r.Tables, r.Moves.PerSecond, cell(s, func(s *Summary) float64 { return s.P50 }),
			cell(s, func(s *Summary) float64 { return s.P99 }), cell(s, func(s *Summary) float64 { return s.Max }),
			cell(other, func(s *Summary) float64 { return s.P99 }),
			cell(echo, func(s *Summary) float64 { return s.P50 }), cell(echo, func(s *Summary) float64 { return s.P99 }), ratio,
			perMove(r.CPU, "server"), perMove(r.CPU, "postgres"), perMove(r.CPU, "load"), perMove(echoCPU, "echo"),
			r.States.Mean, load)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell is a figure of a summary, in milliseconds; empty without one.
func cell(s *Summary, f func(*Summary) float64) string {
	if s == nil {
		return ""
	}
	return msText(f(s))
}

// perMove is the microseconds a move of the processes of name, added up;
// empty when none was measured.
func perMove(cpu []CPU, name string) string {
	var sum float64
	found := false
	for _, c := range cpu {
		if c.Name == name && !c.Missing {
			sum += c.PerMove
			found = true
		}
	}
	if !found {
		return ""
	}
	return fmt.Sprintf("%.0f µs", sum)
}
