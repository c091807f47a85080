// Package httpapi serves Razzia's HTTP API and live WebSocket protocol
// (docs/protocol.md) over a table.Hub, and mounts the web page's handler
// for every other path.
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/director"
	"github.com/razziagame/razzia/internal/meet"
	"github.com/razziagame/razzia/internal/moderation"
	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/puzzler"
	"github.com/razziagame/razzia/internal/social"
	"github.com/razziagame/razzia/internal/table"
)

// Limits on what a client may send.
const (
	maxBody     = 4 << 10              // a JSON request
	maxRecord   = razzia.MaxRecordSize // an uploaded record
	maxMessage  = 4 << 10              // a WebSocket message
	cookieAge   = 30 * 24 * time.Hour  // how long a browser keeps a seat
	writeWait   = 10 * time.Second     // the longest a WebSocket write may take
	tokenPrefix = "Bearer "
)

// Options configure a Server.
type Options struct {
	// Origins are extra origin patterns a WebSocket may come from, as in
	// websocket.AcceptOptions.OriginPatterns; the server's own host is
	// always allowed. A pattern with a scheme and no wildcard, such as
	// "https://club.example", is also trusted for cross-origin POSTs.
	Origins []string
	// Logger receives the server's log; default slog.Default().
	Logger *slog.Logger
	// MessageRate and MessageBurst bound the messages one WebSocket may
	// send: a burst of MessageBurst, then MessageRate a second. Defaults
	// 10 and 20.
	MessageRate  float64
	MessageBurst int
	// HintRate and HintBurst bound the hints one seat may ask for: a
	// burst of HintBurst, then HintRate a second (defaults
	// DefaultHintRate and DefaultHintBurst). HintWorkers is the most
	// hint searches at once, the others wait (default
	// DefaultHintWorkers); HintIterations their iterations (0:
	// analysis.DefaultIterations).
	HintRate                               float64
	HintBurst, HintWorkers, HintIterations int
	// ReplayCache bounds the bytes of encoded replays of finished games
	// kept in memory; default 64 MiB.
	ReplayCache int

	// TrustedProxies are the reverse proxies whose X-Forwarded-For and
	// X-Forwarded-Proto headers name the client and its scheme (see
	// ParseProxies); from anyone else they are ignored.
	TrustedProxies []netip.Prefix
	// CreateRate and CreateBurst bound the tables one client address may
	// create: a burst of CreateBurst, then CreateRate a second. Defaults
	// 0.1 (6 a minute) and 5.
	CreateRate  float64
	CreateBurst int
	// JoinRate and JoinBurst bound the seats one client address may take.
	// Defaults 1/3 (20 a minute) and 10.
	JoinRate  float64
	JoinBurst int
	// RegisterRate and RegisterBurst bound the accounts one client
	// address may register. Defaults 1/120 (30 an hour) and 5.
	RegisterRate  float64
	RegisterBurst int
	// CeremonyRate and CeremonyBurst bound the passkey ceremonies one
	// client address may begin. Defaults 0.2 and 10.
	CeremonyRate  float64
	CeremonyBurst int
	// MaxConns is the most WebSockets one client address may hold at
	// once to tables, and the most to the pages' live socket; default 20
	// each.
	MaxConns int
	// PingInterval is how often the server pings a WebSocket; a client
	// that has not answered within PongTimeout is cut off. Defaults 30 s
	// and 15 s.
	PingInterval, PongTimeout time.Duration
	// IdleTimeout closes a WebSocket on which nothing but pings passed,
	// either way, for that long; default one hour.
	IdleTimeout time.Duration
	// Timeouts of the HTTP server (HTTPServer): ReadTimeout bounds reading
	// a request, body included (default 30 s); WriteTimeout writing the
	// answer (default 60 s); KeepAlive how long an idle keep-alive
	// connection is kept (default 2 minutes). WebSockets, once upgraded,
	// are bounded by PingInterval, PongTimeout and IdleTimeout instead.
	ReadTimeout, WriteTimeout, KeepAlive time.Duration

	// Metrics, when set, receives the server's metrics and is served,
	// with everything else registered in it, at GET /metrics.
	Metrics *prometheus.Registry
	// Accounts, when set, serves accounts, sessions, profiles and the
	// leaderboard (the routes of account.go); without it the server has
	// guests only.
	Accounts *account.Service
	// Push, with Accounts, serves Web Push: the server's key, the
	// subscriptions of signed-in players and their settings (push.go).
	Push *notify.Service
	// Tournaments, when set, serves tournaments (tournaments.go).
	Tournaments *director.Service
	// Meet, when set, serves Play now and challenges (meet.go).
	Meet *meet.Service
	// Presence, when set, serves the pages' live socket, the online list
	// and the presence of each seat's person at a table (live.go); Social,
	// with Accounts, follows, blocks and finish rates (social.go).
	Presence *presence.Service
	Social   *social.Service
	// Puzzles, when set, serves the puzzles found in finished games and
	// the players' luck and skill (puzzles.go).
	Puzzles *puzzler.Service
	// Moderation, with Accounts, serves reports and the operators'
	// actions (moderation.go), and refuses tables and seats to the
	// suspended and banned.
	Moderation *moderation.Service
}

