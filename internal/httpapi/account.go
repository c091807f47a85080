package httpapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/table"
)

// sessionCookie names the cookie of a signed-in browser's session.
const sessionCookie = protocol.SessionCookie

// myGamesMax is how many games GET /api/account/games shows.
const myGamesMax = 50

// routeAccounts adds the account routes to mux: only a server with
// accounts has them, so their handlers may take Options.Accounts as set.
func (s *Server) routeAccounts(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/account", s.register)
	mux.HandleFunc("GET /api/account", s.accountInfo)
	mux.HandleFunc("DELETE /api/account", s.deleteAccount)
	mux.HandleFunc("POST /api/account/password", s.changePassword)
	mux.HandleFunc("GET /api/account/export", s.export)
	mux.HandleFunc("GET /api/account/games", s.myGames)
	mux.HandleFunc("POST /api/session", s.signIn)
	mux.HandleFunc("DELETE /api/session", s.signOut)
	mux.HandleFunc("DELETE /api/sessions", s.signOutEverywhere)
	mux.HandleFunc("POST /api/passkeys/register", s.passkeyRegister)
	mux.HandleFunc("POST /api/passkeys/register/finish", s.passkeyRegisterFinish)
	mux.HandleFunc("POST /api/passkeys/signin", s.passkeySignIn)
	mux.HandleFunc("POST /api/passkeys/signin/finish", s.passkeySignInFinish)
	mux.HandleFunc("DELETE /api/passkeys/{id}", s.removePasskey)
	mux.HandleFunc("GET /api/players/{name}", s.profile)
	mux.HandleFunc("GET /api/players/{name}/games", s.playerGames)
	mux.HandleFunc("GET /api/players/{name}/rating.svg", s.ratingChart)
	mux.HandleFunc("GET /api/leaderboard", s.leaderboard)
}

// accountError maps an error of the account service, if it is one.
func accountError(err error) (*apiError, bool) {
	var ae *account.Error
	if !errors.As(err, &ae) {
		return nil, false
	}
	code, ok := protocol.CodeOf(ae.Kind)
	if !ok {
		code = protocol.Internal
	}
	e := newError(code, "%s", ae.Msg)
	if ae.RetryAfter > 0 {
		e.obj.RetryAfter = retrySeconds(ae.RetryAfter)
	}
	return e, true
}

// A sessionRef resolves the request's session once, when asked: most
// requests never need it.
type sessionRef struct {
	s     *Server
	r     *http.Request
	once  sync.Once
	se    account.Session
	err   error
	found bool
}

type sessionKey struct{}

// withSession gives the request a sessionRef.
func (s *Server) withSession(r *http.Request) *http.Request {
	if s.opts.Accounts == nil {
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), sessionKey{}, &sessionRef{s: s, r: r}))
}

// session returns the request's session: ErrUnauthorized without one.
func (ref *sessionRef) session() (account.Session, error) {
	ref.once.Do(func() {
		c, err := ref.r.Cookie(sessionCookie)
		if err != nil {
			ref.err = &account.Error{Kind: account.ErrUnauthorized, Msg: "sign in first"}
			return
		}
		ref.se, ref.err = ref.s.opts.Accounts.Session(ref.r.Context(), c.Value)
		ref.found = ref.err == nil
	})
	return ref.se, ref.err
}

// sessionOf returns the request's session, or ErrUnauthorized.
func (s *Server) sessionOf(r *http.Request) (account.Session, error) {
	ref, _ := r.Context().Value(sessionKey{}).(*sessionRef)
	if ref == nil {
		return account.Session{}, newError(protocol.NotFound, "this server has no accounts")
	}
	return ref.session()
}

// accountSeatToken returns the seat token of the signed-in account at
// game id, or "" when the request has no session.
func accountSeatToken(r *http.Request, id string) string {
	ref, _ := r.Context().Value(sessionKey{}).(*sessionRef)
	if ref == nil {
		return ""
	}
	se, err := ref.session()
	if err != nil {
		return ""
	}
	return account.SeatToken(se.Account, id)
}

