package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/razziagame/razzia"
)

// A family is a group of kinds that look alike on the table: one symbol and
// one colour, so that a player who cannot tell the colours apart still tells
// the groups apart by their symbols.
type family struct {
	symbol string
	colour color.Color
	kinds  []razzia.Kind
}

// families lists the groups in the order of the score table (R16, R17).
var families = []family{
	{"✦", lipgloss.Color("12"), []razzia.Kind{razzia.Thief}},
	{"■", lipgloss.Color("13"), []razzia.Kind{razzia.Bodyguard}},
	{"▲", lipgloss.Color("10"), []razzia.Kind{razzia.Car, razzia.Driver}},
	{"♦", lipgloss.Color("9"), razzia.Jewels[:]},
	{"●", lipgloss.Color("11"), []razzia.Kind{razzia.Gold}},
	{"♣", lipgloss.Color("173"), razzia.Businesses[:]},
}

// policeSymbol marks police cards, on the track and in the row's auction.
const policeSymbol = "★"

var policeColour = lipgloss.Color("14")

// familyOf returns the family of a loot kind.
func familyOf(k razzia.Kind) family {
	for _, f := range families {
		for _, fk := range f.kinds {
			if fk == k {
				return f
			}
		}
	}
	return family{symbol: policeSymbol, colour: policeColour}
}

// Styles. Colour always comes with a symbol or a word: NO_COLOR (handled by
// Bubble Tea's colour profile) leaves every distinction readable.
var (
	titleStyle    = lipgloss.NewStyle().Bold(true)
	dimStyle      = lipgloss.NewStyle().Faint(true)
	boldStyle     = lipgloss.NewStyle().Bold(true)
	selectedStyle = lipgloss.NewStyle().Reverse(true).Bold(true)
	noticeStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("11")).Bold(true)
	errorStyle    = lipgloss.NewStyle().Foreground(lipgloss.Color("9")).Bold(true)
	winStyle      = lipgloss.NewStyle().Foreground(lipgloss.Color("10")).Bold(true)
)

// paint renders s in the colour c.
func paint(c color.Color, s string) string {
	return lipgloss.NewStyle().Foreground(c).Render(s)
}
