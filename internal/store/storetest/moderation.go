package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The checks of store.Moderation, run by Run with the others: operators
// (the first account's, granted and revoked), reports within their
// limit, the actions' log (closing a report once), the sanctions in
// force, and a chat line removed.
var moderationChecks = []struct {
	name string
	run  func(t *testing.T, s store.Store)
}{
	{"Operators", testOperators},
	{"FirstOperator", testFirstOperator},
	{"FirstOperatorAfterGrant", testFirstOperatorAfterGrant},
	{"ReportRoundTrip", testReportRoundTrip},
	{"ReportRefused", testReportRefused},
	{"ReportLimitRace", testReportLimitRace},
	{"ActionLog", testActionLog},
	{"ActionRefused", testActionRefused},
	{"Sanctions", testSanctions},
	{"ModerationAfterDelete", testModerationAfterDelete},
	{"StrikeChat", testStrikeChat},
}

func init() { checks = append(checks, moderationChecks...) }

// generous is a report limit that never binds.
var generous = store.ReportLimit{Since: base.Add(-time.Hour), Max: 1000}

func newReport(id string, from, about *store.Account, game string, at time.Time) store.Report {
	return store.Report{ID: id, Reporter: from.ID, ReporterName: from.Name, Target: about.ID, TargetName: about.Name,
		TargetKey: about.Key, Game: game, Kind: store.ReportChat, Reason: "said rude things 😠", Lines: []int{0, 3}, At: at.UTC()}
}

func newAction(id, kind string, op, about *store.Account, at time.Time) store.Action {
	return store.Action{ID: id, Kind: kind, Target: about.ID, TargetName: about.Name, TargetKey: about.Key,
		Operator: op.ID, OperatorName: op.Name, Reason: "abuse in the chat", Line: -1, At: at.UTC()}
}

func addAction(t *testing.T, s store.Store, a store.Action) {
	t.Helper()
	if err := s.AddAction(ctx(t), a); err != nil {
		t.Fatalf("AddAction(%s %s): %v", a.Kind, a.ID, err)
	}
}

func isOperator(t *testing.T, s store.Store, account string) bool {
	t.Helper()
	ok, err := s.Operator(ctx(t), account)
	if err != nil {
		t.Fatalf("Operator(%s): %v", account, err)
	}
	return ok
}

