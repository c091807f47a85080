package httpapi

import (
	"testing"

	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestAwayBeforePresence: a table socket's page may say it is hidden
// before the socket's writer has made its presence (a page opened in a
// background tab says so at once, and the writer makes the presence when
// it takes the table's first state). The seat is hidden once the
// presence is made, by the page's last word; and a word after it counts
// at once.
func TestAwayBeforePresence(t *testing.T) {
	tests := []struct {
		name   string
		before []bool // the page's words before the presence is made
		after  []bool // and after
		want   bool   // the seat is away
	}{
		{"hidden before", []bool{true}, nil, true},
		{"hidden, then shown, before", []bool{true, false}, nil, false},
		{"shown, then hidden, before", []bool{false, true}, nil, true},
		{"hidden before, shown after", []bool{true}, []bool{false}, false},
		{"nothing before, hidden after", nil, []bool{true}, true},
		{"nothing said", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := presence.New(memstore.New(), presence.Options{Node: "n"})
			w := &wsConn{s: &Server{}, id: "g", pres: &tablePresence{}}
			for _, away := range tt.before {
				if err := w.pres.setAway(t.Context(), away); err != nil {
					t.Fatal(err)
				}
			}
			c, err := svc.Connect(t.Context(), presence.Person{Key: "k", Name: "Bob"}, "g", 1)
			if err != nil {
				t.Fatal(err)
			}
			w.connected(t.Context(), c)
			for _, away := range tt.after {
				if err := w.pres.setAway(t.Context(), away); err != nil {
					t.Fatal(err)
				}
			}
			st, ok := svc.Seats("g")[1]
			if !ok || st.Away != tt.want {
				t.Errorf("seat 1 = %+v (present %v), want away %v", st, ok, tt.want)
			}
		})
	}
}
