package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/razziagame/razzia/internal/protocol"
)

// Moderation is the storage of the server's moderation: which accounts
// are operators, the reports people file about others, and the log of
// every operator's action (a mute, a suspension, a ban, a lifted
// sanction, a chat line removed, a report dismissed), which is also
// where an account's standing is read from. Reports and actions name
// people by account and by name key, and keep the names as they were:
// a ban outlives the account it banned, so that its name cannot come
// back. Every Store implements it; storetest specifies it.
type Moderation interface {
	// SetOperator makes the account an operator (on) or not (!on), and
	// reports whether that changed anything; ErrNoAccount when there is
	// no such account.
	SetOperator(ctx context.Context, account string, on bool, at time.Time) (bool, error)
	// Operator reports whether the account is an operator.
	Operator(ctx context.Context, account string) (bool, error)
	// Operators returns the operators' accounts, by the time they got
	// the role, oldest first.
	Operators(ctx context.Context) ([]string, error)
	// FirstOperator makes the account an operator if it is the only
	// account and no account ever was one: the first account made on a
	// new server. It reports whether it did.
	FirstOperator(ctx context.Context, account string, at time.Time) (bool, error)

	// AddReport stores a new report, unless its reporter filed limit.Max
	// reports since limit.Since (ErrTooManyReports) or has an open
	// report of the same person at the same game (ErrReported); either
	// way nothing is stored. ErrNoAccount when the reporter or the
	// person reported has no account.
	AddReport(ctx context.Context, r Report, limit ReportLimit) error
	// Report returns the report with the id; ErrNoReport when there is
	// none.
	Report(ctx context.Context, id string) (Report, error)
	// Reports returns the open reports (open) or every report, oldest
	// first, at most limit (all when limit <= 0).
	Reports(ctx context.Context, open bool, limit int) ([]Report, error)

	// AddAction logs an operator's action. When it names a report, that
	// report is closed by it in the same transaction: a report closed
	// already is ErrReportClosed, an unknown one ErrNoReport, and
	// nothing is stored.
	AddAction(ctx context.Context, a Action) error
	// Actions returns the actions on the person whose name key is key
	// (every action when key is ""), newest first, at most limit (all
	// when limit <= 0).
	Actions(ctx context.Context, key string, limit int) ([]Action, error)
	// Sanctions returns the sanctions in force at now (InForce): of
	// every person, newest first.
	Sanctions(ctx context.Context, now time.Time) ([]Action, error)

	// StrikeChat marks line seq of game id's chat removed: its text
	// stays stored for the operators, and Chat returns it with Removed.
	// The write follows AddChat's rule on fences (CheckChatWrite) and is
	// announced as ChangeChat. A line that is not there is ErrNotFound;
	// one removed already changes nothing.
	StrikeChat(ctx context.Context, id string, fence Fence, seq int) error
}

// Errors of the moderation part of the store (wrapped, for errors.Is).
var (
	ErrNoReport       = errors.New("no such report")
	ErrReportClosed   = errors.New("the report is closed already")
	ErrReported       = errors.New("the person is reported at that game already")
	ErrTooManyReports = errors.New("too many reports")
)

// The kinds of report: what a person says another did.
const (
	ReportChat     = protocol.ReportChat
	ReportStalling = protocol.ReportStalling
	ReportCheating = protocol.ReportCheating
)

// ReportKinds lists the kinds of report, in the order offered.
var ReportKinds = []string{ReportChat, ReportStalling, ReportCheating}

// A Report is what a signed-in person said of another, at a game.
type Report struct {
	ID           string
	Reporter     string // the account that filed it
	ReporterName string
	Target       string // the account reported
	TargetName   string
	TargetKey    string // playername.Key(TargetName)
	Game         string // the game it is about
	Kind         string // one of ReportKinds
	Reason       string // in the reporter's words
	Lines        []int  // the chat lines concerned (their seq), ascending
	At           time.Time
	// Closed is when an operator acted on it (Action), zero while open.
	Closed time.Time
	Action string // the id of the action that closed it
}

// A ReportLimit bounds how many reports one person files: at most Max
// since Since.
type ReportLimit struct {
	Since time.Time
	Max   int
}

// The kinds of operator action. A sanction (mute, suspend, ban) holds
// until it is lifted or, if it has one, its Until; a lift ends every
// sanction of the person in force.
const (
	ActMute    = protocol.ActionMute    // no chat, until Until if it has one
	ActSuspend = protocol.ActionSuspend // no chat, no creating or joining a table, until Until
	ActBan     = protocol.ActionBan     // as suspend, for good; the name cannot come back as a guest
	ActLift    = protocol.ActionLift    // the sanctions in force end
	ActStrike  = protocol.ActionStrike  // a chat line removed (Game, Line)
	ActDismiss = protocol.ActionDismiss // a report closed without a sanction
)

// ActionKinds lists the kinds of action.
var ActionKinds = []string{ActMute, ActSuspend, ActBan, ActLift, ActStrike, ActDismiss}

// MaxReason bounds the bytes of a report's or an action's reason.
const MaxReason = 2000

// An Action is one operator's action, as logged.
type Action struct {
	ID           string
	Kind         string // one of ActionKinds
	Target       string // the account acted on; "" once it is deleted
	TargetName   string
	TargetKey    string
	Operator     string // the operator's account
	OperatorName string
	Reason       string // why, as the operator said it: shown to the person
	Game         string // the game concerned, "" for none
	Line         int    // the chat line removed (ActStrike), else -1
	Until        time.Time
	At           time.Time
	Report       string // the report it closes, "" for none
}

