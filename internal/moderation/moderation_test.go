package moderation_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/moderation"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// tables records what the Service asks of the tables.
type tables struct {
	mu       sync.Mutex
	expelled []string // game/account
	struck   []int
}

func (f *tables) Expel(_ context.Context, game, account string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.expelled = append(f.expelled, game+"/"+account)
	return nil
}

func (f *tables) Strike(_ context.Context, _ string, seq int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.struck = append(f.struck, seq)
	return nil
}

// clock is a test's clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

type env struct {
	st    *memstore.Store
	svc   *moderation.Service
	clock *clock
	tab   *tables
	told  chan string // the accounts told, in order
	ids   map[string]string
}

func newEnv(t *testing.T, names ...string) *env {
	t.Helper()
	e := &env{st: memstore.New(), clock: &clock{now: time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)}, tab: &tables{},
		told: make(chan string, 16), ids: map[string]string{}}
	for i, n := range names {
		a := &store.Account{ID: "acct-" + n, Name: n, Key: playername.Key(n), Handle: []byte{byte(i + 1)}, SeatKey: []byte{byte(i + 1)},
			Rating: store.Rating{Mu: 25, Sigma: 8}}
		if err := e.st.CreateAccount(t.Context(), a); err != nil {
			t.Fatal(err)
		}
		e.ids[n] = a.ID
	}
	e.svc = moderation.New(e.st, e.tab, moderation.Options{Now: e.clock.Now, Reports: 3, Log: quiet,
		Tell: func(_ context.Context, account string, _ []byte) error { e.told <- account; return nil }})
	stop, err := e.svc.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return e
}

// seat creates a playing game where the people named hold seats.
func (e *env) seat(t *testing.T, id string, names ...string) {
	t.Helper()
	g := &store.Game{ID: id, Status: store.StatusPlaying}
	for _, n := range names {
		g.Seats = append(g.Seats, store.Seat{Name: n, TokenHash: []byte(n), Account: e.ids[n]})
	}
	if err := e.st.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
}

func code(err error) protocol.Code {
	var me *moderation.Error
	if errors.As(err, &me) {
		return me.Kind.Code()
	}
	return ""
}

