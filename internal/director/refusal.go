package director

import (
	"fmt"

	"github.com/razziagame/razzia/internal/protocol"
)

// The refusals of tournament requests: each changes nothing.
var (
	ErrNotFound     = protocol.NewRefusal(protocol.NotFound, "no such tournament")
	ErrFull         = protocol.NewRefusal(protocol.TournamentFull, "the tournament is full")
	ErrStarted      = protocol.NewRefusal(protocol.TournamentStarted, "the tournament has started")
	ErrPassword     = protocol.NewRefusal(protocol.TournamentPassword, "the tournament's password is needed")
	ErrJoined       = protocol.NewRefusal(protocol.TournamentJoined, "you are in the tournament already")
	ErrNotJoined    = protocol.NewRefusal(protocol.TournamentNotJoined, "you are not playing in the tournament")
	ErrLimits       = protocol.NewRefusal(protocol.TournamentLimits, "you are outside the tournament's limits")
	ErrNotOrganiser = protocol.NewRefusal(protocol.TournamentNotOrganiser, "only the organiser may do that")
	ErrTooFew       = protocol.NewRefusal(protocol.TournamentTooFew, "too few players to seat the tables")
	ErrOver         = protocol.NewRefusal(protocol.TournamentOver, "the tournament is over")
	ErrSettings     = protocol.NewRefusal(protocol.TournamentBadSettings, "the tournament's settings cannot make its tables")
	ErrRemoved      = protocol.NewRefusal(protocol.TournamentRemoved, "the organiser removed you from the tournament")
	ErrHidden       = protocol.NewRefusal(protocol.TournamentHidden, "the table plays a duplicate deal of a round under way")
	ErrTooMany      = protocol.NewRefusal(protocol.TournamentTooMany, "you organise as many tournaments as one account may")
	ErrSignIn       = protocol.NewRefusal(protocol.Unauthorized, "a tournament needs a signed-in account")
	ErrBadAction    = protocol.NewRefusal(protocol.BadRequest, "no such tournament action")
	ErrUnavailable  = protocol.NewRefusal(protocol.Unavailable, "the tournament is busy; try again")
)

// refuse returns the refusal r with a message for people that says more.
func refuse(r *protocol.Refusal, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{r}, args...)...)
}
