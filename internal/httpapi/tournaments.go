package httpapi

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/director"
	"github.com/razziagame/razzia/internal/protocol"
)

// routeTournaments serves the tournaments (docs/protocol.md,
// "Tournaments"), when the server runs them.
func (s *Server) routeTournaments(mux *http.ServeMux) {
	if s.opts.Tournaments == nil {
		return
	}
	mux.HandleFunc("GET /api/tournaments", s.tournamentList)
	mux.HandleFunc("POST /api/tournaments", s.tournamentCreate)
	mux.HandleFunc("GET /api/tournaments/{id}", s.tournamentGet)
	mux.HandleFunc("GET /api/tournaments/{id}/ws", s.tournamentWS)
	mux.HandleFunc("GET /api/tournaments/{id}/results.json", s.tournamentJSON)
	mux.HandleFunc("GET /api/tournaments/{id}/results.csv", s.tournamentCSV)
	mux.HandleFunc("POST /api/tournaments/{id}/join", s.tournamentJoin)
	mux.HandleFunc("POST /api/tournaments/{id}/{action}", s.tournamentPlay)
	mux.HandleFunc("POST /api/tournaments/{id}/organise/{action}", s.tournamentOrganise)
	mux.HandleFunc("GET /api/players/{name}/tournaments", s.playerTournaments)
	mux.HandleFunc("GET /api/games/{id}/tournament", s.gameTournament)
}

// tournamentFail answers a tournament's refusal with its code, and any
// other error as the API's others.
func (s *Server) tournamentFail(w http.ResponseWriter, r *http.Request, err error) {
	if code, ok := protocol.CodeOf(err); ok && code != protocol.Internal {
		s.fail(w, r, newError(code, "%s", err.Error()))
		return
	}
	s.fail(w, r, err)
}

// person returns who asks: the signed-in account, or a guest.
func (s *Server) person(r *http.Request) director.Person {
	if se, err := s.sessionOf(r); err == nil {
		return director.Person{Account: se.Account.ID, Name: se.Account.Name}
	}
	return director.Person{}
}

func (s *Server) tournamentList(w http.ResponseWriter, r *http.Request) {
	l, err := s.opts.Tournaments.List(r.Context(), 50)
	if err != nil {
		s.tournamentFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, l)
}