// TestSanctionsHold: a mute silences at once and ends by the clock; a
// suspension bars and silences, takes the seats, and ends; a ban holds
// the name for a guest even once the account is gone; a lift ends them.
func TestSanctionsHold(t *testing.T) {
	e := newEnv(t, "Op", "Cy")
	ctx := t.Context()
	if _, err := e.st.SetOperator(ctx, e.ids["Op"], true, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	e.seat(t, "gameaaaaaa", "Op", "Cy")
	cy := e.ids["Cy"]
	act := func(req protocol.ActionRequest) protocol.ActionAnswer {
		t.Helper()
		ans, err := e.svc.Act(ctx, e.ids["Op"], req)
		if err != nil {
			t.Fatalf("%s: %v", req.Kind, err)
		}
		if got := <-e.told; got != cy {
			t.Errorf("told %s, want Cy", got)
		}
		return ans
	}
	act(protocol.ActionRequest{Kind: protocol.ActionMute, Player: "cy", Reason: "rude", Hours: 1})
	if code(e.svc.Silenced(cy)) != protocol.ChatMuted || e.svc.Barred(cy) != nil {
		t.Errorf("muted: silenced %v, barred %v", e.svc.Silenced(cy), e.svc.Barred(cy))
	}
	e.clock.add(time.Hour)
	if err := e.svc.Silenced(cy); err != nil {
		t.Errorf("an hour's mute after an hour: %v", err)
	}
	ans := act(protocol.ActionRequest{Kind: protocol.ActionSuspend, Player: "Cy", Reason: "again", Hours: 24})
	if !ans.Standing.Suspended || len(ans.Removed) != 1 || e.tab.expelled[0] != "gameaaaaaa/"+cy {
		t.Errorf("suspended: %+v, expelled %v", ans, e.tab.expelled)
	}
	if code(e.svc.Barred(cy)) != protocol.Suspended || code(e.svc.Silenced(cy)) != protocol.ChatMuted {
		t.Errorf("suspended: barred %v, silenced %v", e.svc.Barred(cy), e.svc.Silenced(cy))
	}
	if code(e.svc.NameBarred("Cy")) != protocol.Suspended {
		t.Errorf("a suspended name as a guest: %v", e.svc.NameBarred("Cy"))
	}
	e.clock.add(25 * time.Hour)
	if e.svc.Barred(cy) != nil || e.svc.NameBarred("Cy") != nil {
		t.Error("a day's suspension holds after 25 hours")
	}
	act(protocol.ActionRequest{Kind: protocol.ActionBan, Player: "Cy", Reason: "for good"})
	if code(e.svc.Barred(cy)) != protocol.Banned {
		t.Errorf("banned: account %v", e.svc.Barred(cy))
	}
	// The account gone (its ban's notice read again before or after), the
	// name stays barred.
	if _, err := e.st.DeleteAccount(ctx, cy, func(int) string { return "gone" }); err != nil {
		t.Fatal(err)
	}
	if code(e.svc.NameBarred("CY")) != protocol.Banned {
		t.Errorf("banned, the account gone: name %v", e.svc.NameBarred("CY"))
	}
}

// TestSanctionsAcrossServices: a second Service on the same store (another
// node) hears of a sanction and of its lift.
func TestSanctionsAcrossServices(t *testing.T) {
	e := newEnv(t, "Op", "Cy")
	other := moderation.New(e.st, e.tab, moderation.Options{Now: e.clock.Now, Log: quiet})
	stop, err := other.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := e.st.SetOperator(t.Context(), e.ids["Op"], true, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	cy := e.ids["Cy"]
	for _, step := range []struct {
		kind  string
		muted bool
	}{{protocol.ActionMute, true}, {protocol.ActionLift, false}} {
		if _, err := e.svc.Act(t.Context(), e.ids["Op"], protocol.ActionRequest{Kind: step.kind, Player: "Cy", Reason: "x"}); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for (other.Silenced(cy) != nil) != step.muted {
			if time.Now().After(deadline) {
				t.Fatalf("after %s, the other node says silenced: %v", step.kind, other.Silenced(cy))
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// TestFirstAccount: the Service's hook makes the first account an
// operator, and no later one.
func TestFirstAccount(t *testing.T) {
	e := newEnv(t, "Ann")
	e.svc.Created(t.Context(), e.ids["Ann"])
	if ok, err := e.svc.IsOperator(t.Context(), e.ids["Ann"]); !ok || err != nil {
		t.Errorf("the first account: operator %v, %v", ok, err)
	}
	b := &store.Account{ID: "acct-Bo", Name: "Bo", Key: playername.Key("Bo"), Handle: []byte{9}, SeatKey: []byte{9}, Rating: store.Rating{Mu: 25, Sigma: 8}}
	if err := e.st.CreateAccount(t.Context(), b); err != nil {
		t.Fatal(err)
	}
	e.svc.Created(t.Context(), b.ID)
	if ok, _ := e.svc.IsOperator(t.Context(), b.ID); ok {
		t.Error("the second account is an operator")
	}
}

// TestReportLimit: a person files Options.Reports reports an hour; the
// next is refused with the wait, and changes nothing.
func TestReportLimit(t *testing.T) {
	e := newEnv(t, "Bob", "Cy")
	for i, id := range []string{"gameaaaaaa", "gamebbbbbb", "gamecccccc", "gamedddddd"} {
		e.seat(t, id, "Bob", "Cy")
		_, err := e.svc.Report(t.Context(), e.ids["Bob"], protocol.ReportRequest{Player: "Cy", Game: id, Kind: protocol.ReportStalling, Reason: "slow"})
		switch {
		case i < 3 && err != nil:
			t.Fatalf("report %d: %v", i, err)
		case i == 3 && code(err) != protocol.TooManyReports:
			t.Fatalf("report %d: %v, want too_many_reports", i, err)
		}
	}
	all, _ := e.st.Reports(t.Context(), false, 0)
	if len(all) != 3 {
		t.Errorf("%d reports stored, want 3", len(all))
	}
	e.clock.add(time.Hour + time.Second)
	if _, err := e.svc.Report(t.Context(), e.ids["Bob"], protocol.ReportRequest{Player: "Cy", Game: "gamedddddd", Kind: protocol.ReportStalling, Reason: "slow"}); err != nil {
		t.Errorf("a report an hour later: %v", err)
	}
}

// TestRefusedActions: an action that cannot be made is refused with its
// code, and changes nothing: no sanction, no action logged, nobody told.
func TestRefusedActions(t *testing.T) {
	e := newEnv(t, "Op", "Bob", "Cy")
	ctx := t.Context()
	if _, err := e.st.SetOperator(ctx, e.ids["Op"], true, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	e.seat(t, "gameaaaaaa", "Bob", "Cy")
	report, err := e.svc.Report(ctx, e.ids["Bob"], protocol.ReportRequest{Player: "Cy", Game: "gameaaaaaa", Kind: protocol.ReportStalling, Reason: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for _, c := range []struct {
		name string
		req  protocol.ActionRequest
		want protocol.Code
	}{
		{"a lift of nothing", protocol.ActionRequest{Kind: protocol.ActionLift, Player: "Cy"}, protocol.BadRequest},
		{"a suspension without hours", protocol.ActionRequest{Kind: protocol.ActionSuspend, Player: "Cy"}, protocol.BadRequest},
		{"a suspension over a year", protocol.ActionRequest{Kind: protocol.ActionSuspend, Player: "Cy", Hours: moderation.MaxHours + 1}, protocol.BadRequest},
		{"a mute of negative hours", protocol.ActionRequest{Kind: protocol.ActionMute, Player: "Cy", Hours: -1}, protocol.BadRequest},
		{"a ban for a time", protocol.ActionRequest{Kind: protocol.ActionBan, Player: "Cy", Hours: 2}, protocol.BadRequest},
		{"a dismissal of no report", protocol.ActionRequest{Kind: protocol.ActionDismiss}, protocol.BadRequest},
		{"a dismissal of an unknown report", protocol.ActionRequest{Kind: protocol.ActionDismiss, Report: "nosuchreport"}, protocol.ReportClosed},
		{"a ban closing an unknown report", protocol.ActionRequest{Kind: protocol.ActionBan, Player: "Cy", Report: "nosuchreport"}, protocol.ReportClosed},
		{"a removal of no line", protocol.ActionRequest{Kind: protocol.ActionStrike, Game: "gameaaaaaa"}, protocol.BadRequest},
		{"a removal of a line not written", protocol.ActionRequest{Kind: protocol.ActionStrike, Game: "gameaaaaaa", Line: &line}, protocol.BadRequest},
		{"a removal at no game", protocol.ActionRequest{Kind: protocol.ActionStrike, Game: "gamezzzzzz", Line: &line}, protocol.NotFound},
	} {
		c.req.Reason = "because"
		if _, err := e.svc.Act(ctx, e.ids["Op"], c.req); code(err) != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	if all, _ := e.st.Actions(ctx, "", 0); len(all) != 0 || e.svc.Barred(e.ids["Cy"]) != nil || e.svc.Silenced(e.ids["Cy"]) != nil ||
		len(e.tab.expelled)+len(e.tab.struck) != 0 || len(e.told) != 0 {
		t.Fatalf("refused actions changed something: %d actions logged, %d seats taken, %d lines removed, %d told",
			len(all), len(e.tab.expelled), len(e.tab.struck), len(e.told))
	}

	// A dismissal closes the report; its person is not told, nor reads it;
	// a second operator's action on it is refused.
	ans, err := e.svc.Act(ctx, e.ids["Op"], protocol.ActionRequest{Kind: protocol.ActionDismiss, Report: report, Reason: "it is a slow pace"})
	if err != nil || ans.Action.Player != "Cy" || ans.Action.Game != "gameaaaaaa" {
		t.Fatalf("the dismissal: %+v, %v", ans, err)
	}
	if open, _ := e.svc.Reports(ctx, e.ids["Op"]); len(open.Reports) != 0 || len(open.Actions) != 1 {
		t.Errorf("after the dismissal: %d open reports, %d actions", len(open.Reports), len(open.Actions))
	}
	if rec, _ := e.svc.Record(ctx, e.ids["Cy"]); len(rec.Actions) != 0 || len(e.told) != 0 {
		t.Errorf("Cy reads %+v of a dismissed report, told %d times", rec.Actions, len(e.told))
	}
	if _, err := e.svc.Act(ctx, e.ids["Op"], protocol.ActionRequest{Kind: protocol.ActionBan, Player: "Cy", Report: report, Reason: "late"}); code(err) != protocol.ReportClosed {
		t.Errorf("a ban closing a dismissed report: %v, want report_closed", err)
	}
	if e.svc.Barred(e.ids["Cy"]) != nil {
		t.Error("a refused ban holds")
	}
	g := &store.Game{ID: "gamebbbbbb", Status: store.StatusFinished, Seats: []store.Seat{{Name: "Cy", TokenHash: []byte("Cy"), Account: e.ids["Cy"]}}}
	if err := e.st.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := e.st.AddChat(ctx, g.ID, store.NoFence, store.ChatLine{Channel: "players", From: "seat:0", Name: "Cy", Text: "rude", At: e.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Act(ctx, e.ids["Op"], protocol.ActionRequest{Kind: protocol.ActionStrike, Game: g.ID, Line: &line, Report: report, Reason: "late"}); code(err) != protocol.ReportClosed || len(e.tab.struck) != 0 {
		t.Errorf("a removal closing a dismissed report: %v, lines removed %v; want report_closed and none", err, e.tab.struck)
	}
	if _, err := e.svc.Act(ctx, e.ids["Bob"], protocol.ActionRequest{Kind: protocol.ActionMute, Player: "Cy", Reason: "x"}); code(err) != protocol.NotOperator {
		t.Errorf("an action without the role: %v, want not_operator", err)
	}
}
