package httpapi_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/table"
)

// readChat reads until a chat message.
func (c *client) readChat() message {
	c.t.Helper()
	for {
		if m := c.read(); m.Type == protocol.TypeChat {
			return m
		}
	}
}

// TestChatOverWebSocket: a quick phrase reaches both players and a
// spectator as a "chat" message; each refusal comes back to its sender
// only, with its code; the replay carries the players' channel.
func TestChatOverWebSocket(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id, _, _, mover, other := twoPlayers(t, e)
	spectator := e.dial(id)
	spectator.read()
	mover.send(`{"type":"chat","phrase":"gl"}`)
	seat := -1
	for name, c := range map[string]*client{"the sender": mover, "the other player": other, "a spectator": spectator} {
		m := c.readChat()
		if len(m.Lines) != 1 || m.Lines[0].Phrase != "gl" || m.Lines[0].Channel != protocol.ChannelPlayers || m.Lines[0].Name == "" {
			t.Fatalf("%s read %s", name, m.raw)
		}
		seat = m.Lines[0].Seat
	}
	for _, c := range []struct {
		name string
		c    *client
		text string
		code protocol.Code
	}{
		{"a guest's free text", mover, `{"type":"chat","text":"hello"}`, protocol.ChatSignIn},
		{"an anonymous spectator", spectator, `{"type":"chat","phrase":"gg"}`, protocol.ChatSignIn},
		{"an unknown phrase", mover, `{"type":"chat","phrase":"<script>"}`, protocol.ChatNotAllowed},
		{"phrase and text", mover, `{"type":"chat","phrase":"gg","text":"hi"}`, protocol.BadMessage},
		{"neither", mover, `{"type":"chat"}`, protocol.BadMessage},
		{"an unknown field", mover, `{"type":"chat","phrase":"gg","to":1}`, protocol.BadMessage},
		{"muting oneself", mover, fmt.Sprintf(`{"type":"mute","seat":%d}`, seat), protocol.ChatNotAllowed},
		{"muting no seat", mover, `{"type":"mute"}`, protocol.BadMessage},
		{"muting a seat not there", mover, `{"type":"mute","seat":7}`, protocol.ChatNotAllowed},
		{"a negative seat", mover, `{"type":"unmute","seat":-1}`, protocol.BadMessage},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.c.send(c.text)
			c.c.wantError(c.code)
		})
	}
	resp, body := e.do("GET", "/api/games/"+id+"/replay", "")
	if resp.StatusCode != 200 {
		t.Fatalf("replay: %d", resp.StatusCode)
	}
	chat, _ := body["chat"].([]any)
	if line, _ := firstOf(chat).(map[string]any); len(chat) != 1 || line["phrase"] != "gl" || line["move"] != 0.0 {
		t.Errorf("the replay's chat: %v", body["chat"])
	}
}

func firstOf(s []any) any {
	if len(s) == 0 {
		return nil
	}
	return s[0]
}

// playBoth plays the seats of the connections (the first legal move at
// each turn), reading each one's states, until the game is over: each
// turn, once every connection saw the same move, the one to move moves.
func playBoth(t *testing.T, cs ...*client) {
	t.Helper()
	latest := make([]message, len(cs))
	for {
		target := 0
		for _, m := range latest {
			if m.View != nil {
				target = max(target, m.View.Moves)
			}
		}
		for i, c := range cs {
			for latest[i].View == nil || latest[i].View.Moves < target {
				if m := c.read(); m.Type == protocol.TypeState {
					latest[i] = m
				}
			}
		}
		if latest[0].Game.Status == protocol.StatusFinished {
			return
		}
		same := true
		for _, m := range latest {
			same = same && m.View.Moves == latest[0].View.Moves
		}
		if !same {
			continue
		}
		at := latest[0].View.Moves
		for i, m := range latest {
			if v := m.View; v.ToMove == m.Seat && len(v.Legal) > 0 {
				cs[i].send(moveMessage(v.Legal[0], v.Moves))
				break
			}
		}
		// Wait for the move's state.
		for latest[0].View.Moves == at {
			if m := cs[0].read(); m.Type == protocol.TypeState {
				latest[0] = m
			}
		}
	}
}

// TestChatAfterGameOverWebSocket: at game over the connections stay open
// for the chat after the game: "Well played" from one player reaches the
// other, with its rules (limits, sign-in, mutes); the replay shows it
// after the last move; 24 hours after the end it is refused, chat_closed.
func TestChatAfterGameOverWebSocket(t *testing.T) {
	var late atomic.Int64 // how far the server's clock is ahead
	srv := servertest.New(t, servertest.Options{API: httpapi.Options{MessageRate: 1e6, MessageBurst: 1 << 20}, Page: true,
		Hub: table.Options{Now: func() time.Time { return time.Now().Add(time.Duration(late.Load())) }}})
	e := &env{Server: srv, t: t, ctx: servertest.Context(t)}
	id, _, _, mover, other := twoPlayers(t, e)
	mover.send(moveMessage("draw", 0))
	playBoth(t, mover, other)

	mover.send(`{"type":"chat","phrase":"wp"}`)
	var moverSeat int
	for name, c := range map[string]*client{"the sender": mover, "the other player": other} {
		m := c.readChat()
		if len(m.Lines) != 1 || m.Lines[0].Phrase != "wp" || m.Lines[0].Channel != protocol.ChannelPlayers {
			t.Fatalf("%s read %s after the game", name, m.raw)
		}
		moverSeat = m.Lines[0].Seat
	}
	// The rules hold after the game.
	other.send(`{"type":"chat","text":"gg"}`)
	other.wantError(protocol.ChatSignIn)
	other.send(`{"type":"chat","text":"gg","phrase":"gg"}`)
	other.wantError(protocol.BadMessage)
	other.send(fmt.Sprintf(`{"type":"mute","seat":%d}`, moverSeat))
	if m := other.readChat(); len(m.Muted) != 1 || m.Muted[0] != moverSeat {
		t.Fatalf("the other player after muting: %s", m.raw)
	}
	for range chat.DefaultLimits.Burst - 1 {
		mover.send(`{"type":"chat","phrase":"thanks"}`)
		if m := other.readChat(); len(m.Lines) != 1 || !m.Lines[0].Muted || m.Lines[0].Phrase != "" {
			t.Fatalf("the other player read %s from a player muted", m.raw)
		}
	}
	mover.send(`{"type":"chat","phrase":"bye"}`)
	if m := mover.wantError(protocol.ChatTooFast); m.RetryAfter <= 0 {
		t.Errorf("too fast after the game: %s, want retryAfter", m.raw)
	}

	resp, body := e.do("GET", "/api/games/"+id+"/replay", "")
	if resp.StatusCode != 200 {
		t.Fatalf("replay: %d", resp.StatusCode)
	}
	game, _ := body["game"].(map[string]any)
	lines, _ := body["chat"].([]any)
	if line, _ := firstOf(lines).(map[string]any); len(lines) != chat.DefaultLimits.Burst || line["phrase"] != "wp" || line["move"] != game["moves"] {
		t.Errorf("the replay's chat %v: want %d lines, \"wp\" first, at move %v (after the last)", lines, chat.DefaultLimits.Burst, game["moves"])
	}

	late.Store(int64(chat.AfterGame + time.Minute))
	other.send(`{"type":"chat","phrase":"gg"}`)
	other.wantError(protocol.ChatClosed)
	other.send(fmt.Sprintf(`{"type":"unmute","seat":%d}`, moverSeat))
	other.wantError(protocol.ChatClosed)
}
