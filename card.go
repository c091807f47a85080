package razzia

import (
	"fmt"
	"strings"
)

// A Kind is one of the 18 kinds of card (R1). The zero Kind is NoKind.
type Kind uint8

// The kinds of card, in the order of the record's KIND list.
const (
	NoKind Kind = iota
	Police
	Ring
	Watch
	Brooch
	Necklace
	Diamond
	Bodyguard
	Car
	Driver
	Thief
	Gold
	Casino
	Transport
	Cinema
	Racetrack
	RealEstate
	Nightclub
	Restaurant

	numKinds = iota // NoKind included, so arrays can be indexed by Kind
)

// Kinds lists every kind of card, police first.
var Kinds = [...]Kind{Police, Ring, Watch, Brooch, Necklace, Diamond, Bodyguard, Car, Driver,
	Thief, Gold, Casino, Transport, Cinema, Racetrack, RealEstate, Nightclub, Restaurant}

// Jewels and Businesses list the kinds that score as sets (R16, R17).
var (
	Jewels     = [...]Kind{Ring, Watch, Brooch, Necklace, Diamond}
	Businesses = [...]Kind{Casino, Transport, Cinema, Racetrack, RealEstate, Nightclub, Restaurant}
)

// DeckSize is the number of cards in the game.
const DeckSize = 120

// composition is how many cards of each kind the game has (R1).
var composition = [numKinds]uint8{
	Police: 21,
	Ring:   4, Watch: 4, Brooch: 4, Necklace: 4, Diamond: 4,
	Bodyguard: 16, Car: 16, Driver: 10, Thief: 6, Gold: 3,
	Casino: 4, Transport: 4, Cinema: 4, Racetrack: 4, RealEstate: 4, Nightclub: 4, Restaurant: 4,
}

// Count reports how many cards of kind k the game has in all.
func (k Kind) Count() int {
	if k >= numKinds {
		return 0
	}
	return int(composition[k])
}

// IsLoot reports whether k is a loot card, one that goes into the auction row.
func (k Kind) IsLoot() bool { return k > Police && k < numKinds }

// IsJewel reports whether k is one of the five jewels.
func (k Kind) IsJewel() bool { return k >= Ring && k <= Diamond }

// IsBusiness reports whether k is one of the seven businesses.
func (k Kind) IsBusiness() bool { return k >= Casino && k <= Restaurant }

// Crossed reports whether cards of kind k carry the printed cross and leave the
// players' holdings after every scoring (R1 Decision): jewels, drivers,
// thieves and gold.
func (k Kind) Crossed() bool {
	return k.IsJewel() || k == Driver || k == Thief || k == Gold
}

// crossedKinds lists the kinds for which Crossed is true.
var crossedKinds = [...]Kind{Ring, Watch, Brooch, Necklace, Diamond, Driver, Thief, Gold}

var kindTokens = [numKinds]string{
	"", "police", "ring", "watch", "brooch", "necklace", "diamond", "bodyguard", "car", "driver",
	"thief", "gold", "casino", "transport", "cinema", "racetrack", "realestate", "nightclub", "restaurant",
}

var kindNames = [numKinds]string{
	"no card", "police", "ring", "watch", "brooch", "necklace", "diamond", "bodyguard", "car", "driver",
	"thief", "gold coin", "casino", "transport", "cinema", "racetrack", "real estate", "nightclub", "restaurant",
}

// String returns the record token of k, such as "realestate".
func (k Kind) String() string {
	if k >= numKinds {
		return fmt.Sprintf("Kind(%d)", uint8(k))
	}
	return kindTokens[k]
}

// Name returns the English name of k for people, such as "real estate".
func (k Kind) Name() string {
	if k >= numKinds {
		return k.String()
	}
	return kindNames[k]
}

// Plural returns the English name of n cards of kind k, such as "2 watches".
func (k Kind) Plural(n int) string {
	name := k.Name()
	if n == 1 {
		return "1 " + name
	}
	switch {
	case k == Police:
	case strings.HasSuffix(name, "ch"):
		name += "es"
	case k == Thief:
		name = "thieves"
	case k == RealEstate:
		name = "real estates"
	default:
		name += "s"
	}
	return fmt.Sprintf("%d %s", n, name)
}

// ParseKind returns the kind whose record token is s, in any case.
func ParseKind(s string) (Kind, error) {
	for k := Police; k < numKinds; k++ {
		if strings.EqualFold(s, kindTokens[k]) {
			return k, nil
		}
	}
	return NoKind, &SyntaxError{Token: s, Err: ErrUnknownCard,
		msg: fmt.Sprintf("unknown card %q: a card is one of %s", s, strings.Join(kindTokens[Police:], ", "))}
}

// MarshalText encodes k as its record token.
func (k Kind) MarshalText() ([]byte, error) {
	if k == NoKind || k >= numKinds {
		return nil, fmt.Errorf("razzia: cannot encode %v", k)
	}
	return []byte(kindTokens[k]), nil
}

// UnmarshalText decodes a record token into k.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}
