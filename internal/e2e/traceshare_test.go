package e2e

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A runTask is one task of the page's main thread, with the events that
// ran inside it.
type runTask struct {
	e              traceEvent
	message, frame bool
	layouts        []traceEvent
	paints         []traceEvent
	inner          []traceEvent
}

// A messageTask is the task that handled a message of the page's socket,
// the messages stamped in it (stampMessages) and the frame drawn next.
type messageTask struct {
	task   *runTask
	stamps []int
	frame  *runTask
}

// A stackFrame is a place in the stack of the script that asked for a
// style recalculation or a layout; its line counts from 1 (a CPU
// profile's from 0).
type stackFrame struct {
	FunctionName string `json:"functionName"`
	URL          string `json:"url"`
	LineNumber   int    `json:"lineNumber"`
}

// askedBy names the function that asked, and its script and line: " by
// syncChildren (dom.js:127)", or nothing when no script did.
func askedBy(st []stackFrame) string {
	if len(st) == 0 {
		return ""
	}
	return fmt.Sprintf(" by %s (%s:%d)", st[0].FunctionName, st[0].URL[strings.LastIndex(st[0].URL, "/")+1:], st[0].LineNumber)
}

type profileNode struct {
	ID        int `json:"id"`
	Parent    int `json:"parent"`
	CallFrame struct {
		FunctionName string `json:"functionName"`
		URL          string `json:"url"`
		LineNumber   int    `json:"lineNumber"`
	} `json:"callFrame"`
}

// A sample is one tick of the CPU profile: when, and the stack from the
// function running out to the root.
type sample struct {
	ts    float64
	stack []string
	own   string // the innermost of the page's own scripts' functions, if any
}

// stampsIn returns the indexes of the messages stamped inside task t.
func stampsIn(events []traceEvent, t *runTask) []int {
	var out []int
	for _, e := range events {
		if e.Name != "TimeStamp" || e.Pid != t.e.Pid || e.Tid != t.e.Tid || e.Ts < t.e.Ts || e.Ts > t.e.Ts+t.e.Dur {
			continue
		}
		if n, ok := strings.CutPrefix(e.Args.Data.Message, "razzia-message "); ok {
			if i, err := strconv.Atoi(n); err == nil {
				out = append(out, i)
			}
		}
	}
	return out
}

// profileSamples reads the CPU profiles of the processes pids: each
// sample's time and stack.
func profileSamples(events []traceEvent, pids map[int]bool) []sample {
	type profile struct {
		at    float64
		nodes map[int]profileNode
	}
	profiles := map[string]*profile{}
	key := func(e traceEvent) string { return fmt.Sprint(e.Pid, "/", e.ID) }
	for _, e := range events {
		if e.Name == "Profile" && pids[e.Pid] {
			profiles[key(e)] = &profile{at: e.Args.Data.StartTime, nodes: map[int]profileNode{}}
		}
	}
	var out []sample
	stacks := map[*profile]map[int]sample{}
	for _, e := range events {
		pr := profiles[key(e)]
		if e.Name != "ProfileChunk" || pr == nil {
			continue
		}
		for _, n := range e.Args.Data.CPUProfile.Nodes {
			pr.nodes[n.ID] = n
		}
		for i, id := range e.Args.Data.CPUProfile.Samples {
			if i >= len(e.Args.Data.TimeDeltas) {
				break
			}
			pr.at += e.Args.Data.TimeDeltas[i]
			if stacks[pr] == nil {
				stacks[pr] = map[int]sample{}
			}
			s, ok := stacks[pr][id]
			if !ok {
				s = stackOf(pr.nodes, id)
				stacks[pr][id] = s
			}
			s.ts = pr.at
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b sample) int { return cmp.Compare(a.ts, b.ts) })
	return out
}

func stackOf(nodes map[int]profileNode, id int) sample {
	var s sample
	for seen := 0; seen < 200; seen++ {
		n, ok := nodes[id]
		if !ok {
			break
		}
		f := n.CallFrame
		name := f.FunctionName
		if name == "" {
			name = "(anonymous)"
		}
		if f.URL != "" {
			name = fmt.Sprintf("%s (%s:%d)", name, f.URL[strings.LastIndex(f.URL, "/")+1:], f.LineNumber+1)
		}
		if s.own == "" && strings.Contains(f.URL, "/static/") {
			s.own = name
		}
		s.stack = append(s.stack, name)
		if n.Parent == 0 {
			break
		}
		id = n.Parent
	}
	return s
}

