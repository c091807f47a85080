package httpapi

// MaxMessage is the largest WebSocket message a client may send, for the
// tests of the package httpapi_test.
const MaxMessage = maxMessage

// StateMessage is stateMessage, for the benchmarks of httpapi_test.
var StateMessage = stateMessage

// Compressible is compressible, for the tests of httpapi_test.
var Compressible = compressible

// RatingSVG draws a rating history (chart.go).
var RatingSVG = ratingSVG

// SetTournamentSocketOpen sets the function called as a tournament's
// socket opens, before it follows the changes; nil unsets it.
func SetTournamentSocketOpen(f func(id string)) { tournamentSocketOpen = f }