// setSession gives the browser the session's cookie; an empty token
// removes it.
func setSession(w http.ResponseWriter, p peer, token string, ttl time.Duration) {
	c := &http.Cookie{Name: sessionCookie, Value: token, Path: "/", MaxAge: int(ttl / time.Second), HttpOnly: true,
		Secure: p.tls, SameSite: http.SameSiteStrictMode}
	if token == "" {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// origin is the origin of the page that sent r, as passkeys are bound
// to it: the scheme the client used and the Host it asked for.
func (s *Server) origin(r *http.Request) string {
	scheme := "http"
	if s.peerOf(r).tls {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// signedIn answers a registration or sign-in: the session's cookie, the
// guest seats the browser held now the account's, and the account.
func (s *Server) signedIn(w http.ResponseWriter, r *http.Request, status int, a account.Account, token string) {
	svc := s.opts.Accounts
	var guest []account.GuestSeat
	for _, c := range r.Cookies() {
		if id, ok := strings.CutPrefix(c.Name, "razzia_"); ok && protocol.ValidID(id) {
			guest = append(guest, account.GuestSeat{Game: id, Token: c.Value})
		}
	}
	claimed, err := svc.Claim(r.Context(), a, guest)
	if err != nil {
		s.log.Error("claiming guest seats failed", "err", err)
	}
	p := s.peerOf(r)
	for _, id := range claimed {
		// The seat's token is the account's now: the old cookie is spent.
		http.SetCookie(w, &http.Cookie{Name: cookieName(id), Path: "/", MaxAge: -1, HttpOnly: true, Secure: p.tls, SameSite: http.SameSiteStrictMode})
		if err := s.hub.Reload(r.Context(), id); err != nil {
			s.log.Error("reloading a claimed game failed", "game", id, "err", err)
		}
	}
	setSession(w, p, token, svc.Options().SessionTTL)
	se := account.Session{Account: a}
	info, err := svc.Info(r.Context(), se)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if claimed == nil {
		claimed = []string{}
	}
	writeJSON(w, status, protocol.SessionAnswer{Account: info, Claimed: claimed, Token: token})
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	svc := s.opts.Accounts
	if err := s.registers.allow(s.peerOf(r).key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	var req protocol.RegisterRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	a, token, err := svc.Register(r.Context(), req.Name, req.Password)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.signedIn(w, r, http.StatusCreated, a, token)
}

func (s *Server) signIn(w http.ResponseWriter, r *http.Request) {
	svc := s.opts.Accounts
	var req protocol.RegisterRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	a, token, err := svc.SignIn(r.Context(), req.Name, req.Password, s.peerOf(r).key())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.signedIn(w, r, http.StatusOK, a, token)
}

// withAccount runs f for a signed-in request, or answers unauthorized.
func (s *Server) withAccount(w http.ResponseWriter, r *http.Request, f func(svc *account.Service, se account.Session)) {
	svc := s.opts.Accounts
	se, err := s.sessionOf(r)
	if err != nil {
		if errors.Is(err, account.ErrUnauthorized) {
			s.dropDeadSession(w, r)
		}
		s.fail(w, r, err)
		return
	}
	f(svc, se)
}

// dropDeadSession removes the session cookie the request carried, which
// is dead (unknown or expired). A request that carried none changes no
// cookie: its answer may arrive after a sign-in made meanwhile (another
// tab, the page's own form), and must not sign the browser out.
func (s *Server) dropDeadSession(w http.ResponseWriter, r *http.Request) {
	if _, err := r.Cookie(sessionCookie); err == nil {
		setSession(w, s.peerOf(r), "", 0)
	}
}

// answerAccount writes the account as its owner sees it.
func (s *Server) answerAccount(w http.ResponseWriter, r *http.Request, svc *account.Service, se account.Session) {
	info, err := svc.Info(r.Context(), se)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.AccountAnswer{Account: info})
}

// who answers GET /api/session: the signed-in account, or none for a
// guest (and on a server without accounts), never a refusal: a page that
// only wants to know whom it shows logs no error for a guest.
func (s *Server) who(w http.ResponseWriter, r *http.Request) {
	if s.opts.Accounts == nil {
		writeJSON(w, http.StatusOK, protocol.WhoAnswer{})
		return
	}
	se, err := s.sessionOf(r)
	if errors.Is(err, account.ErrUnauthorized) {
		s.dropDeadSession(w, r)
		writeJSON(w, http.StatusOK, protocol.WhoAnswer{Accounts: true})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	info, err := s.opts.Accounts.Info(r.Context(), se)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.WhoAnswer{Accounts: true, Account: &info})
}

func (s *Server) accountInfo(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(svc *account.Service, se account.Session) { s.answerAccount(w, r, svc, se) })
}

func (s *Server) signOut(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(svc *account.Service, se account.Session) {
		if err := svc.SignOut(r.Context(), se); err != nil {
			s.fail(w, r, err)
			return
		}
		setSession(w, s.peerOf(r), "", 0)
		writeJSON(w, http.StatusOK, struct{}{})
	})
}

func (s *Server) signOutEverywhere(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(svc *account.Service, se account.Session) {
		if err := svc.SignOutEverywhere(r.Context(), se); err != nil {
			s.fail(w, r, err)
			return
		}
		setSession(w, s.peerOf(r), "", 0)
		writeJSON(w, http.StatusOK, struct{}{})
	})
}

func (s *Server) changePassword(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(svc *account.Service, se account.Session) {
		var req protocol.PasswordRequest
		if err := decode(w, r, &req); err != nil {
			s.fail(w, r, err)
			return
		}
		se, err := svc.ChangePassword(r.Context(), se, s.peerOf(r).key(), req.Old, req.New)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.answerAccount(w, r, svc, se)
	})
}

