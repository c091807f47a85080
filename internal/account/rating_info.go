package account

import (
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// RatingInfo describes a stored rating as every answer of the protocol
// shows it (the profile's, the online list's).
func RatingInfo(r store.Rating) protocol.RatingInfo { return ratingInfo(r) }