// workKind is the kind of work a trace event is: script, gc, style,
// layout, paint or other (the task's own, the messages between threads).
func workKind(name string) string {
	switch {
	case strings.Contains(name, "GC") || strings.Contains(name, "Scavenge") || strings.Contains(name, "Sweep"):
		return "gc"
	case name == "UpdateLayoutTree" || name == "ParseAuthorStyleSheet" || name == "RecalculateStyles":
		return "style"
	case name == "Layout" || name == "HitTest" || name == "IntersectionObserverController::computeIntersections":
		return "layout"
	case name == "PrePaint" || name == "Paint" || name == "Layerize" || name == "PaintImage" || name == "UpdateLayer" ||
		name == "Commit" || name == "ScrollLayer" || name == "UpdateLayerTree" || name == "CompositeLayers" || name == "RasterTask":
		return "paint"
	case name == "FunctionCall" || name == "EvaluateScript" || name == "TimerFire" || name == "FireAnimationFrame" ||
		name == "EventDispatch" || name == "RunMicrotasks" || name == "ParseHTML" || name == "v8.compile" ||
		strings.HasPrefix(name, "V8.") || strings.HasPrefix(name, "v8.") || strings.HasPrefix(name, "AnimationFrame::Script"):
		return "script"
	}
	return "other"
}

// workShares is where task t's time went, by kind of work (workKind): each
// event's own time, what ran inside it taken out, as a share of the task.
func workShares(t *runTask) map[string]float64 {
	own := map[string]float64{"other": t.e.Dur}
	evs := slices.Clone(t.inner)
	slices.SortStableFunc(evs, func(a, b traceEvent) int { return cmp.Or(cmp.Compare(a.Ts, b.Ts), cmp.Compare(b.Dur, a.Dur)) })
	var open []traceEvent
	for _, e := range evs {
		for len(open) > 0 && open[len(open)-1].Ts+open[len(open)-1].Dur <= e.Ts {
			open = open[:len(open)-1]
		}
		parent := "other"
		if len(open) > 0 {
			parent = workKind(open[len(open)-1].Name)
		}
		own[parent] -= e.Dur
		own[workKind(e.Name)] += e.Dur
		open = append(open, e)
	}
	out := map[string]float64{}
	for k, v := range own {
		if t.e.Dur > 0 && v > 0 {
			out[k] = v / t.e.Dur
		}
	}
	return out
}

// topFunctions are the functions the CPU profile found running in task
// t, as shares of its samples: where the samples stopped (self: a
// browser's call like removeChild or "(program)", the browser's own work
// such as a layout, included) and under which of the page's own
// functions (own).
func topFunctions(samples []sample, t *runTask, n int) (self, own []string, count int) {
	from, _ := slices.BinarySearchFunc(samples, t.e.Ts, func(s sample, at float64) int { return cmp.Compare(s.ts, at) })
	selfN, ownN := map[string]int{}, map[string]int{}
	for _, s := range samples[from:] {
		if s.ts > t.e.Ts+t.e.Dur {
			break
		}
		count++
		if len(s.stack) > 0 {
			selfN[s.stack[0]]++
		}
		if s.own != "" {
			ownN[s.own]++
		}
	}
	return ranked(selfN, count, n), ranked(ownN, count, n), count
}

func ranked(counts map[string]int, total, n int) []string {
	names := make([]string, 0, len(counts))
	for k := range counts {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b)) })
	var out []string
	for _, k := range names[:min(n, len(names))] {
		out = append(out, fmt.Sprintf("%s %.0f%%", k, 100*float64(counts[k])/float64(total)))
	}
	return out
}

