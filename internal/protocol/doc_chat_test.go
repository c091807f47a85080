package protocol_test

import (
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// chatExamples adds the examples of the table chat.
func chatExamples(add func(string, any)) {
	add("chat-phrase", protocol.ChatSend{Type: protocol.TypeChat, Phrase: "gg"})
	add("chat-text", protocol.ChatSend{Type: protocol.TypeChat, Text: "Well bid, Cy!"})
	at := time.Date(2026, 3, 14, 19, 4, 52, 0, time.UTC)
	seat := 0
	add("chat-mute", protocol.MuteMessage{Type: protocol.TypeMute, Seat: &seat})
	add("chat-message", protocol.ChatMessage{Type: protocol.TypeChat, Lines: []protocol.ChatLine{
		{Seat: 0, Name: "Ann", Channel: protocol.ChannelPlayers, Phrase: "gl", Move: 0, At: at},
		{Seat: 2, Name: "Cy", Channel: protocol.ChannelPlayers, Text: "Who draws the police?", Move: 2, At: at.Add(41 * time.Second)},
		{Seat: -1, Name: "Kim", Channel: protocol.ChannelSpectators, Text: "Cy should call now", Move: 8, At: at.Add(97 * time.Second)},
		{Seat: 0, Name: "Ann", Channel: protocol.ChannelPlayers, Move: 9, At: at.Add(130 * time.Second), Muted: true},
	}, Muted: []int{0}})
	add("error-chat", protocol.ErrorMessage{Type: protocol.TypeError, Code: protocol.ChatTooFast,
		Message: "too many messages; wait 2.4s", RetryAfter: 3})
}
