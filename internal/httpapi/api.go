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
	"strings"
	"sync"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/store"
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
}

// A Server is the http.Handler of a Razzia server.
type Server struct {
	hub     *table.Hub
	web     http.Handler
	opts    Options
	log     *slog.Logger
	handler http.Handler

	ctx    context.Context // cancelled by Close: ends every WebSocket
	cancel context.CancelFunc
	mu     sync.Mutex
	closed bool
	conns  sync.WaitGroup // the WebSocket handlers
}

// New returns the server of the hub's games. web serves every path that is
// not the API's (the page); nil answers them 404.
func New(hub *table.Hub, web http.Handler, opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MessageRate <= 0 {
		opts.MessageRate = 10
	}
	if opts.MessageBurst <= 0 {
		opts.MessageBurst = 20
	}
	if web == nil {
		web = http.NotFoundHandler()
	}
	s := &Server{hub: hub, web: web, opts: opts, log: opts.Logger}
	s.ctx, s.cancel = context.WithCancel(context.Background())

	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok")
	})
	mux.HandleFunc("POST /api/games", s.create)
	mux.HandleFunc("GET /api/games", s.list)
	mux.HandleFunc("GET /api/games/{id}", s.game)
	mux.HandleFunc("POST /api/games/{id}/join", s.join)
	mux.HandleFunc("GET /api/games/{id}/record", s.record)
	mux.HandleFunc("GET /api/games/{id}/replay", s.replay)
	mux.HandleFunc("GET /api/games/{id}/ws", s.ws)
	mux.HandleFunc("POST /api/records", s.upload)
	mux.HandleFunc("GET /api/levels", levels)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, &apiError{status: http.StatusNotFound, Code: "not_found",
			Message: fmt.Sprintf("no such API endpoint: %s %s", r.Method, r.URL.Path)})
	})
	mux.Handle("/", s.web)

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
		s.fail(w, r, &apiError{status: http.StatusForbidden, Code: "forbidden",
			Message: "cross-origin request refused: use the page this server serves"})
	}))
	s.handler = cop.Handler(mux)
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/healthz" {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
	}
	s.handler.ServeHTTP(w, r)
}

// Close ends every WebSocket with "going away" and waits for their
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

// An apiError is the error object of every failed request.
type apiError struct {
	status  int
	Code    string  `json:"code"`
	Message string  `json:"message"`
	Move    *int    `json:"move,omitempty"`  // bad_record: the 1-based move, 0 for the file
	Token   *string `json:"token,omitempty"` // bad_record: the move's token
}

func (e *apiError) Error() string { return e.Message }

// errorOf maps an error of the Hub to the API's error.
func errorOf(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return &apiError{status: http.StatusRequestEntityTooLarge, Code: "too_large",
			Message: fmt.Sprintf("the request is larger than %d bytes", maxErr.Limit)}
	}
	var te *table.Error
	if !errors.As(err, &te) {
		return &apiError{status: http.StatusInternalServerError, Code: "internal", Message: "internal error: please try again"}
	}
	e := &apiError{Message: te.Msg}
	switch te.Kind {
	case table.ErrNotFound:
		e.status, e.Code = http.StatusNotFound, "not_found"
	case table.ErrSeatTaken:
		e.status, e.Code = http.StatusConflict, "seat_taken"
	case table.ErrTableFull:
		e.status, e.Code = http.StatusConflict, "table_full"
	case table.ErrBadName:
		e.status, e.Code = http.StatusBadRequest, "bad_name"
	case table.ErrBadRequest:
		e.status, e.Code = http.StatusBadRequest, "bad_request"
	case table.ErrNotStarted:
		e.status, e.Code = http.StatusConflict, "not_started"
	case table.ErrBadRecord:
		e.status, e.Code = http.StatusBadRequest, "bad_record"
		var re *razzia.RecordError
		if errors.As(err, &re) {
			e.Move, e.Token = &re.Move, &re.Token
		} else {
			zero, empty := 0, ""
			e.Move, e.Token = &zero, &empty
		}
	case table.ErrClosed:
		e.status, e.Code = http.StatusServiceUnavailable, "unavailable"
	case table.ErrIllegalMove, table.ErrNotYourSeat, table.ErrNotYourTurn, table.ErrStale, table.ErrGameOver:
		// Only the WebSocket plays moves; these do not reach HTTP.
		e.status, e.Code = http.StatusConflict, wsCode(te.Kind)
	default:
		e.status, e.Code = http.StatusInternalServerError, "internal"
	}
	return e
}

// fail writes the error as JSON; internal failures are logged.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	e := errorOf(err)
	if e.status >= 500 {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeJSON(w, e.status, map[string]any{"error": e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, `{"error":{"code":"internal","message":"internal error"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b.Bytes())
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
	return &apiError{status: http.StatusBadRequest, Code: "bad_request", Message: fmt.Sprintf(format, args...)}
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
// query's token (WebSocket only, where browsers cannot set headers), or
// the game's cookie.
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
	return ""
}

func cookieName(id string) string { return "razzia_" + id }

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Seats []struct {
			Bot string `json:"bot"`
		} `json:"seats"`
	}
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	seats := make([]string, len(req.Seats))
	for i, seat := range req.Seats {
		seats[i] = seat.Bot
	}
	info, err := s.hub.Create(r.Context(), seats)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"game": info})
}

// levels answers the bot levels a seat may be given, from bot.Levels:
// the page shows this list rather than one of its own.
func levels(w http.ResponseWriter, _ *http.Request) {
	type level struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	var out []level
	for _, l := range bot.Levels() {
		out = append(out, level{Name: l.Name, Description: l.Doc})
	}
	writeJSON(w, http.StatusOK, map[string]any{"levels": out, "default": bot.DefaultLevel})
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	status := r.URL.Query().Get("status")
	games, err := s.hub.List(r.Context(), store.Status(status))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if games == nil {
		games = []table.Info{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games})
}

func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	info, you, err := s.hub.Game(r.Context(), id, tokenOf(r, id, false))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"game": info, "you": you})
}

func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var req struct {
		Name string `json:"name"`
		Seat *int   `json:"seat"`
	}
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
	seat, token, err := s.hub.Join(r.Context(), id, req.Name, seat)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name:     cookieName(id),
		Value:    token,
		Path:     "/",
		MaxAge:   int(cookieAge / time.Second),
		HttpOnly: true,
		Secure:   r.TLS != nil,
		SameSite: http.SameSiteStrictMode,
	})
	writeJSON(w, http.StatusOK, map[string]any{"seat": seat, "token": token})
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
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="razzia-%s.json"`, id))
	w.Write(b.Bytes())
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
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
	writeJSON(w, http.StatusCreated, map[string]any{"game": info})
}