func sharesText(shares map[string]float64) string {
	kinds := []string{"script", "gc", "style", "layout", "paint", "other"}
	var parts []string
	for _, k := range kinds {
		if shares[k] >= 0.005 {
			parts = append(parts, fmt.Sprintf("%s %.0f%%", k, 100*shares[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// messageLabel names a message of the table's socket by its type and, for
// a state or a patch, the kinds of the events it brings: "patch: bid",
// "patch: win, roundend".
func messageLabel(raw string) string {
	var m struct {
		Type   string `json:"type"`
		Events []struct {
			Kind string `json:"kind"`
		} `json:"events"`
	}
	if json.Unmarshal([]byte(raw), &m) != nil {
		return "?"
	}
	var kinds []string
	for _, e := range m.Events {
		if !slices.Contains(kinds, e.Kind) {
			kinds = append(kinds, e.Kind)
		}
	}
	if len(kinds) == 0 {
		return m.Type
	}
	return m.Type + ": " + strings.Join(kinds, ", ")
}

// logCosts prints, for the record, what the longest of the messages'
// tasks and frames were made of: the message (its type and events), the
// shares of script, GC, style, layout and paint, the style recalculations
// and layouts a script asked for, and the functions the profile found.
// messages are the socket's messages as stampMessages kept them.
func logCosts(t *testing.T, got traced, messages []string, n int) {
	t.Helper()
	label := func(mt messageTask) string {
		var names []string
		for _, i := range mt.stamps {
			if i >= 0 && i < len(messages) {
				names = append(names, messageLabel(messages[i]))
			}
		}
		if len(names) == 0 {
			return "(unstamped)"
		}
		return strings.Join(names, " | ")
	}
	describe := func(what string, rt *runTask, label string) {
		self, own, count := topFunctions(got.samples, rt, 6)
		t.Logf("%s %.1f ms after %q: %s", what, rt.e.Dur/1000, label, sharesText(workShares(rt)))
		for _, l := range rt.layouts {
			if l.Dur*20 >= rt.e.Dur {
				t.Logf("    %s %.0f%% (%d elements, %d objects)%s", l.Name, 100*l.Dur/rt.e.Dur, l.Args.ElementCount, l.Args.BeginData.DirtyObjects,
					askedBy(l.Args.BeginData.StackTrace))
			}
		}
		if count > 0 {
			t.Logf("    %d samples; stopped in: %s", count, strings.Join(self, ", "))
			t.Logf("    under the page's: %s", strings.Join(own, ", "))
		}
	}
	byTask := slices.Clone(got.tasks)
	slices.SortFunc(byTask, func(a, b messageTask) int { return cmp.Compare(b.task.e.Dur, a.task.e.Dur) })
	for _, mt := range byTask[:min(n, len(byTask))] {
		describe("task", mt.task, label(mt))
	}
	// A frame draws every message since the one before.
	frames := map[*runTask][]string{}
	var order []*runTask
	for _, mt := range got.tasks {
		if mt.frame == nil {
			continue
		}
		if _, ok := frames[mt.frame]; !ok {
			order = append(order, mt.frame)
		}
		frames[mt.frame] = append(frames[mt.frame], label(mt))
	}
	slices.SortFunc(order, func(a, b *runTask) int { return cmp.Compare(b.e.Dur, a.e.Dur) })
	for _, f := range order[:min(n, len(order))] {
		describe("frame", f, strings.Join(frames[f], " | "))
	}
	// And each kind of message: how many, their longest task and frame.
	type kind struct {
		n           int
		task, frame float64
	}
	kinds := map[string]*kind{}
	for _, mt := range got.tasks {
		l := label(mt)
		k := kinds[l]
		if k == nil {
			k = &kind{}
			kinds[l] = k
		}
		k.n++
		k.task = max(k.task, mt.task.e.Dur/1000)
		if mt.frame != nil {
			k.frame = max(k.frame, mt.frame.e.Dur/1000)
		}
	}
	labels := make([]string, 0, len(kinds))
	for l := range kinds {
		labels = append(labels, l)
	}
	slices.SortFunc(labels, func(a, b string) int { return cmp.Compare(kinds[b].task, kinds[a].task) })
	for _, l := range labels {
		k := kinds[l]
		t.Logf("  %-40q ×%-3d longest task %5.1f ms, frame %5.1f ms", l, k.n, k.task, k.frame)
	}
}

// stampedIn says whether task t holds one of the timestamps.
func stampedIn(stamps []traceEvent, t *runTask) bool {
	for _, e := range stamps {
		if e.Pid == t.e.Pid && e.Tid == t.e.Tid && e.Ts >= t.e.Ts && e.Ts <= t.e.Ts+t.e.Dur {
			return true
		}
	}
	return false
}

// nextFrame is the first of tasks that drew a frame, or nil.
func nextFrame(tasks []*runTask) *runTask {
	for _, t := range tasks {
		if t.frame {
			return t
		}
	}
	return nil
}

// styledIn counts the elements whose style task t recalculated: a count
// that does not depend on the machine's speed.
func styledIn(t *runTask) int {
	n := 0
	if t != nil {
		for _, l := range t.layouts {
			if l.Name == "UpdateLayoutTree" {
				n += l.Args.ElementCount
			}
		}
	}
	return n
}

// roundEndCosts prints, for the record, the elements restyled when a
// round's end opens (the message that ends the round: its task and the
// frame drawn next) and when the reader goes on from it.
func roundEndCosts(t *testing.T, got traced, messages []string) {
	t.Helper()
	seen := false
	for _, mt := range got.tasks {
		for _, i := range mt.stamps {
			if i < 0 || i >= len(messages) || !strings.Contains(messageLabel(messages[i]), "roundend") {
				continue
			}
			seen = true
			t.Logf("a round's end opens (%q): the task restyled %d elements, the frame drawn next %d; task %.1f ms, frame %.1f ms",
				messageLabel(messages[i]), styledIn(mt.task), styledIn(mt.frame), mt.task.e.Dur/1000, durOf(mt.frame))
		}
	}
	if !seen {
		t.Logf("no round ended during the trace")
	}
	for _, c := range got.continues {
		t.Logf("going on from a round's end: the task restyled %d elements, the frame drawn next %d; task %.1f ms, frame %.1f ms",
			styledIn(c.task), styledIn(c.frame), c.task.e.Dur/1000, durOf(c.frame))
	}
}

func durOf(t *runTask) float64 {
	if t == nil {
		return 0
	}
	return t.e.Dur / 1000
}