// DefaultOptions returns the defaults that zero fields of Options take.
func DefaultOptions() Options {
	return Options{
		MessageRate:   10,
		MessageBurst:  20,
		ReplayCache:   64 << 20,
		CreateRate:    0.1,
		CreateBurst:   5,
		JoinRate:      1.0 / 3,
		JoinBurst:     10,
		RegisterRate:  1.0 / 120,
		RegisterBurst: 5,
		CeremonyRate:  0.2,
		CeremonyBurst: 10,
		MaxConns:      20,
		PingInterval:  30 * time.Second,
		PongTimeout:   15 * time.Second,
		IdleTimeout:   time.Hour,
		ReadTimeout:   30 * time.Second,
		WriteTimeout:  60 * time.Second,
		KeepAlive:     2 * time.Minute,
	}
}

// withDefaults fills the zero fields of o from DefaultOptions.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	for _, f := range []struct{ v, def *float64 }{
		{&o.MessageRate, &d.MessageRate}, {&o.CreateRate, &d.CreateRate}, {&o.JoinRate, &d.JoinRate},
		{&o.RegisterRate, &d.RegisterRate}, {&o.CeremonyRate, &d.CeremonyRate},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	for _, f := range []struct{ v, def *int }{
		{&o.MessageBurst, &d.MessageBurst}, {&o.ReplayCache, &d.ReplayCache}, {&o.CreateBurst, &d.CreateBurst},
		{&o.JoinBurst, &d.JoinBurst}, {&o.MaxConns, &d.MaxConns}, {&o.RegisterBurst, &d.RegisterBurst},
		{&o.CeremonyBurst, &d.CeremonyBurst},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	for _, f := range []struct{ v, def *time.Duration }{
		{&o.PingInterval, &d.PingInterval}, {&o.PongTimeout, &d.PongTimeout}, {&o.IdleTimeout, &d.IdleTimeout},
		{&o.ReadTimeout, &d.ReadTimeout}, {&o.WriteTimeout, &d.WriteTimeout}, {&o.KeepAlive, &d.KeepAlive},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// A Server is the http.Handler of a Razzia server.
type Server struct {
	hub     *table.Hub
	web     http.Handler
	opts    Options
	log     *slog.Logger
	handler http.Handler
	replays *replayCache
	metrics *metrics

	creates, joins *clientRate // per client address
	registers      *clientRate // accounts registered, per client address
	ceremonies     *clientRate // passkey ceremonies begun, per client address
	clients        connCount   // WebSockets per client address
	now            func() time.Time

	ctx    context.Context // cancelled by Close: ends every WebSocket
	cancel context.CancelFunc
	mu     sync.Mutex
	closed bool
	conns  sync.WaitGroup // the WebSocket handlers

	hinting *hinting // the hints' limits (analysis.go)

	relates      *clientRate // follows and blocks changed, per client address (social.go)
	playingGames playing     // the games in play, counted now and then (live.go)
	// everyoneLast is the list of everyone online made last, for
	// presence's version (live.go).
	everyoneMu   sync.Mutex
	everyoneLast *everyoneList
	// liveClients counts the pages' live sockets per client address,
	// apart from the tables' (MaxConns each): a table's page holds both.
	liveClients connCount
	// tourClients counts the tournaments' sockets per client address,
	// apart from the tables' (MaxConns each): a club's evening on one
	// address holds a tournament's page and a table for each person.
	tourClients connCount
}

// New returns the server of the hub's games. web serves every path that is
// not the API's (the page); nil answers them 404.
func New(hub *table.Hub, web http.Handler, opts Options) *Server {
	opts = opts.withDefaults()
	if web == nil {
		web = http.NotFoundHandler()
	}
	s := &Server{hub: hub, web: web, opts: opts, log: opts.Logger, replays: newReplayCache(opts.ReplayCache),
		creates:    newClientRate("tables created", opts.CreateRate, opts.CreateBurst),
		joins:      newClientRate("seats taken", opts.JoinRate, opts.JoinBurst),
		registers:  newClientRate("accounts registered", opts.RegisterRate, opts.RegisterBurst),
		ceremonies: newClientRate("passkey ceremonies", opts.CeremonyRate, opts.CeremonyBurst),
		relates:    newClientRate("follows and blocks", relateRate, relateBurst),
		now:        time.Now, metrics: newMetrics(registerer(opts.Metrics))}
	s.ctx, s.cancel = context.WithCancel(context.Background())

	mux := http.NewServeMux()
	s.operatorRoutes(mux)
	mux.HandleFunc("POST /api/games", s.create)
	mux.HandleFunc("GET /api/games", s.list)
	mux.HandleFunc("GET /api/games/{id}", s.game)
	mux.HandleFunc("POST /api/games/{id}/join", s.join)
	mux.HandleFunc("POST /api/tutorial", s.tutorial)
	mux.HandleFunc("DELETE /api/games/{id}/seats/{seat}", s.remove)
	mux.HandleFunc("PUT /api/games/{id}/seats/{seat}/level", s.setLevel)
	mux.HandleFunc("GET /api/games/{id}/record", s.record)
	mux.HandleFunc("GET /api/games/{id}/replay", s.replay)
	mux.HandleFunc("GET /api/games/{id}/ws", s.ws)
	mux.HandleFunc("POST /api/records", s.upload)
	mux.HandleFunc("GET /api/levels", s.levels)
	s.routeAnalysis(mux)
	s.routePace(mux)
	s.routeRematch(mux)
	s.routeTournaments(mux)
	if opts.Accounts != nil {
		s.routeAccounts(mux)
		if opts.Social != nil {
			s.routeSocial(mux)
		}
	}
	s.routeLive(mux)
	mux.HandleFunc("GET /api/session", s.who)
	s.routePush(mux)
	s.routeMeet(mux)
	s.routePuzzles(mux)
	s.routeModeration(mux)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, newError(protocol.NotFound, "no such API endpoint: %s %s", r.Method, r.URL.Path))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		// A page gives a guest their guest cookie first, so that its live
		// socket and its calls, made at once, are one person.
		if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/static/") && s.opts.Presence != nil {
			s.giveGuestCookie(w, r)
		}
		s.web.ServeHTTP(w, r)
	})

	// Browsers' cross-origin POSTs (CSRF) are refused; the WebSocket
	// checks its origin itself.
	cop := http.NewCrossOriginProtection()
	for _, o := range opts.Origins {
		if strings.Contains(o, "://") && !strings.ContainsAny(o, "*?[") {
			if err := cop.AddTrustedOrigin(o); err != nil {
				s.log.Warn("origin pattern not trusted for POSTs", "origin", o, "err", err)
			}
		}
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, newError(protocol.Forbidden, "cross-origin request refused: use the page this server serves"))
	}))
	s.handler = compressed(cop.Handler(s.hideDuplicates(mux)))
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
	}
	s.handler.ServeHTTP(w, s.withSession(r))
}

