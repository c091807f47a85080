package i18n

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

// rawKey matches a catalogue key showing through instead of its text.
var rawKey = regexp.MustCompile(`\b(event|card|term|cards|list)\.[a-z]`)

var cardTokens = func() []string {
	var t []string
	for _, k := range razzia.Kinds {
		t = append(t, k.String())
	}
	return t
}()

// playedEvents plays seeded games with players taking the first, last or a
// middle legal move in turn, and returns their events: every kind occurs.
func playedEvents(t *testing.T) ([]razzia.Event, []string) {
	t.Helper()
	players := []string{"Ann", "Bob", "Cy"}
	var all []razzia.Event
	for seed := range 6 {
		g, err := razzia.NewGame(razzia.Setup{Players: players, Seed: []byte{byte(seed)}})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; ; i++ {
			if s := g.State(); s.Over() {
				break
			}
			legal := g.LegalMoves()
			m := legal[(i*(seed+1))%len(legal)]
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		all = append(all, g.Events()...)
	}
	return all, players
}

// TestNarrateEnglish checks the English catalogue says what razzia.Narrate
// says for every event of real games: the catalogue carries the same
// information. The only wording difference is the transport card, which
// the catalogue names in full as the rulebook does.
func TestNarrateEnglish(t *testing.T) {
	events, players := playedEvents(t)
	seen := map[string]bool{}
	en := Default()
	for _, e := range events {
		want := razzia.Narrate(e, players)
		got := en.Narrate(e, players)
		got = strings.NewReplacer("transport companies", "transports", "transport company", "transport").Replace(got)
		if got != want {
			t.Errorf("%+v:\n got %q\nwant %q", e, got, want)
		}
		seen[fmt.Sprint(e.Kind, e.Auction, e.PoliceLimit, e.Card == razzia.Police, len(e.Winners) > 1)] = true
	}
	// Events the seeded games may miss, built by hand.
	extra := []razzia.Event{
		{Kind: razzia.EventGameOver, Winners: []int{0, 2}},
		{Kind: razzia.EventGameOver, Winners: []int{0, 1, 2}},
		{Kind: razzia.EventNoWinner, Auction: razzia.AuctionSeventh, Cards: []razzia.Kind{razzia.Car, razzia.Car, razzia.Ring, razzia.Transport, razzia.Thief, razzia.Gold, razzia.RealEstate}},
		{Kind: razzia.EventWin, Seat: 7, Cheque: 4, Centre: 1},
		{Kind: razzia.EventThieves, Seat: 1, Cards: []razzia.Kind{razzia.Driver, razzia.Watch}},
		{Kind: razzia.EventRoundEnd, Round: 2, PoliceLimit: true},
		{Kind: razzia.EventAuction, Seat: 0, Auction: razzia.AuctionForced},
		{Kind: razzia.EventDraw, Seat: 1, Card: razzia.Police, Police: 3},
	}
	for _, e := range extra {
		want := razzia.Narrate(e, players)
		got := strings.NewReplacer("transport companies", "transports", "transport company", "transport").Replace(en.Narrate(e, players))
		if got != want {
			t.Errorf("%+v:\n got %q\nwant %q", e, got, want)
		}
	}
	if len(seen) < 10 {
		t.Errorf("the games produced only %d sorts of event: %v", len(seen), seen)
	}
}

// TestNarrateAll narrates every event in every language: no key shows
// through, no placeholder is left, and the players are named.
func TestNarrateAll(t *testing.T) {
	events, players := playedEvents(t)
	for _, l := range languages {
		c, _ := Lookup(l.Tag)
		for _, e := range events {
			s := c.Narrate(e, players)
			if s == "" || strings.ContainsAny(s, "{}") || rawKey.MatchString(s) {
				t.Errorf("%s: %+v: %q", l.Tag, e, s)
			}
			if e.Kind != razzia.EventRoundEnd && e.Kind != razzia.EventNoWinner && e.Kind != razzia.EventAuction && !strings.Contains(s, "Ann") && !strings.Contains(s, "Bob") && !strings.Contains(s, "Cy") {
				t.Errorf("%s: %+v names nobody: %q", l.Tag, e, s)
			}
		}
		if got := c.Narrate(razzia.Event{Kind: razzia.EventKind(99)}, players); got != "" {
			t.Errorf("%s: unknown event kind: %q", l.Tag, got)
		}
	}
}

func TestCards(t *testing.T) {
	tests := []struct {
		lang   string
		tokens []string
		want   string
	}{
		{"en", nil, "no cards"},
		{"en", []string{"car"}, "1 car"},
		{"en", []string{"ring", "car", "driver", "car"}, "1 ring, 2 cars and 1 driver"},
		{"en", []string{"thief", "thief", "thief"}, "3 thieves"},
		{"de", []string{"car", "car", "driver"}, "2 Autos und 1 Chauffeur"},
		{"nl", []string{"watch", "watch", "gold"}, "2 uurwerken en 1 gouden munt"},
		{"it", []string{"ring", "necklace", "necklace", "restaurant"}, "1 anello, 2 collane e 1 ristorante"},
		{"hu", []string{"car", "car", "bodyguard"}, "1 nehézfiú és 2 autó"},
		{"es", []string{"driver", "driver", "nightclub"}, "2 conductores y 1 club nocturno"},
		{"en", []string{"nonsense"}, "no cards"}, // unknown tokens are not cards
	}
	for _, tt := range tests {
		t.Run(tt.lang+" "+strings.Join(tt.tokens, " "), func(t *testing.T) {
			c, _ := Lookup(tt.lang)
			if got := c.Cards(tt.tokens); got != tt.want {
				t.Errorf("Cards(%v) = %q, want %q", tt.tokens, got, tt.want)
			}
		})
	}
	// Hungarian counts take the singular noun; the plural is for headings.
	hu, _ := Lookup("hu")
	if got := hu.Card("car", 3); got != "3 autó" {
		t.Errorf("hu Card(car, 3) = %q", got)
	}
}

func TestList(t *testing.T) {
	en := Default()
	for _, tt := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c", "d"}, "a, b, c and d"},
	} {
		if got := en.List(tt.items); got != tt.want {
			t.Errorf("List(%q) = %q, want %q", tt.items, got, tt.want)
		}
	}
}
