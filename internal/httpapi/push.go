package httpapi

import (
	"errors"
	"net/http"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/push"
)

// routePush adds the Web Push routes to mux: only a server
// with accounts and Options.Push has them. The service worker that shows
// the notifications is served at /sw.js by every server, so that its
// scope is the whole site.
func (s *Server) routePush(mux *http.ServeMux) {
	mux.Handle("GET /sw.js", push.ServiceWorker())
	if s.opts.Push == nil || s.opts.Accounts == nil {
		return
	}
	mux.HandleFunc("GET /api/push/key", s.pushKey)
	mux.HandleFunc("POST /api/push/subscriptions", s.pushSubscribe)
	mux.HandleFunc("DELETE /api/push/subscriptions", s.pushUnsubscribe)
	mux.HandleFunc("GET /api/push/settings", s.pushSettings)
	mux.HandleFunc("PUT /api/push/settings", s.setPushSettings)
}

// pushError maps the errors of the push service to the protocol's.
func pushError(err error) error {
	var se *push.SubscriptionError
	switch {
	case errors.As(err, &se):
		return newError(protocol.BadSubscription, "%s", se.Error())
	case errors.Is(err, notify.ErrNoAccount):
		return newError(protocol.Unauthorized, "the account is gone: sign in again")
	}
	return err
}

func (s *Server) pushKey(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, protocol.PushKeyAnswer{Key: s.opts.Push.PublicKey()})
}

func (s *Server) pushSubscribe(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(_ *account.Service, se account.Session) {
		var req protocol.PushSubscribeRequest
		if err := decode(w, r, &req); err != nil {
			s.fail(w, r, err)
			return
		}
		lang := req.Lang
		if lang == "" {
			lang = i18n.Match(r.Header.Get("Accept-Language"))
		}
		sub := push.Subscription{Endpoint: req.Endpoint, Keys: push.BrowserKeys{P256dh: req.Keys.P256dh, Auth: req.Keys.Auth}}
		stored, err := s.opts.Push.Subscribe(r.Context(), se.Account.ID, sub, lang)
		if err != nil {
			s.fail(w, r, pushError(err))
			return
		}
		writeJSON(w, http.StatusCreated, protocol.PushSubscriptionAnswer{Endpoint: stored.Endpoint, Lang: stored.Lang})
	})
}

func (s *Server) pushUnsubscribe(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(_ *account.Service, se account.Session) {
		endpoint := r.URL.Query().Get("endpoint")
		if endpoint == "" {
			s.fail(w, r, newError(protocol.BadRequest, "name the subscription: ?endpoint=<its endpoint URL>"))
			return
		}
		ok, err := s.opts.Push.Unsubscribe(r.Context(), se.Account.ID, endpoint)
		if err != nil {
			s.fail(w, r, pushError(err))
			return
		}
		if !ok {
			s.fail(w, r, newError(protocol.NotFound, "your account has no push subscription with that endpoint"))
			return
		}
		writeJSON(w, http.StatusOK, struct{}{})
	})
}

// answerPushSettings writes the account's push settings.
func (s *Server) answerPushSettings(w http.ResponseWriter, r *http.Request, se account.Session) {
	p, devices, err := s.opts.Push.Settings(r.Context(), se.Account.ID)
	if err != nil {
		s.fail(w, r, pushError(err))
		return
	}
	writeJSON(w, http.StatusOK, protocol.PushSettingsAnswer{Devices: devices,
		Settings: protocol.PushSettings{Turn: p.Turn, GameOver: p.GameOver, Reminder: p.Reminder}})
}

func (s *Server) pushSettings(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(_ *account.Service, se account.Session) { s.answerPushSettings(w, r, se) })
}

func (s *Server) setPushSettings(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(_ *account.Service, se account.Session) {
		var req protocol.PushSettings
		if err := decode(w, r, &req); err != nil {
			s.fail(w, r, err)
			return
		}
		p := notify.Settings{Turn: req.Turn, GameOver: req.GameOver, Reminder: req.Reminder}
		if err := s.opts.Push.SetSettings(r.Context(), se.Account.ID, p); err != nil {
			s.fail(w, r, pushError(err))
			return
		}
		s.answerPushSettings(w, r, se)
	})
}