// Close ends every WebSocket with status 1012 (service restart: connect
// again, to another node) and waits for their
// handlers. Call it before http.Server.Shutdown, which does not wait for
// hijacked connections.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.conns.Wait()
}

// track counts a WebSocket handler in, unless the server is closing.
func (s *Server) track() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns.Add(1)
	return true
}

// An apiError is the error of a failed request: the protocol's error
// object and the HTTP status it is sent with.
type apiError struct {
	status int
	obj    protocol.Error
}

func (e *apiError) Error() string { return e.obj.Message }

func newError(code protocol.Code, format string, args ...any) *apiError {
	return &apiError{status: code.Status(), obj: protocol.Error{Code: code, Message: fmt.Sprintf(format, args...)}}
}

// errorOf maps an error of the Hub to the API's error.
func errorOf(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return newError(protocol.TooLarge, "the request is larger than %d bytes", maxErr.Limit)
	}
	if e, ok := accountError(err); ok {
		return e
	}
	if e, ok := moderationError(err); ok {
		return e
	}
	if e, ok := meetError(err); ok {
		return e
	}
	var te *table.Error
	if !errors.As(err, &te) {
		return newError(protocol.Internal, "internal error: please try again")
	}
	code, ok := protocol.CodeOf(te.Kind)
	if !ok {
		code = protocol.Internal
	}
	e := newError(code, "%s", te.Msg)
	if te.RetryAfter > 0 {
		e.obj.RetryAfter = retrySeconds(te.RetryAfter)
	}
	if code == protocol.BadRecord {
		var re *razzia.RecordError
		if errors.As(err, &re) {
			e.obj.Move, e.obj.Token = &re.Move, &re.Token
		} else {
			zero, empty := 0, ""
			e.obj.Move, e.obj.Token = &zero, &empty
		}
	}
	return e
}

