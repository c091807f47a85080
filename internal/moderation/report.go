package moderation

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Bounds of reports.
const (
	// MaxLines is the most chat lines a report names.
	MaxLines = 20
	// shownLines is how many of a person's lines at a game an operator
	// reads with a report that names none.
	shownLines = 50
	// maxOpen is how many open reports the operators' list holds.
	maxOpen = 100
	// reportWindow is the time Options.Reports counts reports over.
	reportWindow = time.Hour
)

// Report files the report req by the signed-in account reporter: the
// person must have an account, be another, and have held a seat at the
// game or written in its chat (the lines named must be theirs); the
// reporter must not be suspended or banned, and may file Options.Reports
// an hour, one open report of a person at a game. It returns the new
// report's id.
func (s *Service) Report(ctx context.Context, reporter string, req protocol.ReportRequest) (string, error) {
	if err := s.Barred(reporter); err != nil {
		return "", err
	}
	if !slices.Contains(store.ReportKinds, req.Kind) {
		return "", reject(ErrBadRequest, "a report is of kind chat, stalling or cheating, not %q", req.Kind)
	}
	reason, err := checkReason(req.Reason)
	if err != nil {
		return "", err
	}
	from, err := s.st.Account(ctx, reporter)
	if err != nil {
		return "", s.internal("read the reporter's account", err)
	}
	about, err := s.person(ctx, req.Player)
	if err != nil {
		return "", err
	}
	if about.ID == from.ID {
		return "", reject(ErrReportSelf, "you cannot report yourself")
	}
	lines, err := s.atGame(ctx, about, req.Game, req.Lines)
	if err != nil {
		return "", err
	}
	now := s.opts.Now().UTC().Round(0)
	r := store.Report{ID: newID(), Reporter: from.ID, ReporterName: from.Name, Target: about.ID, TargetName: about.Name,
		TargetKey: about.Key, Game: req.Game, Kind: req.Kind, Reason: reason, Lines: lines, At: now}
	err = s.st.AddReport(ctx, r, store.ReportLimit{Since: now.Add(-reportWindow), Max: s.opts.Reports})
	switch {
	case errors.Is(err, store.ErrTooManyReports):
		e := reject(ErrTooManyReports, "you filed %d reports in the last hour, the most one may: an operator reads them; wait before the next", s.opts.Reports)
		e.RetryAfter = reportWindow
		return "", e
	case errors.Is(err, store.ErrReported):
		return "", reject(ErrAlreadyReported, "you reported %s at this game already: an operator will read it", about.Name)
	case errors.Is(err, store.ErrNoAccount):
		return "", reject(ErrUnknownPlayer, "%s's account is gone", about.Name)
	case err != nil:
		return "", s.internal("store a report", err)
	}
	s.log.Info("report filed", "report", r.ID, "kind", r.Kind, "game", r.Game)
	return r.ID, nil
}

// atGame checks that the person held a seat at the game or wrote in its
// chat, and that the lines named are theirs; it returns them sorted.
func (s *Service) atGame(ctx context.Context, about *store.Account, game string, lines []int) ([]int, error) {
	if !protocol.ValidID(game) {
		return nil, reject(ErrBadRequest, "name the game the report is about")
	}
	if len(lines) > MaxLines {
		return nil, reject(ErrBadRequest, "a report names at most %d chat lines, not %d", MaxLines, len(lines))
	}
	g, err := s.st.Game(ctx, game)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, reject(store.ErrNotFound, "there is no game %q", game)
	case err != nil:
		return nil, s.internal("read a game", err)
	}
	c, err := s.st.Chat(ctx, game)
	if err != nil {
		return nil, s.internal("read a game's chat", err)
	}
	keys := keysAt(g, about.ID)
	seated := slices.ContainsFunc(g.Seats, func(st store.Seat) bool { return st.Account == about.ID })
	wrote := slices.ContainsFunc(c.Lines, func(l store.ChatLine) bool { return slices.Contains(keys, l.From) })
	if !seated && !wrote {
		return nil, reject(ErrNotAtGame, "%s held no seat at game %s and wrote nothing in its chat", about.Name, game)
	}
	out := slices.Clone(lines)
	slices.Sort(out)
	out = slices.Compact(out)
	for _, seq := range out {
		if seq < 0 || seq >= len(c.Lines) || !slices.Contains(keys, c.Lines[seq].From) {
			return nil, reject(ErrNotAtGame, "chat line %d of game %s is not %s's", seq, game, about.Name)
		}
	}
	return out, nil
}

