package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/razziagame/razzia/internal/store"
)

// chatWrite runs a chat write of game id with fence
// (store.CheckChatWrite) and announces it.
func (s *Store) chatWrite(ctx context.Context, id string, fence store.Fence, what string, f func(w *wtx) error) error {
	return s.write(ctx, what+" of game "+id, func(w *wtx) (*store.Change, error) {
		row, err := w.game(id)
		if err != nil {
			return nil, err
		}
		if err := store.CheckChatWrite(id, row.status, row.lease, fence, w.now); err != nil {
			return nil, fmt.Errorf("sqlite: %w", err)
		}
		if err := f(w); err != nil {
			return nil, err
		}
		return &store.Change{Game: id, Kind: store.ChangeChat, Moves: row.moves, Status: row.status}, nil
	})
}

// AddChat implements store.Store.
func (s *Store) AddChat(ctx context.Context, id string, fence store.Fence, m store.ChatLine) error {
	if err := m.Check(id); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.chatWrite(ctx, id, fence, "store a chat message", func(w *wtx) error {
		_, err := w.execSQL(`
			INSERT INTO chat_lines (game_id, seq, channel, sender, seat, name, phrase, text, move, at)
			SELECT ?, COALESCE(MAX(seq) + 1, 0), ?, ?, ?, ?, ?, ?, ?, ? FROM chat_lines WHERE game_id = ?`,
			id, m.Channel, m.From, m.Seat, m.Name, orNil(m.Phrase), orNil(m.Text), m.Move, m.At.UnixNano(), id)
		return err
	})
}

// SetMute implements store.Store.
func (s *Store) SetMute(ctx context.Context, id string, fence store.Fence, m store.Mute, on bool) error {
	if err := m.Check(id); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.chatWrite(ctx, id, fence, "store a mute", func(w *wtx) error {
		var err error
		if on {
			_, err = w.execSQL(`INSERT INTO chat_mutes (game_id, muter, muted) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, id, m.Muter, m.Muted)
		} else {
			_, err = w.execSQL(`DELETE FROM chat_mutes WHERE game_id = ? AND muter = ? AND muted = ?`, id, m.Muter, m.Muted)
		}
		return err
	})
}

// Chat implements store.Store.
func (s *Store) Chat(ctx context.Context, id string) (store.Chat, error) {
	var c store.Chat
	err := s.read(ctx, "read the chat of game "+id, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM games WHERE id = ?", id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("sqlite: game %q: %w", id, store.ErrNotFound)
		}
		rows, err := tx.QueryContext(ctx, `
			SELECT seq, channel, sender, seat, name, phrase, text, move, at, removed FROM chat_lines WHERE game_id = ? ORDER BY seq`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				m            store.ChatLine
				phrase, text sql.NullString
				at           int64
			)
			if err := rows.Scan(&m.Seq, &m.Channel, &m.From, &m.Seat, &m.Name, &phrase, &text, &m.Move, &at, &m.Removed); err != nil {
				return err
			}
			m.Phrase, m.Text, m.At = phrase.String, text.String, fromNanos(at)
			c.Lines = append(c.Lines, m)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		mutes, err := tx.QueryContext(ctx, `SELECT muter, muted FROM chat_mutes WHERE game_id = ? ORDER BY muter, muted`, id)
		if err != nil {
			return err
		}
		defer mutes.Close()
		for mutes.Next() {
			var m store.Mute
			if err := mutes.Scan(&m.Muter, &m.Muted); err != nil {
				return err
			}
			c.Mutes = append(c.Mutes, m)
		}
		return mutes.Err()
	})
	if errors.Is(err, store.ErrNotFound) {
		return store.Chat{}, err
	}
	return c, err
}