// fail writes the error as JSON; internal failures are logged.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	e := errorOf(err)
	s.metrics.refusal(e.obj.Code)
	if e.status >= 500 {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if e.obj.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.obj.RetryAfter))
	}
	writeJSON(w, e.status, protocol.ErrorBody{Error: &e.obj})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := encode(v)
	if err != nil {
		http.Error(w, `{"error":{"code":"internal","message":"internal error"}}`, http.StatusInternalServerError)
		return
	}
	writeBody(w, status, b)
}

// writeBody writes an encoded JSON answer.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(body)
}

// decode reads the request's JSON body into v strictly: one object, no
// unknown fields, at most maxBody bytes.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	body := http.MaxBytesReader(w, r.Body, maxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return jsonError(err)
		}
		return badRequest("malformed JSON: data after the object")
	}
	return nil
}

func badRequest(format string, args ...any) *apiError {
	return newError(protocol.BadRequest, format, args...)
}

// jsonError explains a decoding error in the request's terms.
func jsonError(err error) error {
	var (
		maxErr    *http.MaxBytesError
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &maxErr):
		return err
	case errors.Is(err, io.EOF):
		return badRequest("malformed JSON: the body is empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("malformed JSON: the body ends too soon")
	case errors.As(err, &syntaxErr):
		return badRequest("malformed JSON at byte %d: %s", syntaxErr.Offset, strings.TrimPrefix(syntaxErr.Error(), "json: "))
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			return badRequest("malformed JSON: want an object, not %s", typeErr.Value)
		}
		return badRequest("malformed JSON: field %q must be %s, not %s", field, typeName(typeErr.Type.String()), typeErr.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return badRequest("malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return badRequest("malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// typeName names a Go type for a JSON user.
func typeName(t string) string {
	switch {
	case t == "string":
		return "a string"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "*int"):
		return "a whole number"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	}
	return "an object"
}

// tokenOf returns the seat token the request carries: a bearer token, the
// query's token (WebSocket only, where browsers cannot set headers), the
// game's cookie, or the token of the signed-in account's seat.
func tokenOf(r *http.Request, id string, query bool) string {
	if a := r.Header.Get("Authorization"); len(a) > len(tokenPrefix) && strings.EqualFold(a[:len(tokenPrefix)], tokenPrefix) {
		return strings.TrimSpace(a[len(tokenPrefix):])
	}
	if query {
		if t := r.URL.Query().Get("token"); t != "" {
			return t
		}
	}
	if c, err := r.Cookie(cookieName(id)); err == nil {
		return c.Value
	}
	return accountSeatToken(r, id)
}

func cookieName(id string) string { return "razzia_" + id }

// creatorCookie names the cookie of a table's creator token.
func creatorCookie(id string) string { return "razzia_creator_" + id }

// creatorTokenOf returns the creator token the request carries: a bearer
// token or the table's creator cookie.
func creatorTokenOf(r *http.Request, id string) string {
	if a := r.Header.Get("Authorization"); len(a) > len(tokenPrefix) && strings.EqualFold(a[:len(tokenPrefix)], tokenPrefix) {
		return strings.TrimSpace(a[len(tokenPrefix):])
	}
	if c, err := r.Cookie(creatorCookie(id)); err == nil {
		return c.Value
	}
	return ""
}

// setCookie gives a browser a secret of the game: HttpOnly, SameSite
// strict, and Secure when the client came over TLS (itself or, as a
// trusted proxy says, to the proxy).
func setCookie(w http.ResponseWriter, p peer, name, value string) {
	http.SetCookie(w, &http.Cookie{
		Name:     name,
		Value:    value,
		Path:     "/",
		MaxAge:   int(cookieAge / time.Second),
		HttpOnly: true,
		Secure:   p.tls,
		SameSite: http.SameSiteStrictMode,
	})
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	p := s.peerOf(r)
	var req protocol.CreateRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	// The name its creator joins under next, if given, before the table
	// is made: a join refused for it leaves no table behind, and costs
	// none of the tables the address may create.
	if req.Name != "" {
		if err := playername.Check(req.Name); err != nil {
			s.fail(w, r, newError(protocol.BadName, "%v", err))
			return
		}
	}
	if err := s.barred(r, req.Name); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.creates.allow(p.key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	seats := make([]string, len(req.Seats))
	for i, seat := range req.Seats {
		seats[i] = seat.Bot
	}
	if req.Rated {
		if err := s.ratedBots(seats); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	t, err := s.hub.Create(r.Context(), table.TableSetup{Seats: seats, Pace: req.Pace, Rated: req.Rated, Client: p.key()})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	info, creator := t.Info, t.Creator
	setCookie(w, p, creatorCookie(info.ID), creator)
	writeJSON(w, http.StatusCreated, protocol.CreateAnswer{Game: info, CreatorToken: creator})
}

// ratedBots refuses the bots of a rated table whose level has no
// calibrated rating (a level added since the last calibration).
func (s *Server) ratedBots(seats []string) error {
	if s.opts.Accounts == nil {
		return nil // creating refuses: no accounts, no rated tables
	}
	ok := s.opts.Accounts.Calibrated()
	for _, b := range seats {
		if b != "" && !slices.Contains(ok, b) {
			return badRequest("%s has no calibrated rating yet, so it cannot sit at a rated table: the rated levels are %s", b, strings.Join(ok, ", "))
		}
	}
	return nil
}

// remove frees a person's seat before the start: the seat's holder gives
// it up with its token, or the table's creator removes whoever holds it.
func (s *Server) remove(w http.ResponseWriter, r *http.Request) {
	s.creatorSeat(w, r, func(id string, seat int) error {
		if t := tokenOf(r, id, false); t != "" {
			// A token that holds another seat, or none, may still be
			// the creator's.
			if err := s.hub.GiveUp(r.Context(), id, t, seat); !errors.Is(err, table.ErrNotYourSeat) {
				return err
			}
		}
		return s.hub.Remove(r.Context(), id, creatorTokenOf(r, id), seat)
	})
}

// setLevel gives a bot seat another level for the table's creator.
func (s *Server) setLevel(w http.ResponseWriter, r *http.Request) {
	var req protocol.LevelRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	s.creatorSeat(w, r, func(id string, seat int) error {
		// A rated table takes the rated levels only, as at its creation.
		if s.opts.Accounts != nil {
			info, _, err := s.hub.Game(r.Context(), id, "")
			if err != nil {
				return err
			}
			if info.Rated {
				if err := s.ratedBots([]string{req.Level}); err != nil {
					return err
				}
			}
		}
		return s.hub.SetLevel(r.Context(), id, creatorTokenOf(r, id), seat, req.Level)
	})
}

// creatorSeat makes change, a creator's command about the seat of the
// path, and answers the table as it is then.
func (s *Server) creatorSeat(w http.ResponseWriter, r *http.Request, change func(id string, seat int) error) {
	id := r.PathValue("id")
	seat, err := strconv.Atoi(r.PathValue("seat"))
	if err != nil || seat < 0 {
		s.fail(w, r, badRequest("%q is not a seat: seats count from 0", r.PathValue("seat")))
		return
	}
	if err := change(id, seat); err != nil {
		s.fail(w, r, err)
		return
	}
	info, _, err := s.hub.Game(r.Context(), id, "")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.GameAnswer{Game: info})
}

// levels answers the bot levels a seat may be given, from bot.Levels:
// the page shows this list rather than one of its own.
func (s *Server) levels(w http.ResponseWriter, _ *http.Request) {
	type level struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		// Rated is whether the level may sit at a rated table: its
		// rating is calibrated (see ratedBots).
		Rated bool `json:"rated"`
	}
	var rated []string
	if s.opts.Accounts != nil {
		rated = s.opts.Accounts.Calibrated()
	}
	var out []level
	for _, l := range bot.Levels() {
		out = append(out, level{Name: l.Name, Description: l.Doc, Rated: slices.Contains(rated, l.Name)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"levels": out, "default": bot.DefaultLevel})
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	status := r.URL.Query().Get("status")
	games, err := s.hub.List(r.Context(), protocol.Status(status))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if games == nil {
		games = []protocol.GameInfo{}
	}
	writeJSON(w, http.StatusOK, protocol.ListAnswer{Games: games})
}

func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	info, you, err := s.hub.Game(r.Context(), id, tokenOf(r, id, false))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	creator := false
	if t := creatorTokenOf(r, id); t != "" {
		if creator, err = s.hub.Creator(r.Context(), id, t); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, protocol.SeatAnswer{Game: info, You: you, Creator: creator})
}

func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	p := s.peerOf(r)
	if err := s.joins.allow(p.key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	var req protocol.JoinRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	seat := -1
	if req.Seat != nil {
		if *req.Seat < 0 {
			s.fail(w, r, badRequest("there is no seat %d: seats count from 0", *req.Seat))
			return
		}
		seat = *req.Seat
	}
	if err := s.barred(r, req.Name); err != nil {
		s.fail(w, r, err)
		return
	}
	if se, err := s.sessionOf(r); err == nil {
		// A signed-in player sits as their account, on every device.
		seat, token, err := s.joinAccount(r, se, id, seat)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, protocol.JoinAnswer{Seat: seat, Token: token})
		return
	}
	seat, token, err := s.hub.Join(r.Context(), id, seat, table.Person{Name: req.Name})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	setCookie(w, p, cookieName(id), token)
	writeJSON(w, http.StatusOK, protocol.JoinAnswer{Seat: seat, Token: token})
}

// tutorial starts the guided first game for the person named in the
// body. It counts as a new table for the rate of creations.
func (s *Server) tutorial(w http.ResponseWriter, r *http.Request) {
	p := s.peerOf(r)
	if err := s.creates.allow(p.key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	var req protocol.TutorialRequest
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	t, err := s.hub.Create(r.Context(), table.TableSetup{Tutorial: true, Learner: req.Name, Client: p.key()})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	info, seat, token := t.Info, t.Seat, t.Token
	setCookie(w, p, cookieName(info.ID), token)
	writeJSON(w, http.StatusCreated, protocol.TutorialAnswer{Game: info, Seat: seat, Token: token})
}

func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	rec, err := s.hub.Record(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var b bytes.Buffer
	if _, err := rec.WriteTo(&b); err != nil {
		s.fail(w, r, err)
		return
	}
	meta, err := s.hub.RecordMeta(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, err := withMeta(b.Bytes(), meta)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="razzia-%s.json"`, id))
	w.Write(out)
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	// An uploaded record is a game stored: it counts as a table created.
	if err := s.creates.allow(s.peerOf(r).key(), s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRecord))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	info, err := s.hub.Upload(r.Context(), bytes.NewReader(data))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, protocol.GameAnswer{Game: info})
}
