package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// InitPushKeys implements store.Push.
func (s *Store) InitPushKeys(ctx context.Context, k store.VAPIDKeys) (store.VAPIDKeys, error) {
	if err := store.CheckVAPIDKeys(k); err != nil {
		return store.VAPIDKeys{}, fmt.Errorf("sqlite: %w", err)
	}
	var stored store.VAPIDKeys
	err := s.write(ctx, "store the VAPID keys", func(w *wtx) (*store.Change, error) {
		if _, err := w.execSQL("INSERT INTO vapid_keys (one, public_key, private_key) VALUES (1, ?, ?) ON CONFLICT DO NOTHING",
			k.Public, k.Private); err != nil {
			return nil, err
		}
		return nil, w.rowSQL("SELECT public_key, private_key FROM vapid_keys WHERE one = 1").Scan(&stored.Public, &stored.Private)
	})
	return stored, err
}

// AddPushSubscription implements store.Push.
func (s *Store) AddPushSubscription(ctx context.Context, p store.PushSubscription, max int) error {
	if err := store.CheckPushSubscription(p, max); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	if p.Created.IsZero() {
		p.Created = time.Now().Round(0)
	}
	return s.write(ctx, "store a push subscription", func(w *wtx) (*store.Change, error) {
		if err := w.accountExists(p.Account); err != nil {
			return nil, err
		}
		if _, err := w.execSQL(`INSERT INTO push_subscriptions (endpoint, account_id, p256dh, auth, lang, created) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (endpoint) DO UPDATE SET account_id = excluded.account_id, p256dh = excluded.p256dh,
				auth = excluded.auth, lang = excluded.lang, created = excluded.created`,
			p.Endpoint, p.Account, p.P256dh, p.Auth, p.Lang, p.Created.UnixNano()); err != nil {
			return nil, err
		}
		// The newest max stay; the new one is among them.
		_, err := w.execSQL(`DELETE FROM push_subscriptions WHERE account_id = ? AND endpoint NOT IN (
			SELECT endpoint FROM push_subscriptions WHERE account_id = ?
			ORDER BY endpoint = ? DESC, created DESC, endpoint LIMIT ?)`, p.Account, p.Account, p.Endpoint, max)
		return nil, err
	})
}

// PushSubscriptions implements store.Push.
func (s *Store) PushSubscriptions(ctx context.Context, account string) ([]store.PushSubscription, error) {
	var subs []store.PushSubscription
	err := s.read(ctx, "read the push subscriptions of "+account, func(tx *sql.Tx) error {
		subs = nil
		rows, err := tx.QueryContext(ctx, `SELECT endpoint, p256dh, auth, lang, created FROM push_subscriptions
			WHERE account_id = ? ORDER BY created, endpoint`, account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			p := store.PushSubscription{Account: account}
			var created int64
			if err := rows.Scan(&p.Endpoint, &p.P256dh, &p.Auth, &p.Lang, &created); err != nil {
				return err
			}
			p.Created = fromNanos(created)
			subs = append(subs, p)
		}
		return rows.Err()
	})
	return subs, err
}

// DeletePushSubscription implements store.Push.
func (s *Store) DeletePushSubscription(ctx context.Context, account, endpoint string) (bool, error) {
	var n int64
	err := s.write(ctx, "delete a push subscription", func(w *wtx) (*store.Change, error) {
		res, err := w.execSQL("DELETE FROM push_subscriptions WHERE endpoint = ? AND (? = '' OR account_id = ?)", endpoint, account, account)
		if err != nil {
			return nil, err
		}
		n, err = res.RowsAffected()
		return nil, err
	})
	return n > 0, err
}

// PushSettings implements store.Push.
func (s *Store) PushSettings(ctx context.Context, account string) (store.PushSettings, error) {
	var p store.PushSettings
	err := s.read(ctx, "read the push settings of "+account, func(tx *sql.Tx) error {
		var turn, over, remind sql.NullBool
		err := tx.QueryRowContext(ctx, `SELECT p.turn, p.game_over, p.reminder FROM accounts a
			LEFT JOIN push_settings p ON p.account_id = a.id WHERE a.id = ?`, account).Scan(&turn, &over, &remind)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("sqlite: account %q: %w", account, store.ErrNoAccount)
		case err != nil:
			return err
		case !turn.Valid:
			p = store.DefaultPushSettings
		default:
			p = store.PushSettings{Turn: turn.Bool, GameOver: over.Bool, Reminder: remind.Bool}
		}
		return nil
	})
	return p, err
}

// SetPushSettings implements store.Push.
func (s *Store) SetPushSettings(ctx context.Context, account string, p store.PushSettings) error {
	return s.write(ctx, "set the push settings of "+account, func(w *wtx) (*store.Change, error) {
		if err := w.accountExists(account); err != nil {
			return nil, err
		}
		_, err := w.execSQL(`INSERT INTO push_settings (account_id, turn, game_over, reminder) VALUES (?, ?, ?, ?)
			ON CONFLICT (account_id) DO UPDATE SET turn = excluded.turn, game_over = excluded.game_over, reminder = excluded.reminder`,
			account, p.Turn, p.GameOver, p.Reminder)
		return nil, err
	})
}
