package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

// InitPushKeys implements store.Push. Nodes starting at once each insert
// their own pair; the primary key keeps the first, and all read it.
func (s *Store) InitPushKeys(ctx context.Context, k store.VAPIDKeys) (store.VAPIDKeys, error) {
	if err := store.CheckVAPIDKeys(k); err != nil {
		return store.VAPIDKeys{}, fmt.Errorf("postgres: %w", err)
	}
	var stored store.VAPIDKeys
	err := s.tx(ctx, "store the VAPID keys", func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO vapid_keys (one, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT DO NOTHING",
			k.Public, k.Private); err != nil {
			return err
		}
		return tx.QueryRow(ctx, "SELECT public_key, private_key FROM vapid_keys WHERE one = 1").Scan(&stored.Public, &stored.Private)
	})
	return stored, err
}

// AddPushSubscription implements store.Push.
func (s *Store) AddPushSubscription(ctx context.Context, p store.PushSubscription, max int) error {
	if err := store.CheckPushSubscription(p, max); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	if p.Created.IsZero() {
		p.Created = time.Now().Round(0)
	}
	return s.tx(ctx, "store a push subscription", func(tx pgx.Tx) error {
		// The account's row lock orders its subscriptions' writers, so
		// that two at once cannot both keep max.
		if err := lockAccount(ctx, tx, p.Account); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO push_subscriptions (endpoint, account_id, p256dh, auth, lang, created) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (endpoint) DO UPDATE SET account_id = excluded.account_id, p256dh = excluded.p256dh,
				auth = excluded.auth, lang = excluded.lang, created = excluded.created`,
			p.Endpoint, p.Account, p.P256dh, p.Auth, p.Lang, p.Created.UnixNano()); err != nil {
			return err
		}
		// The newest max stay; the new one is among them.
		_, err := tx.Exec(ctx, `DELETE FROM push_subscriptions WHERE account_id = $1 AND endpoint NOT IN (
			SELECT endpoint FROM push_subscriptions WHERE account_id = $1
			ORDER BY endpoint = $2 DESC, created DESC, endpoint LIMIT $3)`, p.Account, p.Endpoint, max)
		return err
	})
}

// PushSubscriptions implements store.Push.
func (s *Store) PushSubscriptions(ctx context.Context, account string) ([]store.PushSubscription, error) {
	rows, err := s.pool.Query(ctx, `SELECT endpoint, p256dh, auth, lang, created FROM push_subscriptions
		WHERE account_id = $1 ORDER BY created, endpoint`, account)
	if err != nil {
		return nil, s.fail("read the push subscriptions of "+account, err)
	}
	var (
		subs    []store.PushSubscription
		p       = store.PushSubscription{Account: account}
		created int64
	)
	_, err = pgx.ForEachRow(rows, []any{&p.Endpoint, &p.P256dh, &p.Auth, &p.Lang, &created}, func() error {
		p.Created = fromNanos(created)
		subs = append(subs, p)
		return nil
	})
	if err != nil {
		return nil, s.fail("read the push subscriptions of "+account, err)
	}
	return subs, nil
}

// DeletePushSubscription implements store.Push.
func (s *Store) DeletePushSubscription(ctx context.Context, account, endpoint string) (bool, error) {
	tag, err := s.pool.Exec(ctx, "DELETE FROM push_subscriptions WHERE endpoint = $1 AND ($2 = '' OR account_id = $2)", endpoint, account)
	if err != nil {
		return false, s.fail("delete a push subscription", err)
	}
	return tag.RowsAffected() > 0, nil
}

// PushSettings implements store.Push.
func (s *Store) PushSettings(ctx context.Context, account string) (store.PushSettings, error) {
	var turn, over, remind *bool
	err := s.pool.QueryRow(ctx, `SELECT p.turn, p.game_over, p.reminder FROM accounts a
		LEFT JOIN push_settings p ON p.account_id = a.id WHERE a.id = $1`, account).Scan(&turn, &over, &remind)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.PushSettings{}, fmt.Errorf("postgres: account %q: %w", account, store.ErrNoAccount)
	case err != nil:
		return store.PushSettings{}, s.fail("read the push settings of "+account, err)
	case turn == nil:
		return store.DefaultPushSettings, nil
	}
	return store.PushSettings{Turn: *turn, GameOver: *over, Reminder: *remind}, nil
}

// SetPushSettings implements store.Push.
func (s *Store) SetPushSettings(ctx context.Context, account string, p store.PushSettings) error {
	return s.tx(ctx, "set the push settings of "+account, func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, account); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO push_settings (account_id, turn, game_over, reminder) VALUES ($1, $2, $3, $4)
			ON CONFLICT (account_id) DO UPDATE SET turn = excluded.turn, game_over = excluded.game_over, reminder = excluded.reminder`,
			account, p.Turn, p.GameOver, p.Reminder)
		return err
	})
}
