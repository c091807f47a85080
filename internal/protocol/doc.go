// Package protocol defines the Razzia server protocol of docs/protocol.md
// once: the objects (GameInfo, the view, events, typed moves), the
// messages of the WebSocket (state, error, move), the bodies of the HTTP
// API, the error codes and the rule for game ids. The server, the Go
// client, the terminal client, the tests and the generator of the
// document's examples all use these types, so the wire format cannot drift
// between them.
//
// The package imports only the rules engine and the standard library.
// The table layer (internal/table) imports it to describe its games:
// a game's GameInfo and a seat's View are built where the game lives,
// once per change, and shared by every connection that shows them,
// rather than converted again at the HTTP boundary for each one.
// Narration needs a language catalogue, which this package does not know:
// callers pass a Narrator.
package protocol
