package account

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"

	"github.com/razziagame/razzia/internal/store"
)

// SeatToken returns the secret token of the account's seat at game id:
// derived from the account's seat key, so that every device the account
// signs in on holds the seat, and nobody without the key (kept by the
// server only) can compute it. Its hash is what the seat stores. The
// account must be one the Service returned.
func SeatToken(a Account, game string) string {
	if a.rec == nil {
		panic("account: SeatToken of an Account the Service did not return")
	}
	m := hmac.New(sha256.New, a.rec.SeatKey)
	m.Write([]byte("razzia seat\x00" + game))
	// 26 characters of base32, as a guest's token (128 bits and more).
	return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(m.Sum(nil))[:26]
}

// SeatTokenOf returns SeatToken of the account with the id at game: the
// table Hub seats a signed-in player at their rematch with it
// (table.Options.SeatToken).
func (s *Service) SeatTokenOf(ctx context.Context, id, game string) (string, error) {
	a, err := s.st.Account(ctx, id)
	if err != nil {
		return "", err
	}
	return SeatToken(accountOf(a), game), nil
}

// A GuestSeat is a seat a browser holds as a guest: the game and the
// seat's token (its cookie).
type GuestSeat struct {
	Game  string
	Token string
}

// MaxClaims bounds the guest seats one request may give an account.
const MaxClaims = 200

// Claim gives the account the guest seats the browser holds, at games
// where the account holds no seat yet, so that the player who registers
// keeps the games played as a guest: from now on the seat's token is the
// account's. It returns the games claimed.
func (s *Service) Claim(ctx context.Context, a Account, seats []GuestSeat) ([]string, error) {
	if len(seats) > MaxClaims {
		seats = seats[:MaxClaims]
	}
	claims := make([]store.Claim, 0, len(seats))
	for _, g := range seats {
		if g.Token == "" {
			continue
		}
		claims = append(claims, store.Claim{Game: g.Game, OldHash: hashOf(g.Token), NewHash: hashOf(SeatToken(a, g.Game))})
	}
	if len(claims) == 0 {
		return nil, nil
	}
	games, err := s.st.ClaimSeats(ctx, a.rec.ID, claims)
	if err != nil {
		return nil, s.internal("claim seats", err)
	}
	if len(games) > 0 {
		s.log.Info("guest seats claimed", "account", a.rec.ID, "games", len(games))
	}
	return games, nil
}