// Sanction reports whether the action is a sanction.
func (a Action) Sanction() bool {
	return a.Kind == ActMute || a.Kind == ActSuspend || a.Kind == ActBan
}

// InForce returns the sanctions of actions (of any people, in any
// order) that hold at now: those after their person's last lift, and
// before their Until. Every store answers Sanctions with it, newest
// first.
func InForce(actions []Action, now time.Time) []Action {
	lifted := map[string]time.Time{}
	for _, a := range actions {
		if a.Kind == ActLift && a.At.After(lifted[a.TargetKey]) {
			lifted[a.TargetKey] = a.At
		}
	}
	var out []Action
	for _, a := range actions {
		if a.Sanction() && a.At.After(lifted[a.TargetKey]) && (a.Until.IsZero() || now.Before(a.Until)) {
			out = append(out, a)
		}
	}
	SortActions(out)
	return out
}

// SortActions sorts actions newest first (then by id, for equal times).
func SortActions(actions []Action) {
	slices.SortFunc(actions, func(a, b Action) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
}

// CheckReport reports what makes r unfit to store.
func CheckReport(r Report) error {
	switch {
	case r.ID == "" || r.Reporter == "" || r.Target == "" || r.TargetKey == "" || r.Game == "":
		return fmt.Errorf("report %q: no id, reporter, person or game", r.ID)
	case r.Reporter == r.Target:
		return fmt.Errorf("report %q: a person reporting themselves", r.ID)
	case !slices.Contains(ReportKinds, r.Kind):
		return fmt.Errorf("report %q: unknown kind %q", r.ID, r.Kind)
	case r.Reason == "" || len(r.Reason) > MaxReason || !utf8.ValidString(r.Reason):
		return fmt.Errorf("report %q: a reason of %d bytes, want 1 to %d of UTF-8", r.ID, len(r.Reason), MaxReason)
	case !r.Closed.IsZero() || r.Action != "":
		return fmt.Errorf("report %q: a new report that is closed", r.ID)
	case !slices.IsSorted(r.Lines) || slices.ContainsFunc(r.Lines, func(n int) bool { return n < 0 }):
		return fmt.Errorf("report %q: chat lines %v, want seqs ascending", r.ID, r.Lines)
	}
	return nil
}

// CheckAction reports what makes a unfit to store.
func CheckAction(a Action) error {
	switch {
	case a.ID == "" || a.Operator == "" || a.TargetKey == "":
		return fmt.Errorf("action %q: no id, operator or person", a.ID)
	case !slices.Contains(ActionKinds, a.Kind):
		return fmt.Errorf("action %q: unknown kind %q", a.ID, a.Kind)
	case a.Reason == "" || len(a.Reason) > MaxReason || !utf8.ValidString(a.Reason):
		return fmt.Errorf("action %q: a reason of %d bytes, want 1 to %d of UTF-8", a.ID, len(a.Reason), MaxReason)
	case a.Kind == ActStrike && (a.Game == "" || a.Line < 0):
		return fmt.Errorf("action %q: a chat line removed names no game and line", a.ID)
	case a.Kind != ActStrike && a.Line != -1:
		return fmt.Errorf("action %q: a %s with a chat line", a.ID, a.Kind)
	case a.Kind == ActSuspend && !a.Until.After(a.At):
		return fmt.Errorf("action %q: a suspension ending at %v, before it begins", a.ID, a.Until)
	case a.Kind != ActSuspend && a.Kind != ActMute && !a.Until.IsZero():
		return fmt.Errorf("action %q: a %s with an end", a.ID, a.Kind)
	}
	return nil
}

// JoinLines and SplitLines store a report's chat lines as one text,
// "1,4,7".
func JoinLines(lines []int) string {
	parts := make([]string, len(lines))
	for i, n := range lines {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

// SplitLines is the inverse of JoinLines; a part that is not a number
// is left out.
func SplitLines(s string) []int {
	var out []int
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(p); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func init() {
	// The moderation's tables, copied after the accounts and games they
	// name.
	Kinds = append(Kinds, moderationKinds...)
}

var moderationKinds = []*Kind{
	{Table: "operators", One: "operator", Many: "operators", Key: 1, Columns: []Column{
		{"account_id", Text}, {"granted", Int},
	}},
	{Table: "operators_made", One: "mark that the first operator was made", Many: "marks that the first operator was made",
		Key: 1, Columns: []Column{{"one", Int}, {"at", Int}}},
	{Table: "mod_reports", One: "report", Many: "reports", Key: 1, Columns: []Column{
		{"id", Text}, {"reporter", Text}, {"reporter_name", Text}, {"target", Text}, {"target_name", Text},
		{"target_key", Text}, {"game_id", Text}, {"kind", Text}, {"reason", Text}, {"lines", Text}, {"at", Int},
		{"closed", Int}, {"action_id", Text},
	}, Nullable: nullable("reporter", "target", "closed", "action_id")},
	{Table: "mod_actions", One: "operator's action", Many: "operators' actions", Key: 1, Columns: []Column{
		{"id", Text}, {"kind", Text}, {"target", Text}, {"target_name", Text}, {"target_key", Text},
		{"operator", Text}, {"operator_name", Text}, {"reason", Text}, {"game_id", Text}, {"line", Int},
		{"until", Int}, {"at", Int}, {"report_id", Text},
	}, Nullable: nullable("target", "operator", "until", "report_id")},
}
