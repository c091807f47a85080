package tui

import (
	"testing"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
)

// The terminal shows every refusal of the server in its language: the
// limits' codes too. A table that expired ends the session; too many
// connections does not (the session reconnects later).
func TestServerRefusals(t *testing.T) {
	c, err := client.New("http://localhost:1")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Languages() {
		cat, _ := i18n.Lookup(lang.Tag)
		for _, ci := range protocol.Codes() {
			m := NewRemote(t.Context(), c.Session("k3x7q2m5ab", ""), 0, "", Options{Lang: lang.Tag})
			cmd := m.received(stateMsg{err: &client.Error{Code: ci.Code, Message: "English from the server"}})
			if want := cat.T("error." + string(ci.Code)); m.notice != want || !m.failed {
				t.Errorf("%s %s: notice %q, want %q", lang.Tag, ci.Code, m.notice, want)
			}
			ends := ci.Code == protocol.NotFound || ci.Code == protocol.TableExpired
			if (m.remote.ended != nil) != ends || (cmd == nil) != ends {
				t.Errorf("%s: the session ended %v, want %v", ci.Code, m.remote.ended != nil, ends)
			}
		}
	}
}
