package notify

import (
	"testing"

	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
)

// TestWhoIsTold: at a correspondence table every alert is pushed, at
// others only to a player not watching; each kind can be switched off.
func TestWhoIsTold(t *testing.T) {
	all := settingsOf(store.DefaultPushSettings)
	for _, c := range []struct {
		name     string
		alert    table.Alert
		settings Settings
		want     bool
	}{
		{"live turn, away", table.Alert{Kind: table.AlertTurn, Pace: pace.Live}, all, true},
		{"live turn, watching", table.Alert{Kind: table.AlertTurn, Pace: pace.Live, Watching: true}, all, false},
		{"untimed game over, watching", table.Alert{Kind: table.AlertGameOver, Pace: pace.Untimed, Watching: true}, all, false},
		{"correspondence turn, watching", table.Alert{Kind: table.AlertTurn, Pace: pace.Correspondence, Watching: true}, all, true},
		{"turns off", table.Alert{Kind: table.AlertTurn, Pace: pace.Correspondence}, Settings{GameOver: true, Reminder: true}, false},
		{"game over off", table.Alert{Kind: table.AlertGameOver, Pace: pace.Correspondence}, Settings{Turn: true, Reminder: true}, false},
		{"reminders off", table.Alert{Kind: table.AlertReminder, Pace: pace.Correspondence}, Settings{Turn: true, GameOver: true}, false},
		{"reminder on", table.Alert{Kind: table.AlertReminder, Pace: pace.Correspondence}, Settings{Reminder: true}, true},
		{"unknown kind", table.Alert{Pace: pace.Correspondence}, all, false},
	} {
		if got := pushed(c.alert) && wanted(c.alert, c.settings); got != c.want {
			t.Errorf("%s: told %v, want %v", c.name, got, c.want)
		}
	}
}
