package account

import (
	"context"
	"errors"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/rating"
	"github.com/razziagame/razzia/internal/store"
)

// Rating returns the account's rating as shown (its display), as it was
// when the Service returned the account.
func (a Account) Rating() int {
	if a.rec == nil {
		return 0
	}
	return rating.Rating{Mu: a.rec.Rating.Mu, Sigma: a.rec.Rating.Sigma}.Display()
}

// Find returns the account called name (compared as names are), for a
// challenge: an unknown name is an error wrapping store.ErrNoAccount.
func (s *Service) Find(ctx context.Context, name string) (Account, error) {
	a, err := s.st.AccountByKey(ctx, playername.Key(name))
	if errors.Is(err, store.ErrNoAccount) {
		return Account{}, err
	}
	if err != nil {
		return Account{}, s.internal("read account", err)
	}
	return accountOf(a), nil
}
