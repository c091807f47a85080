package protocol_test

import (
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// rematchExamples adds the examples of a rematch.
func rematchExamples(add func(string, any)) {
	yes, no := true, false
	add("rematch-offer", protocol.RematchMessage{Type: protocol.TypeRematch, Accept: &yes})
	add("rematch-decline", protocol.RematchMessage{Type: protocol.TypeRematch, Accept: &no})
	add("rematch-post", protocol.RematchMessage{Accept: &yes})
	// Ann offered at the end of k3x7q2m5ab; the bot accepted with her,
	// Cy has not answered yet.
	offer := protocol.RematchOffer{By: 0, State: protocol.RematchOpen, Answers: []string{"yes", "yes", ""},
		Expires: time.Date(2026, 3, 14, 19, 42, 10, 0, time.UTC), Game: "q7nd2kx4ma"}
	add("rematch-offer-message", protocol.RematchOfferMessage{Type: protocol.TypeRematchOffer, Offer: offer})
	offer.State, offer.Answers[2] = protocol.RematchStarted, "yes"
	add("rematch-answer", protocol.RematchAnswer{Offer: offer, Token: "M5QW2ZLTORSXG5DPNNSW4LJVGQ"})
	add("rematch-links", struct {
		RematchOf    string                 `json:"rematchOf,omitempty"`
		Rematch      string                 `json:"rematch,omitempty"`
		RematchOffer *protocol.RematchOffer `json:"rematchOffer,omitempty"`
	}{Rematch: "q7nd2kx4ma", RematchOffer: &offer})
}