func testOperators(t *testing.T, s store.Store) {
	ann := newAccount("Ann", 1)
	createAccount(t, s, ann)
	steps := []struct {
		on, changed bool
	}{{true, true}, {true, false}, {false, true}, {false, false}}
	for _, st := range steps {
		changed, err := s.SetOperator(ctx(t), ann.ID, st.on, base)
		if err != nil || changed != st.changed {
			t.Fatalf("SetOperator(%v) = %v, %v; want %v", st.on, changed, err, st.changed)
		}
		if got := isOperator(t, s, ann.ID); got != st.on {
			t.Errorf("after SetOperator(%v): Operator = %v", st.on, got)
		}
	}
	bea := newAccount("Bea", 2)
	createAccount(t, s, bea)
	for i, a := range []*store.Account{bea, ann} {
		if _, err := s.SetOperator(ctx(t), a.ID, true, base.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if ops, err := s.Operators(ctx(t)); err != nil || !reflect.DeepEqual(ops, []string{bea.ID, ann.ID}) {
		t.Errorf("Operators = %v, %v; want Bea, Ann (by the time they got the role)", ops, err)
	}
	if _, err := s.SetOperator(ctx(t), "nobody", true, base); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("SetOperator(unknown) = %v, want ErrNoAccount", err)
	}
	if isOperator(t, s, "nobody") {
		t.Error("an unknown account is an operator")
	}
}

func testFirstOperator(t *testing.T, s store.Store) {
	ann, bea, cy := newAccount("Ann", 1), newAccount("Bea", 2), newAccount("Cy", 3)
	createAccount(t, s, ann)
	first := func(a *store.Account, want bool) {
		t.Helper()
		made, err := s.FirstOperator(ctx(t), a.ID, base)
		if err != nil || made != want {
			t.Fatalf("FirstOperator(%s) = %v, %v; want %v", a.Name, made, err, want)
		}
		if want && !isOperator(t, s, a.ID) {
			t.Errorf("FirstOperator(%s): not an operator", a.Name)
		}
	}
	first(ann, true)
	first(ann, false) // once
	createAccount(t, s, bea)
	first(bea, false) // not the only account
	if isOperator(t, s, bea.ID) {
		t.Error("the second account is an operator")
	}
	// Ann revoked and deleted: the next account is still not an operator
	// by itself, since one was made once.
	if _, err := s.SetOperator(ctx(t), ann.ID, false, base); err != nil {
		t.Fatal(err)
	}
	for _, a := range []*store.Account{ann, bea} {
		if _, err := s.DeleteAccount(ctx(t), a.ID, func(int) string { return "gone" }); err != nil {
			t.Fatal(err)
		}
	}
	createAccount(t, s, cy)
	first(cy, false)
	if isOperator(t, s, cy.ID) {
		t.Error("an account made after the first operator was deleted is an operator")
	}
}

// testFirstOperatorAfterGrant is FirstOperator on a server where an
// operator was granted: nobody becomes one by themselves.
func testFirstOperatorAfterGrant(t *testing.T, s store.Store) {
	ann := newAccount("Ann", 1)
	createAccount(t, s, ann)
	if _, err := s.SetOperator(ctx(t), ann.ID, true, base); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetOperator(ctx(t), ann.ID, false, base); err != nil {
		t.Fatal(err)
	}
	if made, err := s.FirstOperator(ctx(t), ann.ID, base); made || err != nil {
		t.Errorf("FirstOperator after a grant = %v, %v; want false", made, err)
	}
}

func testReportRoundTrip(t *testing.T, s store.Store) {
	ann, bea := newAccount("Ann", 1), newAccount("Bea", 2)
	createAccount(t, s, ann)
	createAccount(t, s, bea)
	r1 := newReport("r1", ann, bea, "g1", base)
	r2 := newReport("r2", bea, ann, "g1", base.Add(time.Second))
	r2.Kind, r2.Lines, r2.Reason = store.ReportStalling, nil, "lets the clock run out every turn"
	for _, r := range []store.Report{r2, r1} {
		if err := s.AddReport(ctx(t), r, generous); err != nil {
			t.Fatalf("AddReport(%s): %v", r.ID, err)
		}
	}
	got, err := s.Report(ctx(t), "r1")
	if err != nil || !reflect.DeepEqual(got, r1) {
		t.Errorf("Report(r1) = %+v, %v; want %+v", got, err, r1)
	}
	all, err := s.Reports(ctx(t), true, 0)
	if err != nil || len(all) != 2 || all[0].ID != "r1" || all[1].ID != "r2" {
		t.Fatalf("Reports(open) = %+v, %v; want r1, r2 (oldest first)", all, err)
	}
	if all[1].Lines != nil && len(all[1].Lines) != 0 {
		t.Errorf("r2's lines = %v, want none", all[1].Lines)
	}
	one, err := s.Reports(ctx(t), true, 1)
	if err != nil || len(one) != 1 || one[0].ID != "r1" {
		t.Errorf("Reports(open, 1) = %+v, %v; want r1", one, err)
	}
	a := newAction("a1", store.ActDismiss, ann, bea, base.Add(time.Minute))
	a.Report = "r1"
	addAction(t, s, a)
	open, err := s.Reports(ctx(t), true, 0)
	if err != nil || len(open) != 1 || open[0].ID != "r2" {
		t.Errorf("Reports(open) after r1 closed = %+v, %v; want r2", open, err)
	}
	closed, err := s.Report(ctx(t), "r1")
	if err != nil || !closed.Closed.Equal(a.At) || closed.Action != "a1" {
		t.Errorf("Report(r1) closed = %v by %q, %v; want %v by a1", closed.Closed, closed.Action, err, a.At)
	}
	every, err := s.Reports(ctx(t), false, 0)
	if err != nil || len(every) != 2 {
		t.Errorf("Reports(all) = %d, %v; want 2", len(every), err)
	}
	if _, err := s.Report(ctx(t), "nope"); !errors.Is(err, store.ErrNoReport) {
		t.Errorf("Report(unknown) = %v, want ErrNoReport", err)
	}
}

func testReportRefused(t *testing.T, s store.Store) {
	ann, bea := newAccount("Ann", 1), newAccount("Bea", 2)
	createAccount(t, s, ann)
	createAccount(t, s, bea)
	if err := s.AddReport(ctx(t), newReport("r0", ann, bea, "g0", base), generous); err != nil {
		t.Fatal(err)
	}
	self := newReport("r1", ann, ann, "g1", base)
	noReason := newReport("r1", ann, bea, "g1", base)
	noReason.Reason = ""
	badKind := newReport("r1", ann, bea, "g1", base)
	badKind.Kind = "rudeness"
	long := newReport("r1", ann, bea, "g1", base)
	long.Reason = string(make([]byte, store.MaxReason+1))
	ghost := newReport("r1", ann, &store.Account{ID: "ghost", Name: "Ghost", Key: "key:Ghost"}, "g1", base)
	unsorted := newReport("r1", ann, bea, "g1", base)
	unsorted.Lines = []int{3, 1}
	cases := []struct {
		name  string
		r     store.Report
		limit store.ReportLimit
		want  error
	}{
		{"themselves", self, generous, nil},
		{"no reason", noReason, generous, nil},
		{"unknown kind", badKind, generous, nil},
		{"reason too long", long, generous, nil},
		{"lines unsorted", unsorted, generous, nil},
		{"unknown person", ghost, generous, store.ErrNoAccount},
		{"again at the same game", newReport("r1", ann, bea, "g0", base), generous, store.ErrReported},
		{"over the limit", newReport("r1", ann, bea, "g1", base), store.ReportLimit{Since: base.Add(-time.Minute), Max: 1}, store.ErrTooManyReports},
	}
	for _, c := range cases {
		err := s.AddReport(ctx(t), c.r, c.limit)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: AddReport = %v, want %v", c.name, err, c.want)
		}
	}
	all, err := s.Reports(ctx(t), false, 0)
	if err != nil || len(all) != 1 {
		t.Errorf("after refused reports: %d reports, %v; want 1", len(all), err)
	}
	// Out of the window, the limit counts nothing; the same person at
	// another game is another report.
	if err := s.AddReport(ctx(t), newReport("r2", ann, bea, "g1", base.Add(time.Hour)), store.ReportLimit{Since: base.Add(time.Minute), Max: 1}); err != nil {
		t.Errorf("a report after the window: %v", err)
	}
}

