package table

import (
	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// tellSeat sends the seat's watchers the state: a change only they see.
func (l *loop) tellSeat(seat int) {
	info := l.info()
	c := &change{}
	for s := range l.subs {
		if s.seat == seat {
			l.send(s, info, map[int][]razzia.Event{}, c, map[int]*protocol.View{})
		}
	}
}