// keysAt returns the chat's keys of the account at game g: its seat's,
// if it holds one, and a spectator's.
func keysAt(g *store.Game, account string) []string {
	keys := []string{match.AccountKey(account)}
	for i, st := range g.Seats {
		if st.Account == account {
			keys = append(keys, match.SeatKey(i))
		}
	}
	return keys
}

// Reports returns, for an operator, the open reports, oldest first, each
// with its game and the chat lines concerned, and the last actions of
// every operator.
func (s *Service) Reports(ctx context.Context, operator string) (protocol.ReportsAnswer, error) {
	if _, err := s.operator(ctx, operator); err != nil {
		return protocol.ReportsAnswer{}, err
	}
	reports, err := s.st.Reports(ctx, true, maxOpen)
	if err != nil {
		return protocol.ReportsAnswer{}, s.internal("read the reports", err)
	}
	out := protocol.ReportsAnswer{Reports: []protocol.ReportInfo{}, Actions: []protocol.ActionInfo{}}
	for _, r := range reports {
		info, err := s.reportInfo(ctx, r)
		if err != nil {
			return protocol.ReportsAnswer{}, err
		}
		out.Reports = append(out.Reports, info)
	}
	actions, err := s.st.Actions(ctx, "", 50)
	if err != nil {
		return protocol.ReportsAnswer{}, s.internal("read the actions", err)
	}
	for _, a := range actions {
		out.Actions = append(out.Actions, ActionInfo(a))
	}
	return out, nil
}

// reportInfo is a report as an operator reads it.
func (s *Service) reportInfo(ctx context.Context, r store.Report) (protocol.ReportInfo, error) {
	info := protocol.ReportInfo{ID: r.ID, Reporter: r.ReporterName, Player: r.TargetName, Kind: r.Kind, Reason: r.Reason,
		At: r.At, Lines: []protocol.ModLine{}, Standing: s.standingOf(r.TargetKey, s.opts.Now()),
		Game: protocol.GameLink{ID: r.Game, Seats: []protocol.SeatInfo{}}}
	g, err := s.st.Game(ctx, r.Game)
	if errors.Is(err, store.ErrNotFound) {
		return info, nil // the game is gone: the report stays
	}
	if err != nil {
		return info, s.internal("read a reported game", err)
	}
	info.Game = gameLink(g)
	c, err := s.st.Chat(ctx, r.Game)
	if err != nil {
		return info, s.internal("read a reported game's chat", err)
	}
	keys := keysAt(g, r.Target)
	for _, l := range c.Lines {
		named := slices.Contains(r.Lines, l.Seq)
		if named || len(r.Lines) == 0 && r.Target != "" && slices.Contains(keys, l.From) {
			info.Lines = append(info.Lines, protocol.ModLine{Seq: l.Seq, Name: l.Name, Channel: l.Channel,
				Phrase: l.Phrase, Text: l.Text, At: l.At, Removed: l.Removed})
		}
	}
	if n := len(info.Lines); n > shownLines {
		info.Lines = info.Lines[n-shownLines:]
	}
	return info, nil
}

// gameLink names game g and where to see it.
func gameLink(g *store.Game) protocol.GameLink {
	l := protocol.GameLink{ID: g.ID, Status: g.Status, Seats: make([]protocol.SeatInfo, len(g.Seats)), URL: "/g/" + g.ID}
	if !g.Status.Live() {
		l.URL += "/replay"
	}
	for i, st := range g.Seats {
		l.Seats[i] = st.Info()
	}
	return l
}