func (s *Server) tournamentCreate(w http.ResponseWriter, r *http.Request) {
	p := s.person(r)
	if p.Account == "" {
		s.tournamentFail(w, r, director.ErrSignIn)
		return
	}
	if err := s.barred(r, ""); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.creates.allow(s.peerOf(r).key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	var set protocol.TournamentSettings
	if err := decode(w, r, &set); err != nil {
		s.fail(w, r, err)
		return
	}
	v, err := s.opts.Tournaments.Create(r.Context(), p, set)
	if err != nil {
		s.tournamentFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

func (s *Server) tournamentGet(w http.ResponseWriter, r *http.Request) {
	v, err := s.opts.Tournaments.Get(r.Context(), r.PathValue("id"), s.person(r).Account)
	if err != nil {
		s.tournamentFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) tournamentJoin(w http.ResponseWriter, r *http.Request) {
	if err := s.joins.allow(s.peerOf(r).key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.barred(r, ""); err != nil {
		s.fail(w, r, err)
		return
	}
	var req protocol.TournamentRequest
	if r.ContentLength != 0 {
		if err := decode(w, r, &req); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.tournamentAnswer(w, r, s.opts.Tournaments.Join(r.Context(), r.PathValue("id"), s.person(r), req.Password))
}

// tournamentPlay is a player's withdraw, pause or resume.
func (s *Server) tournamentPlay(w http.ResponseWriter, r *http.Request) {
	action := r.PathValue("action")
	switch action {
	case protocol.ActionWithdraw, protocol.ActionPause, protocol.ActionResume:
	default:
		s.fail(w, r, newError(protocol.NotFound, "no such API endpoint: %s %s", r.Method, r.URL.Path))
		return
	}
	s.tournamentAnswer(w, r, s.opts.Tournaments.Play(r.Context(), r.PathValue("id"), s.person(r), action))
}

func (s *Server) tournamentOrganise(w http.ResponseWriter, r *http.Request) {
	var req protocol.TournamentRequest
	if r.ContentLength != 0 {
		if err := decode(w, r, &req); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.tournamentAnswer(w, r, s.opts.Tournaments.Organise(r.Context(), r.PathValue("id"), s.person(r), r.PathValue("action"), req.Name))
}

// tournamentAnswer answers an action with the tournament as it is after
// it, or with its refusal.
func (s *Server) tournamentAnswer(w http.ResponseWriter, r *http.Request, err error) {
	if err != nil {
		s.tournamentFail(w, r, err)
		return
	}
	s.tournamentGet(w, r)
}

func (s *Server) playerTournaments(w http.ResponseWriter, r *http.Request) {
	es, err := s.opts.Tournaments.EntriesOf(r.Context(), r.PathValue("name"), 100)
	if err != nil {
		s.tournamentFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.TournamentEntries{Tournaments: es})
}

// gameTournament answers which tournament a game is a table of.
func (s *Server) gameTournament(w http.ResponseWriter, r *http.Request) {
	t, err := s.opts.Tournaments.OfGame(r.Context(), r.PathValue("id"))
	if err != nil {
		s.tournamentFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.GameTournament{Tournament: t})
}

// tournamentJSON downloads the tournament's results as JSON.
func (s *Server) tournamentJSON(w http.ResponseWriter, r *http.Request) {
	v, err := s.opts.Tournaments.Get(r.Context(), r.PathValue("id"), "")
	if err != nil {
		s.tournamentFail(w, r, err)
		return
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="tournament-%s.json"`, v.ID))
	writeBody(w, http.StatusOK, append(b, '\n'))
}

// tournamentCSV downloads the standings as CSV, one line a person.
func (s *Server) tournamentCSV(w http.ResponseWriter, r *http.Request) {
	v, err := s.opts.Tournaments.Get(r.Context(), r.PathValue("id"), "")
	if err != nil {
		s.tournamentFail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="tournament-%s.csv"`, v.ID))
	w.WriteHeader(http.StatusOK)
	cw := csv.NewWriter(w)
	cw.Write(TournamentCSVHeader(v.Format))
	for _, l := range v.Ranking {
		cw.Write(tournamentCSVLine(v.Format, l))
	}
	cw.Flush()
}

// TournamentCSVHeader is the first line of a tournament's CSV.
func TournamentCSVHeader(format string) []string {
	h := []string{"rank", "name", "points"}
	switch format {
	case protocol.FormatSwiss:
		h = append(h, "buchholz")
	case protocol.FormatDuplicate:
		h = append(h, "percent")
	}
	return append(h, "games", "wins", "score", "status", "sheet")
}

func tournamentCSVLine(format string, l protocol.TournamentLine) []string {
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	out := []string{strconv.Itoa(l.Rank), csvSafe(l.Name), num(l.Points)}
	switch format {
	case protocol.FormatSwiss:
		out = append(out, num(l.Buchholz))
	case protocol.FormatDuplicate:
		out = append(out, num(l.Percent))
	}
	sheet := make([]string, len(l.Sheet))
	for i, p := range l.Sheet {
		sheet[i] = num(p)
	}
	return append(out, strconv.Itoa(l.Games), strconv.Itoa(l.Wins), strconv.Itoa(l.Score), l.Status, strings.Join(sheet, " "))
}

// csvSafe keeps a spreadsheet from reading a name as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// tournamentWS sends the tournament at once and again at every change,
// until the client goes.
func (s *Server) tournamentWS(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	viewer := s.person(r).Account
	v, err := s.opts.Tournaments.Get(r.Context(), id, viewer)
	if err != nil {
		s.tournamentFail(w, r, err)
		return
	}
	client := s.peerOf(r).key()
	if !s.tourClients.add(client, s.opts.MaxConns) {
		s.refuse(w, r, newError(protocol.TooManyConnections,
			"your address has %d tournament pages open on this server, the most it takes: close one (another tab?) and try again", s.opts.MaxConns))
		return
	}
	defer s.tourClients.done(client)
	if !s.track() {
		s.fail(w, r, newError(protocol.Unavailable, "the server is shutting down"))
		return
	}
	defer s.conns.Done()
	c := s.accept(w, r, id)
	if c == nil {
		return
	}
	defer c.CloseNow()
	ctx := c.CloseRead(s.ctx) // done when the client closes, or the server does
	if tournamentSocketOpen != nil {
		tournamentSocketOpen(id)
	}
	// Followed first, then read again: a change since the first reading
	// (made while the socket opened) is sent, else it would be missed for
	// good; a tournament waiting on its players may not change again.
	changes := s.opts.Tournaments.Watch(ctx, id)
	if v, err = s.opts.Tournaments.Get(ctx, id, viewer); err != nil {
		return
	}
	ping := time.NewTicker(s.opts.PingInterval)
	defer ping.Stop()
	for {
		b, err := json.Marshal(protocol.TournamentMessage{Type: protocol.TypeTournament, Tournament: v})
		if err != nil {
			return
		}
		wctx, cancel := context.WithTimeout(ctx, writeWait)
		err = c.Write(wctx, websocket.MessageText, b)
		cancel()
		if err != nil {
			return
		}
	wait:
		select {
		case <-ctx.Done():
			if s.ctx.Err() != nil {
				c.Close(websocket.StatusServiceRestart, "the server restarts: connect again")
			}
			return
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, s.opts.PongTimeout)
			err := c.Ping(pctx)
			cancel()
			if err != nil {
				return
			}
			goto wait
		case <-changes:
		}
		if v, err = s.opts.Tournaments.Get(ctx, id, viewer); err != nil {
			return
		}
	}
}

// tournamentSocketOpen, when set, is called as a tournament's socket
// opens, before it follows the tournament's changes: tests change the
// tournament at that moment.
var tournamentSocketOpen func(id string)

// hideDuplicates refuses the requests about a table of a duplicate round
// still played (its state, WebSocket, record, replay, analysis) from
// anyone who does not hold one of its seats: the round's other tables
// hold the same deal.
func (s *Server) hideDuplicates(next http.Handler) http.Handler {
	if s.opts.Tournaments == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.Path, "/api/games/")
		if !ok || r.Method != http.MethodGet {
			next.ServeHTTP(w, r)
			return
		}
		id, sub, _ := strings.Cut(rest, "/")
		// Which tournament a table is of tells nothing of its deal.
		if !protocol.ValidID(id) || sub == "tournament" {
			next.ServeHTTP(w, r)
			return
		}
		hidden, err := s.opts.Tournaments.Hidden(r.Context(), id)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if hidden {
			if _, seat, err := s.hub.Game(r.Context(), id, tokenOf(r, id, true)); err != nil || seat < 0 {
				e := newError(protocol.TournamentHidden, "%s", director.ErrHidden.Error()+": it opens when the round is over")
				if strings.HasSuffix(r.URL.Path, "/ws") {
					r.SetPathValue("id", id)
					s.refuse(w, r, e)
				} else {
					s.fail(w, r, e)
				}
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