func (s *Server) deleteAccount(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(svc *account.Service, se account.Session) {
		games, err := svc.Delete(r.Context(), se)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, id := range games {
			if err := s.hub.Reload(r.Context(), id); err != nil {
				s.log.Error("reloading a game of a deleted account failed", "game", id, "err", err)
			}
		}
		setSession(w, s.peerOf(r), "", 0)
		writeJSON(w, http.StatusOK, struct{}{})
	})
}

func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(svc *account.Service, se account.Session) {
		e, err := svc.Export(r.Context(), se)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		all := struct {
			account.Export
			Puzzles *protocol.PuzzleExport `json:"puzzles,omitempty"` // the solver's rating and answers
		}{Export: e}
		if s.opts.Puzzles != nil {
			p, err := s.opts.Puzzles.Export(r.Context(), se.Account.ID)
			if err != nil {
				s.fail(w, r, puzzleError(err))
				return
			}
			all.Puzzles = &p
		}
		w.Header().Set("Content-Disposition", `attachment; filename="razzia-account.json"`)
		b, err := json.MarshalIndent(all, "", "  ")
		if err != nil {
			s.fail(w, r, err)
			return
		}
		writeBody(w, http.StatusOK, b)
	})
}

// myGames answers the signed-in player's games: their turn first.
func (s *Server) myGames(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(svc *account.Service, se account.Session) {
		sums, err := svc.Games(r.Context(), se, myGamesMax)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		games := []protocol.MyGame{}
		for _, g := range sums {
			info, seat, err := s.hub.Game(r.Context(), g.ID, account.SeatToken(se.Account, g.ID))
			if err != nil {
				var te *table.Error
				if errors.As(err, &te) && te.Kind == table.ErrExpired {
					continue
				}
				s.fail(w, r, err)
				return
			}
			games = append(games, protocol.MyGame{Game: info, Seat: seat, YourTurn: info.ToMove != nil && *info.ToMove == seat && seat >= 0})
		}
		sort.SliceStable(games, func(i, j int) bool { return rank(games[i]) < rank(games[j]) })
		writeJSON(w, http.StatusOK, protocol.MyGamesAnswer{Games: games})
	})
}

// rank orders the games of a player: their turn, live, over.
func rank(g protocol.MyGame) int {
	switch {
	case g.YourTurn:
		return 0
	case !g.Game.Status.Over():
		return 1
	}
	return 2
}

