package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/razziagame/razzia/internal/protocol"
)

// routeRematch serves the rematch of a finished game.
func (s *Server) routeRematch(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/games/{id}/rematch", s.rematch)
}

// rematch offers, accepts or declines the rematch of a finished game for
// the seat the request holds. An offer or an acceptance counts as a table
// created, for the client's rate limit. A guest who accepts gets the
// rematch's seat cookie, holding the same token: the seat carries over;
// the answer carries the seat's token at the rematch.
func (s *Server) rematch(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var req protocol.RematchMessage
	if err := decode(w, r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	if req.Accept == nil || req.Type != "" && req.Type != protocol.TypeRematch {
		s.fail(w, r, newError(protocol.BadRequest, `a rematch answer is {"accept": true} (offer or accept) or {"accept": false} (decline)`))
		return
	}
	p := s.peerOf(r)
	if *req.Accept {
		err := s.creates.allow(p.key(), s.now())
		if err == nil {
			err = s.barred(r, "")
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
	}
	token := tokenOf(r, id, false)
	offer, err := s.hub.Rematch(r.Context(), id, token, *req.Accept)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := protocol.RematchAnswer{Offer: offer}
	if *req.Accept {
		if out.Token = token; token == accountSeatToken(r, id) {
			out.Token = accountSeatToken(r, offer.Game) // the account holds its seats
		} else {
			setCookie(w, p, cookieName(offer.Game), token)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// wsRematch answers a "rematch" message: as POST /api/games/{id}/rematch,
// but the seat's cookie for the rematch is the client's to keep (a
// program holds its token; a page posts over HTTP).
func (w *wsConn) rematch(ctx context.Context, m *inbound) error {
	msg := protocol.RematchMessage{Type: m.Type, Accept: m.Accept}
	if msg.Accept == nil {
		return w.error(ctx, protocol.BadMessage, 0, `a "rematch" message needs "accept": true (offer or accept) or false (decline)`)
	}
	if *msg.Accept {
		if err := w.s.creates.allow(w.client, w.s.now()); err != nil {
			return w.answer(ctx, "rematch", err)
		}
		if m := w.s.opts.Moderation; m != nil && w.account != "" {
			if err := m.Barred(w.account); err != nil {
				return w.answer(ctx, "rematch", err)
			}
		}
	}
	_, err := w.s.hub.Rematch(ctx, w.id, w.token, *msg.Accept)
	return w.answer(ctx, "rematch", err)
}

// rematchOfferMessage encodes the "rematchOffer" message.
func rematchOfferMessage(o protocol.RematchOffer) ([]byte, error) {
	return json.Marshal(protocol.RematchOfferMessage{Type: protocol.TypeRematchOffer, Offer: o})
}