func testReportLimitRace(t *testing.T, s store.Store) {
	ann, bea := newAccount("Ann", 1), newAccount("Bea", 2)
	createAccount(t, s, ann)
	createAccount(t, s, bea)
	const tries, max = 8, 3
	var (
		wg sync.WaitGroup
		mu sync.Mutex
		ok int
	)
	for i := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newReport(fmt.Sprintf("r%d", i), ann, bea, fmt.Sprintf("g%d", i), base.Add(time.Duration(i)*time.Second))
			err := s.AddReport(ctx(t), r, store.ReportLimit{Since: base.Add(-time.Hour), Max: max})
			switch {
			case err == nil:
				mu.Lock()
				ok++
				mu.Unlock()
			case !errors.Is(err, store.ErrTooManyReports) && !errors.Is(err, store.ErrConflict):
				t.Errorf("AddReport %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	all, _ := s.Reports(ctx(t), false, 0)
	if ok != max || len(all) != max {
		t.Errorf("%d reports at once with a limit of %d: %d stored (%d said so), want %d", tries, max, len(all), ok, max)
	}
}

func testActionLog(t *testing.T, s store.Store) {
	ann, bea, cy := newAccount("Ann", 1), newAccount("Bea", 2), newAccount("Cy", 3)
	for _, a := range []*store.Account{ann, bea, cy} {
		createAccount(t, s, a)
	}
	mute := newAction("a1", store.ActMute, ann, bea, base)
	mute.Until = base.Add(24 * time.Hour).UTC()
	mute.Game = "g1"
	strike := newAction("a2", store.ActStrike, ann, bea, base.Add(time.Second))
	strike.Game, strike.Line = "g1", 4
	ban := newAction("a3", store.ActBan, ann, cy, base.Add(2*time.Second))
	for _, a := range []store.Action{mute, strike, ban} {
		addAction(t, s, a)
	}
	of, err := s.Actions(ctx(t), bea.Key, 0)
	if err != nil || !reflect.DeepEqual(of, []store.Action{strike, mute}) {
		t.Errorf("Actions(Bea) = %+v, %v; want a2, a1 as stored", of, err)
	}
	all, err := s.Actions(ctx(t), "", 2)
	if err != nil || len(all) != 2 || all[0].ID != "a3" || all[1].ID != "a2" {
		t.Errorf("Actions(all, 2) = %+v, %v; want a3, a2", all, err)
	}
	if none, err := s.Actions(ctx(t), "key:nobody", 0); err != nil || len(none) != 0 {
		t.Errorf("Actions(nobody) = %+v, %v; want none", none, err)
	}
}

func testActionRefused(t *testing.T, s store.Store) {
	ann, bea := newAccount("Ann", 1), newAccount("Bea", 2)
	createAccount(t, s, ann)
	createAccount(t, s, bea)
	if err := s.AddReport(ctx(t), newReport("r1", ann, bea, "g1", base), generous); err != nil {
		t.Fatal(err)
	}
	closing := newAction("a0", store.ActDismiss, ann, bea, base)
	closing.Report = "r1"
	addAction(t, s, closing)
	bad := func(f func(a *store.Action)) store.Action {
		a := newAction("a1", store.ActMute, ann, bea, base.Add(time.Minute))
		f(&a)
		return a
	}
	cases := []struct {
		name string
		a    store.Action
		want error
	}{
		{"no reason", bad(func(a *store.Action) { a.Reason = "" }), nil},
		{"unknown kind", bad(func(a *store.Action) { a.Kind = "scold" }), nil},
		{"no operator", bad(func(a *store.Action) { a.Operator = "" }), nil},
		{"a suspension without an end", bad(func(a *store.Action) { a.Kind = store.ActSuspend }), nil},
		{"a ban with an end", bad(func(a *store.Action) { a.Kind, a.Until = store.ActBan, base.Add(time.Hour) }), nil},
		{"a strike of no line", bad(func(a *store.Action) { a.Kind, a.Game = store.ActStrike, "g1" }), nil},
		{"a mute with a line", bad(func(a *store.Action) { a.Line = 2 }), nil},
		{"a closed report", bad(func(a *store.Action) { a.Report = "r1" }), store.ErrReportClosed},
		{"an unknown report", bad(func(a *store.Action) { a.Report = "r9" }), store.ErrNoReport},
		{"an id logged", bad(func(a *store.Action) { a.ID = "a0" }), store.ErrConflict},
	}
	for _, c := range cases {
		err := s.AddAction(ctx(t), c.a)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: AddAction = %v, want %v", c.name, err, c.want)
		}
	}
	all, err := s.Actions(ctx(t), "", 0)
	if err != nil || len(all) != 1 {
		t.Errorf("after refused actions: %d actions, %v; want 1", len(all), err)
	}
}

func testSanctions(t *testing.T, s store.Store) {
	op, bea, cy, dee := newAccount("Op", 1), newAccount("Bea", 2), newAccount("Cy", 3), newAccount("Dee", 4)
	for _, a := range []*store.Account{op, bea, cy, dee} {
		createAccount(t, s, a)
	}
	at := func(m int) time.Time { return base.Add(time.Duration(m) * time.Minute).UTC() }
	muted := newAction("a1", store.ActMute, op, bea, at(0)) // for good
	suspended := newAction("a2", store.ActSuspend, op, bea, at(1))
	suspended.Until = at(60)
	banned := newAction("a3", store.ActBan, op, cy, at(2))
	lifted := newAction("a4", store.ActLift, op, cy, at(3))
	brief := newAction("a5", store.ActMute, op, dee, at(4))
	brief.Until = at(10)
	strike := newAction("a6", store.ActStrike, op, dee, at(5))
	strike.Game, strike.Line = "g", 0
	for _, a := range []store.Action{muted, suspended, banned, lifted, brief, strike} {
		addAction(t, s, a)
	}
	cases := []struct {
		now  time.Time
		want []store.Action
	}{
		{at(5), []store.Action{brief, suspended, muted}},
		{at(10), []store.Action{suspended, muted}},
		{at(61), []store.Action{muted}},
	}
	for _, c := range cases {
		got, err := s.Sanctions(ctx(t), c.now)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Sanctions(%v) = %v, %v; want %v", c.now, ids(got), err, ids(c.want))
		}
	}
	// A ban after the lift holds again.
	again := newAction("a7", store.ActBan, op, cy, at(6))
	addAction(t, s, again)
	got, err := s.Sanctions(ctx(t), at(61))
	if err != nil || !reflect.DeepEqual(got, []store.Action{again, muted}) {
		t.Errorf("Sanctions after a new ban = %v, %v; want a7, a1", ids(got), err)
	}
}