// passkeyBegin answers the start of a passkey ceremony.
func passkeyBegin(w http.ResponseWriter, options any, ceremony string) {
	b, err := json.Marshal(options)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusOK, protocol.PasskeyBeginAnswer{Ceremony: ceremony, Options: b})
}

func (s *Server) passkeyRegister(w http.ResponseWriter, r *http.Request) {
	svc := s.opts.Accounts
	if err := s.ceremonies.allow(s.peerOf(r).key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	var req protocol.PasskeyBeginRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	if req.Name == "" {
		// A passkey for the signed-in account.
		s.withAccount(w, r, func(svc *account.Service, se account.Session) {
			opts, ceremony, err := svc.BeginAddPasskey(r.Context(), se, s.origin(r))
			if err != nil {
				s.fail(w, r, err)
				return
			}
			passkeyBegin(w, opts, ceremony)
		})
		return
	}
	if err := s.registers.allow(s.peerOf(r).key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	opts, ceremony, err := svc.BeginRegister(r.Context(), s.origin(r), req.Name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	passkeyBegin(w, opts, ceremony)
}

func (s *Server) passkeyRegisterFinish(w http.ResponseWriter, r *http.Request) {
	svc := s.opts.Accounts
	var req protocol.PasskeyFinishRequest
	if err := decodeLarge(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	a, token, err := svc.FinishRegister(r.Context(), s.origin(r), req.Ceremony, req.Credential, req.Label)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if token != "" {
		s.signedIn(w, r, http.StatusCreated, a, token)
		return
	}
	s.answerAccount(w, r, svc, account.Session{Account: a})
}

func (s *Server) passkeySignIn(w http.ResponseWriter, r *http.Request) {
	svc := s.opts.Accounts
	if err := s.ceremonies.allow(s.peerOf(r).key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	opts, ceremony, err := svc.BeginSignIn(r.Context(), s.origin(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	passkeyBegin(w, opts, ceremony)
}

func (s *Server) passkeySignInFinish(w http.ResponseWriter, r *http.Request) {
	svc := s.opts.Accounts
	var req protocol.PasskeyFinishRequest
	if err := decodeLarge(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	a, token, err := svc.FinishSignIn(r.Context(), s.origin(r), req.Ceremony, req.Credential)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.signedIn(w, r, http.StatusOK, a, token)
}

func (s *Server) removePasskey(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(svc *account.Service, se account.Session) {
		id, err := base64.RawURLEncoding.DecodeString(r.PathValue("id"))
		if err != nil {
			s.fail(w, r, badRequest("%q is not a passkey id (base64url)", r.PathValue("id")))
			return
		}
		if err := svc.RemovePasskey(r.Context(), se, id); err != nil {
			s.fail(w, r, err)
			return
		}
		s.answerAccount(w, r, svc, se)
	})
}

func (s *Server) profile(w http.ResponseWriter, r *http.Request) {
	svc := s.opts.Accounts
	p, err := svc.ProfileOf(r.Context(), r.PathValue("name"), r.URL.Query().Get("games"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.ProfileAnswer{Profile: p})
}

func (s *Server) playerGames(w http.ResponseWriter, r *http.Request) {
	svc := s.opts.Accounts
	games, err := svc.PlayerGames(r.Context(), r.PathValue("name"), account.MaxResults)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.PlayerGamesAnswer{Games: games})
}

func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	svc := s.opts.Accounts
	lb, err := svc.Leaderboard(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, lb)
}

// maxCredential bounds a passkey ceremony's body: a credential with its
// attestation is larger than the API's other requests.
const maxCredential = 64 << 10

// decodeLarge is decode with room for a passkey's credential.
func decodeLarge(w http.ResponseWriter, r *http.Request, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxCredential)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	return nil
}

// joinAccount seats the signed-in player at table id.
func (s *Server) joinAccount(r *http.Request, se account.Session, id string, seat int) (int, string, error) {
	token := account.SeatToken(se.Account, id)
	return s.hub.Join(r.Context(), id, seat, table.Person{Name: se.Account.Name, Token: token, Account: se.Account.ID})
}
