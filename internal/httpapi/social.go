package httpapi

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/social"
)

// Follows, blocks and what a profile shows of a player's presence.

// Bounds of follows and blocks changed by one client address: a burst,
// then a few a minute.
const (
	relateRate  = 1.0 / 2
	relateBurst = 30
)

func (s *Server) routeSocial(mux *http.ServeMux) {
	mux.HandleFunc("PUT /api/players/{name}/follow", s.relate(true, true))
	mux.HandleFunc("DELETE /api/players/{name}/follow", s.relate(true, false))
	mux.HandleFunc("PUT /api/players/{name}/block", s.relate(false, true))
	mux.HandleFunc("DELETE /api/players/{name}/block", s.relate(false, false))
	mux.HandleFunc("GET /api/players/{name}/presence", s.playerPresence)
	mux.HandleFunc("GET /api/account/relations", s.relations)
}

// socialError maps an error of the social service to the API's.
func socialError(err error) error {
	var se *social.Error
	if errors.As(err, &se) {
		e := newError(se.Refusal.Code(), "%s", se.Msg)
		if se.Err != nil {
			return &causedError{apiError: e, cause: se.Err}
		}
		return e
	}
	return err
}

// causedError is an apiError with the failure behind it, for the log.
type causedError struct {
	*apiError
	cause error
}

func (e *causedError) Error() string { return e.cause.Error() }

func (e *causedError) Unwrap() error { return e.apiError }

// relate makes the signed-in player follow (or block) the player named in
// the path (on), or stop.
func (s *Server) relate(follow, on bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.withAccount(w, r, func(_ *account.Service, se account.Session) {
			if err := s.relates.allow(s.peerOf(r).key(), s.now()); err != nil {
				s.fail(w, r, err)
				return
			}
			name := r.PathValue("name")
			var err error
			if follow {
				err = s.opts.Social.Follow(r.Context(), se.Account.ID, name, on)
			} else {
				err = s.opts.Social.Block(r.Context(), se.Account.ID, name, on)
			}
			if err != nil {
				s.fail(w, r, socialError(err))
				return
			}
			s.answerPresence(w, r, name)
		})
	}
}

// playerPresence answers whether the player is online and since when
// they are not, their finish rate, and the reader's follow and block.
func (s *Server) playerPresence(w http.ResponseWriter, r *http.Request) {
	s.answerPresence(w, r, r.PathValue("name"))
}

func (s *Server) answerPresence(w http.ResponseWriter, r *http.Request, name string) {
	p, err := s.presenceOf(r, name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// presenceOf describes the player called name for the request's reader.
func (s *Server) presenceOf(r *http.Request, name string) (protocol.PlayerPresence, error) {
	ctx := r.Context()
	a, err := s.opts.Social.ByName(ctx, name)
	if err != nil {
		return protocol.PlayerPresence{}, socialError(err)
	}
	p := protocol.PlayerPresence{Name: a.Name}
	if s.opts.Presence != nil {
		if st, ok := s.shownStatus(a.ID); ok {
			p.Online, p.Activity, p.Away = true, st.Activity.String(), st.Away
			if st.Activity != presence.Lobby {
				p.Game = st.Game
			}
		} else {
			at, ok, err := s.shownLastSeen(ctx, a.ID)
			if err != nil {
				return protocol.PlayerPresence{}, err
			}
			if ok {
				at = at.UTC()
				p.LastSeen = &at
			}
		}
	}
	rate, err := s.opts.Social.FinishRate(ctx, a.ID)
	if err != nil {
		return protocol.PlayerPresence{}, socialError(err)
	}
	p.Finish = finishRate(rate)
	followers, err := s.opts.Social.Followers(ctx, a.ID)
	if err != nil {
		return protocol.PlayerPresence{}, socialError(err)
	}
	p.Followers = len(followers)
	if se, err := s.sessionOf(r); err == nil {
		p.You = se.Account.ID == a.ID
		for _, x := range []struct {
			list func(context.Context, string) ([]string, error)
			set  *bool
		}{{s.opts.Social.Following, &p.Following}, {s.opts.Social.Blocking, &p.Blocking}} {
			ids, err := x.list(ctx, se.Account.ID)
			if err != nil {
				return protocol.PlayerPresence{}, socialError(err)
			}
			_, *x.set = slices.BinarySearch(ids, a.ID)
		}
	}
	return p, nil
}

// relations answers the names of the players the signed-in player
// follows and blocks.
func (s *Server) relations(w http.ResponseWriter, r *http.Request) {
	s.withAccount(w, r, func(svc *account.Service, se account.Session) {
		ctx := r.Context()
		a := protocol.RelationsAnswer{Following: []string{}, Blocking: []string{}}
		for _, x := range []struct {
			list func(context.Context, string) ([]string, error)
			out  *[]string
		}{{s.opts.Social.Following, &a.Following}, {s.opts.Social.Blocking, &a.Blocking}} {
			ids, err := x.list(ctx, se.Account.ID)
			if err != nil {
				s.fail(w, r, socialError(err))
				return
			}
			for _, id := range ids {
				card, err := s.opts.Social.Card(ctx, id)
				if err != nil {
					s.fail(w, r, socialError(err))
					return
				}
				*x.out = append(*x.out, card.Name)
			}
			slices.SortFunc(*x.out, func(a, b string) int { return compareKeys(a, b) })
		}
		writeJSON(w, http.StatusOK, a)
	})
}

func compareKeys(a, b string) int {
	ka, kb := playername.Key(a), playername.Key(b)
	switch {
	case ka < kb:
		return -1
	case ka > kb:
		return 1
	}
	return 0
}

// finishRate is a finish rate as the protocol shows it.
func finishRate(r social.Rate) protocol.FinishRate {
	return protocol.FinishRate{Percent: r.Percent(), Games: r.Games, Left: r.Left}
}