func ids(actions []store.Action) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.ID
	}
	return out
}

// testModerationAfterDelete: a deleted account's reports and actions
// stay, with its name and key and without its id; a ban holds its key.
func testModerationAfterDelete(t *testing.T, s store.Store) {
	op, bea := newAccount("Op", 1), newAccount("Bea", 2)
	createAccount(t, s, op)
	createAccount(t, s, bea)
	if err := s.AddReport(ctx(t), newReport("r1", op, bea, "g1", base), generous); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetOperator(ctx(t), op.ID, true, base); err != nil {
		t.Fatal(err)
	}
	ban := newAction("a1", store.ActBan, op, bea, base)
	addAction(t, s, ban)
	if _, err := s.DeleteAccount(ctx(t), bea.ID, func(int) string { return "gone" }); err != nil {
		t.Fatal(err)
	}
	r, err := s.Report(ctx(t), "r1")
	if err != nil || r.Target != "" || r.TargetName != "Bea" || r.TargetKey != bea.Key || r.Reporter != op.ID {
		t.Errorf("the report after Bea's deletion = %+v, %v; want her name and key, no id", r, err)
	}
	got, err := s.Sanctions(ctx(t), base.Add(time.Hour))
	if err != nil || len(got) != 1 || got[0].TargetKey != bea.Key || got[0].Target != "" {
		t.Errorf("Sanctions after Bea's deletion = %+v, %v; want her ban by key", got, err)
	}
	if _, err := s.DeleteAccount(ctx(t), op.ID, func(int) string { return "gone" }); err != nil {
		t.Fatal(err)
	}
	if isOperator(t, s, op.ID) {
		t.Error("a deleted account is an operator")
	}
	acts, err := s.Actions(ctx(t), bea.Key, 0)
	if err != nil || len(acts) != 1 || acts[0].Operator != "" || acts[0].OperatorName != "Op" {
		t.Errorf("the ban after the operator's deletion = %+v, %v; want the operator's name, no id", acts, err)
	}
}

