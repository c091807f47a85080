package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
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
