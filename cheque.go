package razzia

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Cheques is a set of cheques (R2), as a bit set: bit v-1 stands for the
// cheque worth v thousand. The zero value is the empty set.
type Cheques uint16

// ChequesOf returns the set of the given cheque values (1..16); others are ignored.
func ChequesOf(values ...int) Cheques {
	var c Cheques
	for _, v := range values {
		if v >= 1 && v <= MaxCheque {
			c |= 1 << (v - 1)
		}
	}
	return c
}

// MaxCheque is the highest cheque value, in thousands.
const MaxCheque = 16

// Has reports whether the cheque worth v is in c.
func (c Cheques) Has(v int) bool { return v >= 1 && v <= MaxCheque && c&(1<<(v-1)) != 0 }

// Len returns the number of cheques in c.
func (c Cheques) Len() int { return bits.OnesCount16(uint16(c)) }

// Max returns the highest cheque in c, or 0 if c is empty.
func (c Cheques) Max() int { return bits.Len16(uint16(c)) }

// Min returns the lowest cheque in c, or 0 if c is empty.
func (c Cheques) Min() int {
	if c == 0 {
		return 0
	}
	return bits.TrailingZeros16(uint16(c)) + 1
}

// Above returns the cheques in c worth more than v.
func (c Cheques) Above(v int) Cheques {
	if v < 0 {
		v = 0
	}
	return Cheques(uint32(c) &^ (1<<uint(min(v, MaxCheque)) - 1))
}

// Sum returns the total value of c, in thousands.
func (c Cheques) Sum() int {
	sum := 0
	for c != 0 {
		sum += bits.TrailingZeros16(uint16(c)) + 1
		c &= c - 1
	}
	return sum
}

// Values returns the cheques of c in increasing order.
func (c Cheques) Values() []int {
	vs := make([]int, 0, c.Len())
	for ; c != 0; c &= c - 1 {
		vs = append(vs, bits.TrailingZeros16(uint16(c))+1)
	}
	return vs
}

// String lists the cheques of c in increasing order, such as "3 7 12".
func (c Cheques) String() string {
	parts := make([]string, 0, c.Len())
	for _, v := range c.Values() {
		parts = append(parts, strconv.Itoa(v))
	}
	return strings.Join(parts, " ")
}

// phrase lists the cheques of c for a sentence: "3, 7 and 12".
func (c Cheques) phrase() string {
	vs := c.Values()
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.Itoa(v)
	}
	return joinAnd(parts)
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return "none"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// chequeSets holds the cheque sets of R4 by player count.
var chequeSets = [MaxPlayers + 1][]Cheques{
	2: {ChequesOf(2, 5, 6, 9), ChequesOf(3, 4, 7, 8)},
	3: {ChequesOf(2, 5, 8, 13), ChequesOf(3, 6, 9, 12), ChequesOf(4, 7, 10, 11)},
	4: {ChequesOf(2, 6, 13), ChequesOf(3, 7, 12), ChequesOf(4, 8, 11), ChequesOf(5, 9, 10)},
	5: {ChequesOf(2, 7, 16), ChequesOf(3, 8, 15), ChequesOf(4, 9, 14), ChequesOf(5, 10, 13), ChequesOf(6, 11, 12)},
}

// The player counts the game supports.
const (
	MinPlayers = 2
	MaxPlayers = 5
)

// ChequeSets returns the rulebook's cheque sets A, B, ... for the player
// count (R4), each in increasing order, or nil for an unsupported count.
func ChequeSets(players int) [][]int {
	if players < MinPlayers || players > MaxPlayers {
		return nil
	}
	sets := make([][]int, players)
	for i, c := range chequeSets[players] {
		sets[i] = c.Values()
	}
	return sets
}

// DealCheques deals the rulebook's cheque sets to the seats by lot (R4),
// drawing from r. A game dealt from a seed uses NewSetup, which deals with
// it; DealCheques is for callers with a source of their own, such as tests.
func DealCheques(players int, r *rand.Rand) [][]int {
	sets := ChequeSets(players)
	r.Shuffle(len(sets), func(i, j int) { sets[i], sets[j] = sets[j], sets[i] })
	return sets
}

// dealFromSets checks that sets is a permutation of the player count's
// cheque sets and returns them as bit sets. Within a set the order of the
// values does not matter.
func dealFromSets(players int, sets [][]int) ([MaxPlayers]Cheques, error) {
	var deal [MaxPlayers]Cheques
	if players < MinPlayers || players > MaxPlayers {
		return deal, fmt.Errorf("%w: %s; Razzia is for %d to %d players", ErrSetup, playerCount(players), MinPlayers, MaxPlayers)
	}
	if sets == nil {
		copy(deal[:], chequeSets[players])
		return deal, nil
	}
	if len(sets) != players {
		return deal, fmt.Errorf("%w: %d cheque sets for %d players", ErrSetup, len(sets), players)
	}
	want := slices.Clone(chequeSets[players])
	for seat, set := range sets {
		c := ChequesOf(set...)
		if c.Len() != len(set) || !slices.Contains(want, c) {
			return deal, fmt.Errorf("%w: cheques %v for seat %d are not one of the rulebook sets for %d players (%s)",
				ErrSetup, set, seat+1, players, describeSets(players))
		}
		want[slices.Index(want, c)] = 0 // each set once
		deal[seat] = c
	}
	return deal, nil
}

func playerCount(n int) string {
	if n == 1 {
		return "1 player"
	}
	return strconv.Itoa(n) + " players"
}

func describeSets(players int) string {
	parts := make([]string, 0, players)
	for _, c := range chequeSets[players] {
		parts = append(parts, "["+c.String()+"]")
	}
	return strings.Join(parts, ", ")
}
