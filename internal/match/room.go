package match

import (
	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/store"
)

// RoomOf returns a chat room with the stored mutes.
func RoomOf(mutes []store.Mute) *chat.Room {
	room := chat.NewRoom(chat.DefaultLimits)
	for _, m := range mutes {
		room.Mute(m.Muter, m.Muted)
	}
	return room
}

// roomNow returns the chat room as it is, to read: an empty one until the
// host sets it, which deciding does not keep.
func (m *Match) roomNow() *chat.Room {
	if m.Room == nil {
		return RoomOf(nil)
	}
	return m.Room
}

// room returns the chat room, to change: empty until the host sets it.
func (m *Match) room() *chat.Room {
	if m.Room == nil {
		m.Room = RoomOf(nil)
	}
	return m.Room
}
