package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

// chatWrite runs a chat write of game id with fence
// (store.CheckChatWrite), the game's row locked (so that messages are
// numbered one after another, whichever node writes them), and announces
// it.
func (s *Store) chatWrite(ctx context.Context, id string, fence store.Fence, what string, f func(tx pgx.Tx) error) error {
	return s.tx(ctx, what+" of game "+id, func(tx pgx.Tx) error {
		row, err := lockGame(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := store.CheckChatWrite(id, row.status, row.lease, fence, row.now); err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
		if err := f(tx); err != nil {
			return err
		}
		return notify(ctx, tx, store.Change{Game: id, Kind: store.ChangeChat, Moves: row.moves, Status: row.status})
	})
}

// AddChat implements store.Store.
func (s *Store) AddChat(ctx context.Context, id string, fence store.Fence, m store.ChatLine) error {
	if err := m.Check(id); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.chatWrite(ctx, id, fence, "store a chat message", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `
			INSERT INTO chat_lines (game_id, seq, channel, sender, seat, name, phrase, text, move, at)
			SELECT $1, COALESCE(MAX(seq) + 1, 0), $2, $3, $4, $5, $6, $7, $8, $9 FROM chat_lines WHERE game_id = $1`,
			id, m.Channel, m.From, m.Seat, m.Name, orNil(m.Phrase), orNil(m.Text), m.Move, m.At.UnixNano())
		return err
	})
}

// SetMute implements store.Store.
func (s *Store) SetMute(ctx context.Context, id string, fence store.Fence, m store.Mute, on bool) error {
	if err := m.Check(id); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.chatWrite(ctx, id, fence, "store a mute", func(tx pgx.Tx) error {
		var err error
		if on {
			_, err = tx.Exec(ctx, `INSERT INTO chat_mutes (game_id, muter, muted) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, id, m.Muter, m.Muted)
		} else {
			_, err = tx.Exec(ctx, `DELETE FROM chat_mutes WHERE game_id = $1 AND muter = $2 AND muted = $3`, id, m.Muter, m.Muted)
		}
		return err
	})
}

// Chat implements store.Store.
func (s *Store) Chat(ctx context.Context, id string) (store.Chat, error) {
	var c store.Chat
	err := s.tx(ctx, "read the chat of game "+id, func(tx pgx.Tx) error {
		var one int
		err := tx.QueryRow(ctx, "SELECT 1 FROM games WHERE id = $1", id).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: game %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `
			SELECT seq, channel, sender, seat, name, phrase, text, move, at, removed FROM chat_lines WHERE game_id = $1 ORDER BY seq`, id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var (
				m            store.ChatLine
				phrase, text *string
				at           int64
			)
			if err := rows.Scan(&m.Seq, &m.Channel, &m.From, &m.Seat, &m.Name, &phrase, &text, &m.Move, &at, &m.Removed); err != nil {
				rows.Close()
				return err
			}
			if phrase != nil {
				m.Phrase = *phrase
			}
			if text != nil {
				m.Text = *text
			}
			m.At = fromNanos(at)
			c.Lines = append(c.Lines, m)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		mutes, err := tx.Query(ctx, `SELECT muter, muted FROM chat_mutes WHERE game_id = $1 ORDER BY muter, muted`, id)
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
	if err != nil {
		return store.Chat{}, err
	}
	return c, nil
}
