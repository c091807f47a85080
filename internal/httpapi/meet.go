package httpapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/razziagame/razzia/internal/meet"
	"github.com/razziagame/razzia/internal/protocol"
)

// routeMeet serves Play now and challenges (with Options.Meet).
func (s *Server) routeMeet(mux *http.ServeMux) {
	if s.opts.Meet == nil {
		return
	}
	mux.HandleFunc("GET /api/seeks", s.seeks)
	mux.HandleFunc("POST /api/seeks", s.seek)
	mux.HandleFunc("DELETE /api/seeks/{id}", s.cancelSeek)
	mux.HandleFunc("POST /api/seeks/{id}/join", s.joinSeek)
	mux.HandleFunc("POST /api/seeks/{id}/seat", s.seekSeat)
	mux.HandleFunc("GET /api/challenges", s.challenges)
	mux.HandleFunc("POST /api/challenges", s.challenge)
	mux.HandleFunc("POST /api/challenges/{id}/answer", s.answerChallenge)
	mux.HandleFunc("DELETE /api/challenges/{id}", s.cancelChallenge)
	mux.HandleFunc("POST /api/challenges/{id}/seat", s.challengeSeat)
}

// meetError maps an error of the meeting service, if it is one.
func meetError(err error) (*apiError, bool) {
	var me *meet.Error
	if !errors.As(err, &me) {
		return nil, false
	}
	code, ok := protocol.CodeOf(me.Kind)
	if !ok {
		code = protocol.Internal
	}
	return newError(code, "%s", me.Msg), true
}

// seekerOf returns who asks: the signed-in account, else the guest of
// the browser's guest cookie, named name. ok is false for a guest without
// the cookie: someone not known yet.
func (s *Server) seekerOf(r *http.Request, name string) (p meet.Person, ok bool) {
	if se, err := s.sessionOf(r); err == nil {
		a := se.Account
		return meet.AccountPerson(a.ID, a.Name, a.Rating()), true
	}
	key := guestKey(r)
	if key == "" {
		return meet.Person{}, false
	}
	// The guest is the same person to presence: a request lapses when
	// they go offline, and their live pages hear of it.
	return meet.Person{Key: key, Name: name}, true
}

// seekerGuest is seekerOf for a request that acts: a guest without the
// cookie is given one (presence's guest cookie).
func (s *Server) seekerGuest(w http.ResponseWriter, r *http.Request, name string) meet.Person {
	s.giveGuestCookie(w, r)
	p, _ := s.seekerOf(r, name)
	return p
}

// seeks lists the requests; a guest is given the guest cookie, so that
// the live socket opened next is the same person.
func (s *Server) seeks(w http.ResponseWriter, r *http.Request) {
	p := s.seekerGuest(w, r, "")
	out, err := s.opts.Meet.Seeks(r.Context(), p)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// seek makes a Play-now request: it counts as a table created, for the
// rate of the client's address.
func (s *Server) seek(w http.ResponseWriter, r *http.Request) {
	if err := s.creates.allow(s.peerOf(r).key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	var req protocol.SeekRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.seekerGuest(w, r, req.Name)
	in, err := s.opts.Meet.Seek(r.Context(), p, meet.SettingsOf(req))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, protocol.SeekAnswer{Seek: in})
}

func (s *Server) joinSeek(w http.ResponseWriter, r *http.Request) {
	if err := s.creates.allow(s.peerOf(r).key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	var req protocol.SeekJoinRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.seekerGuest(w, r, req.Name)
	in, err := s.opts.Meet.JoinSeek(r.Context(), p, r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, protocol.SeekAnswer{Seek: in})
}

func (s *Server) cancelSeek(w http.ResponseWriter, r *http.Request) {
	p, ok := s.seekerOf(r, "")
	if !ok {
		s.fail(w, r, newError(protocol.NotFound, "you have no request %q", r.PathValue("id")))
		return
	}
	in, err := s.opts.Meet.CancelSeek(r.Context(), p, r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.SeekAnswer{Seek: in})
}

// seekSeat gives the browser the seat of its paired request: the game's
// seat cookie, as joining the table would.
func (s *Server) seekSeat(w http.ResponseWriter, r *http.Request) {
	s.seat(w, r, s.opts.Meet.SeekSeat)
}

// challengeSeat answers the seat of an accepted challenge, for a client
// that keeps seat tokens (the terminal).
func (s *Server) challengeSeat(w http.ResponseWriter, r *http.Request) {
	s.seat(w, r, s.opts.Meet.ChallengeSeat)
}

// seat answers where the asker sits by find, with the seat's token.
func (s *Server) seat(w http.ResponseWriter, r *http.Request, find func(context.Context, meet.Person, string) (string, int, string, error)) {
	p, ok := s.seekerOf(r, "")
	if !ok {
		s.fail(w, r, newError(protocol.NotFound, "you have no request %q", r.PathValue("id")))
		return
	}
	game, seat, token, err := find(r.Context(), p, r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	info, _, err := s.hub.Game(r.Context(), game, token)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if p.Account == "" {
		setCookie(w, s.peerOf(r), cookieName(game), token)
	}
	writeJSON(w, http.StatusOK, protocol.SeekSeatAnswer{Game: info, Seat: seat, Token: token})
}

func (s *Server) challenges(w http.ResponseWriter, r *http.Request) {
	p, _ := s.seekerOf(r, "")
	list, err := s.opts.Meet.Challenges(r.Context(), p)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.ChallengesAnswer{Challenges: list})
}

// challenge counts as a table created, for the rate of the client's
// address.
func (s *Server) challenge(w http.ResponseWriter, r *http.Request) {
	if err := s.creates.allow(s.peerOf(r).key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	var req protocol.ChallengeRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	p, _ := s.seekerOf(r, "")
	c, err := s.opts.Meet.Challenge(r.Context(), p, req.To, req.Pace, req.Rated)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, protocol.ChallengeAnswer{Challenge: c})
}

func (s *Server) answerChallenge(w http.ResponseWriter, r *http.Request) {
	var req protocol.AnswerRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	p, _ := s.seekerOf(r, "")
	c, err := s.opts.Meet.Answer(r.Context(), p, r.PathValue("id"), req.Accept, req.Reason)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.ChallengeAnswer{Challenge: c})
}

func (s *Server) cancelChallenge(w http.ResponseWriter, r *http.Request) {
	p, _ := s.seekerOf(r, "")
	c, err := s.opts.Meet.CancelChallenge(r.Context(), p, r.PathValue("id"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.ChallengeAnswer{Challenge: c})
}
