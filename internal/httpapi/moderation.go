package httpapi

import (
	"errors"
	"net/http"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/moderation"
	"github.com/razziagame/razzia/internal/protocol"
)

// routeModeration serves the reports, the operators' actions and each
// person's record of them, when the server has accounts and moderation
// (Options.Moderation).
func (s *Server) routeModeration(mux *http.ServeMux) {
	if s.opts.Moderation == nil || s.opts.Accounts == nil {
		return
	}
	mux.HandleFunc("POST /api/reports", s.report)
	mux.HandleFunc("GET /api/moderation/reports", s.modReports)
	mux.HandleFunc("POST /api/moderation/actions", s.modAction)
	mux.HandleFunc("GET /api/moderation/me", s.modRecord)
}

// moderationError is the API's error of the moderation's.
func moderationError(err error) (*apiError, bool) {
	var me *moderation.Error
	if !errors.As(err, &me) {
		return nil, false
	}
	e := newError(me.Kind.Code(), "%s", me.Msg)
	if me.RetryAfter > 0 {
		e.obj.RetryAfter = retrySeconds(me.RetryAfter)
	}
	return e, true
}

// barred refuses a new table or a seat to a signed-in person an operator
// suspended or banned, and to a guest under a banned account's name.
func (s *Server) barred(r *http.Request, name string) error {
	m := s.opts.Moderation
	if m == nil {
		return nil
	}
	if se, err := s.sessionOf(r); err == nil {
		return m.Barred(se.Account.ID)
	}
	return m.NameBarred(name)
}

// sanctionsVersion is the moderation's Version, 0 without it.
func (s *Server) sanctionsVersion() int64 {
	if s.opts.Moderation == nil {
		return 0
	}
	return s.opts.Moderation.Version()
}

// member returns the request's signed-in account, or why there is none.
func (s *Server) member(w http.ResponseWriter, r *http.Request) (account.Session, bool) {
	se, err := s.sessionOf(r)
	if err != nil {
		s.fail(w, r, err)
		return account.Session{}, false
	}
	return se, true
}

// report files a signed-in person's report of another.
func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	se, ok := s.member(w, r)
	if !ok {
		return
	}
	var req protocol.ReportRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	id, err := s.opts.Moderation.Report(r.Context(), se.Account.ID, req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, protocol.ReportAnswer{ID: id})
}

// modReports lists the open reports for an operator.
func (s *Server) modReports(w http.ResponseWriter, r *http.Request) {
	se, ok := s.member(w, r)
	if !ok {
		return
	}
	ans, err := s.opts.Moderation.Reports(r.Context(), se.Account.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ans)
}

// modAction makes an operator's action.
func (s *Server) modAction(w http.ResponseWriter, r *http.Request) {
	se, ok := s.member(w, r)
	if !ok {
		return
	}
	var req protocol.ActionRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.opts.Moderation.Act(r.Context(), se.Account.ID, req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ans)
}

// modRecord tells a signed-in person their standing and the actions on
// them.
func (s *Server) modRecord(w http.ResponseWriter, r *http.Request) {
	se, ok := s.member(w, r)
	if !ok {
		return
	}
	ans, err := s.opts.Moderation.Record(r.Context(), se.Account.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ans)
}
