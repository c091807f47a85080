package moderation

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Act makes the operator's action req and logs it with who and why:
// a mute, a suspension or a ban of a person (not an operator), a lift of
// their sanctions, a chat line removed, a report dismissed. A
// suspension or a ban takes the person's seats: a bot plays them in the
// games being played, an open table's is freed; and their open requests
// end (Options.Sanctioned). The person is told at once on their open
// pages. A refused action changes nothing.
func (s *Service) Act(ctx context.Context, operator string, req protocol.ActionRequest) (protocol.ActionAnswer, error) {
	op, err := s.operator(ctx, operator)
	if err != nil {
		return protocol.ActionAnswer{}, err
	}
	reason, err := checkReason(req.Reason)
	if err != nil {
		return protocol.ActionAnswer{}, err
	}
	now := s.opts.Now().UTC().Round(0)
	a := store.Action{ID: newID(), Kind: req.Kind, Operator: op.ID, OperatorName: op.Name, Reason: reason,
		Game: req.Game, Line: -1, At: now, Report: req.Report}
	if req.Report != "" {
		// Before anything is done: a line removed stays removed.
		r, err := s.openReport(ctx, req.Report)
		if err != nil {
			return protocol.ActionAnswer{}, err
		}
		if a.Game == "" {
			a.Game = r.Game // the person reads which game it was about
		}
	}
	switch req.Kind {
	case store.ActStrike:
		err = s.strike(ctx, &a, req)
	case store.ActDismiss:
		err = s.dismissal(ctx, &a)
	case store.ActMute, store.ActSuspend, store.ActBan, store.ActLift:
		err = s.sanction(ctx, &a, req, now)
	default:
		err = reject(ErrBadRequest, "an action is mute, suspend, ban, lift, strike or dismiss, not %q", req.Kind)
	}
	if err != nil {
		return protocol.ActionAnswer{}, err
	}
	if err := s.logAction(ctx, a); err != nil {
		return protocol.ActionAnswer{}, err
	}
	ans := protocol.ActionAnswer{Action: ActionInfo(a)}
	if a.Sanction() || a.Kind == store.ActLift {
		s.changed(ctx)
	}
	if a.Kind == store.ActSuspend || a.Kind == store.ActBan {
		ans.Removed = s.unseat(ctx, a.Target)
		if s.opts.Sanctioned != nil {
			s.opts.Sanctioned(ctx, a.Target)
		}
	}
	ans.Standing = s.standingOf(a.TargetKey, s.opts.Now())
	if a.Kind != store.ActDismiss {
		s.tell(ctx, a, ans.Standing)
	}
	return ans, nil
}

// logAction logs the action, closing its report.
func (s *Service) logAction(ctx context.Context, a store.Action) error {
	err := s.st.AddAction(ctx, a)
	switch {
	case errors.Is(err, store.ErrReportClosed):
		return reject(ErrReportClosed, "another operator closed this report meanwhile: look again")
	case errors.Is(err, store.ErrNoReport):
		return reject(ErrReportClosed, "there is no report %q", a.Report)
	case err != nil:
		return s.internal("log an action", err)
	}
	s.log.Info("operator's action", "action", a.ID, "kind", a.Kind, "operator", a.Operator, "person", a.TargetKey, "game", a.Game)
	return nil
}

// sanction fills in a mute, suspension, ban or lift of req's person.
func (s *Service) sanction(ctx context.Context, a *store.Action, req protocol.ActionRequest, now time.Time) error {
	who, err := s.person(ctx, req.Player)
	if err != nil {
		return err
	}
	a.Target, a.TargetName, a.TargetKey = who.ID, who.Name, who.Key
	if a.Kind == store.ActLift {
		if st := s.standingOf(who.Key, now); !st.Muted && !st.Suspended && !st.Banned {
			return reject(ErrBadRequest, "%s has no sanction to lift", who.Name)
		}
		return nil
	}
	op, err := s.IsOperator(ctx, who.ID)
	switch {
	case err != nil:
		return err
	case op:
		return reject(ErrOperatorTarget, "%s is an operator: revoke the role first (razzia admin revoke)", who.Name)
	}
	switch {
	case req.Hours < 0 || req.Hours > MaxHours:
		return reject(ErrBadRequest, "a sanction lasts 1 to %d hours, not %d", MaxHours, req.Hours)
	case a.Kind == store.ActSuspend && req.Hours == 0:
		return reject(ErrBadRequest, "say how many hours the suspension lasts (1 to %d); a ban is for good", MaxHours)
	case a.Kind == store.ActBan && req.Hours != 0:
		return reject(ErrBadRequest, "a ban is for good: suspend for a time instead")
	case req.Hours > 0:
		a.Until = now.Add(time.Duration(req.Hours) * time.Hour)
	}
	return nil
}