func testStrikeChat(t *testing.T, s store.Store) {
	g := chatGame(t, s, "g1")
	l, err := s.AcquireLease(ctx(t), g.ID, "n1", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range chatLines() {
		addChat(t, s, g.ID, l.Fence, m)
	}
	changes := subscribe(t, s, store.ChangesChannel)
	for range 2 { // a second time changes nothing
		if err := s.StrikeChat(ctx(t), g.ID, l.Fence, 1); err != nil {
			t.Fatalf("StrikeChat: %v", err)
		}
	}
	want := chatLines()
	for i := range want {
		want[i].Seq = i
	}
	want[1].Removed = true
	if got := getChat(t, s, g.ID).Lines; !reflect.DeepEqual(got, want) {
		t.Errorf("chat after StrikeChat(1) = %+v, want %+v", got, want)
	}
	if c := nextChange(t, changes); c.Game != g.ID || c.Kind != store.ChangeChat {
		t.Errorf("StrikeChat announced %+v, want a chat change of %s", c, g.ID)
	}
	for name, err := range map[string]error{
		"no such line": s.StrikeChat(ctx(t), g.ID, l.Fence, 9),
		"no fence":     s.StrikeChat(ctx(t), g.ID, store.NoFence, 0),
		"no such game": s.StrikeChat(ctx(t), "nope", l.Fence, 0),
	} {
		if err == nil {
			t.Errorf("StrikeChat (%s) = nil, want an error", name)
		}
	}
	if got := getChat(t, s, g.ID).Lines; !reflect.DeepEqual(got, want) {
		t.Errorf("chat after refused strikes = %+v, want %+v", got, want)
	}
}

// fillModeration writes a row of every moderation table for Fill.
func fillModeration(t *testing.T, s store.Store, ann, bea *store.Account, game string) {
	t.Helper()
	c := ctx(t)
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("Fill: %s: %v", what, err)
		}
	}
	_, err := s.SetOperator(c, ann.ID, true, base)
	must("SetOperator", err)
	must("AddReport", s.AddReport(c, newReport("fillreport", bea, ann, game, base), generous))
	mute := newAction("fillmute", store.ActMute, ann, bea, base.Add(time.Minute))
	mute.Until, mute.Game, mute.Report = base.Add(time.Hour), game, "fillreport"
	must("AddAction", s.AddAction(c, mute))
	must("StrikeChat", s.StrikeChat(c, game, store.NoFence, 0))
}
