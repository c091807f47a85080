package tui

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
)

// newLocal returns a model of a local game with the people first, then
// bots of the specs, dealt from seed as razzia play deals, sized 80×24.
func newLocal(t testing.TB, people []string, specs []string, seed uint64, lang string) *Model {
	t.Helper()
	seedBytes := binary.LittleEndian.AppendUint64(nil, seed)
	var seats []Seat
	for _, p := range people {
		seats = append(seats, Seat{Name: p})
	}
	for i, s := range specs {
		b, err := bot.New(s, razzia.SeededRand(seedBytes, fmt.Sprintf("bot %d", len(people)+i)).Uint64())
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, Seat{Name: "Bot " + string(rune('A'+i)), Bot: b})
	}
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.Name
	}
	g, err := razzia.NewGame(razzia.NewSetup(names, seedBytes))
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewLocal(g, seats, Options{Lang: lang})
	if err != nil {
		t.Fatal(err)
	}
	_, cmd := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	drain(m, cmd)
	return m
}

// screen returns the model's screen without ANSI codes, as a person reads
// it: a no-break space is a space.
func screen(m *Model) string {
	return strings.ReplaceAll(ansi.Strip(m.Render()), "\u00a0", " ")
}

// press sends keys to the model, running the commands they return
// synchronously so that bots move at once; it returns the last command's
// messages handled.
func press(m *Model, keys ...string) {
	for _, k := range keys {
		drain(m, m.key(keyMsg(k)))
	}
}

// drain runs a command and feeds its message back, until none is left.
func drain(m *Model, cmd tea.Cmd) {
	for cmd != nil {
		msg := cmd()
		switch msg := msg.(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				drain(m, c)
			}
			return
		case nil:
			return
		case tea.QuitMsg:
			return
		default:
			_, cmd = m.Update(msg)
		}
	}
}

// keyMsg builds the key press a terminal would send for a key's name.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+z":
		return tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// scripted returns a model of a three-player game (Ann at the keyboard,
// two random bots) after the moves, from the rulebook's cheque sets: Ann
// holds 2 5 8 13 and starts (R4).
func scripted(t testing.TB, lang string, moves ...string) *Model {
	t.Helper()
	seats := []Seat{{Name: "Ann"}}
	for i, n := range []string{"Bert", "Cleo"} {
		b, err := bot.New("random", uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, Seat{Name: n, Bot: b})
	}
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bert", "Cleo"}, Seed: []byte("scripted")})
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range moves {
		if err := g.PlayToken(mv); err != nil {
			t.Fatal(err)
		}
	}
	m, err := NewLocal(g, seats, Options{Lang: lang})
	if err != nil {
		t.Fatal(err)
	}
	_, cmd := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	drain(m, cmd)
	return m
}

// auctionMoves lead to a forced auction Bert called in which Cleo bid 7
// and Ann is to decide; Ann holds a car and a ring and cheque 1 face down,
// and a thief is in the row.
var auctionMoves = []string{
	"draw car", "draw ring", "call", // Cleo calls; Ann, Bert, Cleo decide
	"bid 5", "pass", "pass", // Ann wins car and ring, and cheque 1
	"draw thief", "call", // Ann draws, Bert calls; Cleo, Ann, Bert decide
	"bid 7",
}
