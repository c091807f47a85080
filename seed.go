package razzia

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
)

// NewSetup returns the setup of a new game of the players dealt from a
// secret seed: the cheque sets dealt by lot (R4) from SeededRand(seed,
// "cheques"), and the seed kept to draw the cards (Setup.Seed). The same
// player count and seed always give the same setup; 32 random bytes make a
// good seed. This is the one way a seed becomes a game: the server, the
// arena and razzia play all start their games with it. A game already
// started keeps the cheques it was dealt (they are in its record): they are
// never dealt again from its seed.
//
// NewSetup checks nothing; NewGame reports players it cannot seat.
func NewSetup(players []string, seed []byte) Setup {
	return Setup{
		Players: append([]string(nil), players...),
		Cheques: DealCheques(len(players), SeededRand(seed, "cheques")),
		Seed:    append([]byte(nil), seed...),
	}
}

// SeededRand returns a source of chance keyed with the seed and a label, so
// that each use of one seed draws its own stream: NewSetup deals the cheques
// from the label "cheques", and a server may seed the bot in seat i with
// "bot i". The key is the SHA-256 of "razzia table", a zero byte, the
// label's length (8 bytes, big-endian), the label and the seed; the stream
// is ChaCha8 with that key. (The tag names the table because the server
// used this derivation first; keeping it keeps the server's deals.)
//
// The cards a Game draws come from its own key (see Setup.Seed), not from
// SeededRand: a stream given away, such as a bot's, reveals nothing of
// the deck.
func SeededRand(seed []byte, label string) *rand.Rand {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(label)))
	key := sha256.Sum256(append(append(append([]byte("razzia table\x00"), n[:]...), label...), seed...))
	return rand.New(rand.NewChaCha8(key))
}