// strike fills in, and makes, the removal of a chat line: its author is
// the person acted on.
func (s *Service) strike(ctx context.Context, a *store.Action, req protocol.ActionRequest) error {
	if req.Line == nil || !protocol.ValidID(req.Game) {
		return reject(ErrBadRequest, "name the game and the chat line to remove")
	}
	g, err := s.st.Game(ctx, req.Game)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return reject(store.ErrNotFound, "there is no game %q", req.Game)
	case err != nil:
		return s.internal("read a game", err)
	}
	c, err := s.st.Chat(ctx, req.Game)
	if err != nil {
		return s.internal("read a game's chat", err)
	}
	seq := *req.Line
	if seq < 0 || seq >= len(c.Lines) {
		return reject(ErrBadRequest, "game %s has no chat line %d", req.Game, seq)
	}
	line := c.Lines[seq]
	a.Line, a.TargetName, a.TargetKey = seq, line.Name, playername.Key(line.Name)
	if id, ok := strings.CutPrefix(line.From, "account:"); ok {
		a.Target = id
	} else if line.Seat >= 0 && line.Seat < len(g.Seats) {
		a.Target = g.Seats[line.Seat].Account
	}
	if a.Target != "" {
		if who, err := s.st.Account(ctx, a.Target); err == nil {
			a.TargetName, a.TargetKey = who.Name, who.Key
		}
	}
	return s.tables.Strike(ctx, req.Game, seq)
}

// dismissal fills in the dismissal of a report: its person is the
// person reported.
func (s *Service) dismissal(ctx context.Context, a *store.Action) error {
	if a.Report == "" {
		return reject(ErrBadRequest, "name the report to dismiss")
	}
	r, err := s.openReport(ctx, a.Report)
	if err != nil {
		return err
	}
	a.Target, a.TargetName, a.TargetKey, a.Game = r.Target, r.TargetName, r.TargetKey, r.Game
	return nil
}

// openReport returns the report with the id if it is open.
func (s *Service) openReport(ctx context.Context, id string) (store.Report, error) {
	r, err := s.st.Report(ctx, id)
	switch {
	case errors.Is(err, store.ErrNoReport):
		return r, reject(ErrReportClosed, "there is no report %q", id)
	case err != nil:
		return r, s.internal("read a report", err)
	case !r.Closed.IsZero():
		return r, reject(ErrReportClosed, "another operator closed this report meanwhile: look again")
	}
	return r, nil
}

// unseat takes the account's seats in the games not over: a bot plays
// them, an open table's is freed. It returns the games changed.
func (s *Service) unseat(ctx context.Context, account string) []string {
	games, err := s.st.AccountGames(ctx, account, 0, store.StatusOpen, store.StatusPlaying)
	if err != nil {
		s.log.Error("cannot read a sanctioned account's games", "account", account, "err", err)
		return nil
	}
	var out []string
	for _, g := range games {
		err := s.tables.Expel(ctx, g.ID, account)
		switch {
		case err == nil:
			out = append(out, g.ID)
		case errors.Is(err, protocol.GameOver), errors.Is(err, protocol.NotFound):
			// Over meanwhile: nothing to take.
		default:
			s.log.Error("cannot take a sanctioned person's seat", "game", g.ID, "account", account, "err", err)
		}
	}
	return out
}

// tell sends the person of the action the news, on every page of theirs
// open now.
func (s *Service) tell(ctx context.Context, a store.Action, st protocol.Standing) {
	if s.opts.Tell == nil || a.Target == "" {
		return
	}
	b, err := json.Marshal(protocol.ModerationMessage{Type: protocol.TypeModeration, Action: ActionInfo(a), Standing: st})
	if err == nil {
		err = s.opts.Tell(ctx, a.Target, b)
	}
	if err != nil {
		s.log.Warn("cannot tell a person of an action on them", "account", a.Target, "err", err)
	}
}

// Record returns what the account may read of its moderation: whether it
// is an operator, its standing, and the actions on it but dismissed
// reports, newest first.
func (s *Service) Record(ctx context.Context, account string) (protocol.ModerationAnswer, error) {
	a, err := s.st.Account(ctx, account)
	if err != nil {
		return protocol.ModerationAnswer{}, s.internal("read an account", err)
	}
	op, err := s.IsOperator(ctx, account)
	if err != nil {
		return protocol.ModerationAnswer{}, err
	}
	actions, err := s.st.Actions(ctx, a.Key, 100)
	if err != nil {
		return protocol.ModerationAnswer{}, s.internal("read the actions", err)
	}
	out := protocol.ModerationAnswer{Operator: op, Standing: s.standingOf(a.Key, s.opts.Now()), Actions: []protocol.ActionInfo{}}
	for _, x := range actions {
		if x.Kind != store.ActDismiss {
			out.Actions = append(out.Actions, ActionInfo(x))
		}
	}
	return out, nil
}

// ActionInfo is an action as the protocol shows it.
func ActionInfo(a store.Action) protocol.ActionInfo {
	info := protocol.ActionInfo{ID: a.ID, Kind: a.Kind, Player: a.TargetName, Operator: a.OperatorName, Reason: a.Reason,
		Game: a.Game, At: a.At, Report: a.Report}
	if a.Kind == store.ActStrike {
		line := a.Line
		info.Line = &line
	}
	if !a.Until.IsZero() {
		until := a.Until
		info.Until = &until
	}
	return info
}
