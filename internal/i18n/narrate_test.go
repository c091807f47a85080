package i18n

import (
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

// TestNarrateEnglish checks the English sentences, which "razzia replay"
// prints (its golden files check whole games), for every sort of event.
func TestNarrateEnglish(t *testing.T) {
	players := []string{"Ann", "Bob", "Cy"}
	en := Default()
	for _, tt := range []struct {
		e    razzia.Event
		want string
	}{
		{razzia.Event{Kind: razzia.EventDraw, Seat: 0, Card: razzia.Car}, "Ann draws a car."},
		{razzia.Event{Kind: razzia.EventDraw, Seat: 2, Card: razzia.Transport}, "Cy draws a transport."},
		{razzia.Event{Kind: razzia.EventDraw, Seat: 1, Card: razzia.Police, Police: 3}, "Bob draws police (3 on the track)."},
		{razzia.Event{Kind: razzia.EventThieves, Seat: 1, Cards: []razzia.Kind{razzia.Driver, razzia.Watch}}, "Bob uses 2 thieves to take 1 watch and 1 driver."},
		{razzia.Event{Kind: razzia.EventAuction, Seat: 0, Auction: razzia.AuctionForced}, "Ann calls a forced auction."},
		{razzia.Event{Kind: razzia.EventAuction, Seat: 0, Auction: razzia.AuctionPolice}, "Police auction."},
		{razzia.Event{Kind: razzia.EventAuction, Seat: 0, Auction: razzia.AuctionSeventh}, "The row is full: auction."},
		{razzia.Event{Kind: razzia.EventBid, Seat: 2, Cheque: 9}, "Cy bids 9."},
		{razzia.Event{Kind: razzia.EventPass, Seat: 1}, "Bob passes."},
		{razzia.Event{Kind: razzia.EventWin, Seat: 7, Cheque: 4, Centre: 1}, "seat 8 wins with 4: takes no cards and cheque 1 face down."},
		{razzia.Event{Kind: razzia.EventNoWinner, Auction: razzia.AuctionSeventh, Cards: []razzia.Kind{razzia.Car, razzia.Car, razzia.Ring, razzia.Transport}},
			"Nobody bids: 1 ring, 2 cars and 1 transport leave the game."},
		{razzia.Event{Kind: razzia.EventNoWinner, Auction: razzia.AuctionPolice}, "Nobody bids: the row stays."},
		{razzia.Event{Kind: razzia.EventRoundEnd, Round: 2, PoliceLimit: true}, "Raid! Round 2 ends with the last police card."},
		{razzia.Event{Kind: razzia.EventRoundEnd, Round: 1}, "Round 1 ends: every cheque is spent."},
		{razzia.Event{Kind: razzia.EventGameOver, Winners: []int{1}}, "Bob wins the game."},
		{razzia.Event{Kind: razzia.EventGameOver, Winners: []int{0, 1, 2}}, "Ann, Bob and Cy share the win."},
	} {
		if got := en.Narrate(tt.e, players); got != tt.want {
			t.Errorf("%+v:\n got %q\nwant %q", tt.e, got, tt.want)
		}
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
