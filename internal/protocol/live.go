package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The versions of a game's WebSocket protocol. A client states those it
// speaks in the connection's URL (?protocol=1,2); the server speaks the
// newest of them it knows. A client that states none speaks version 1.
const (
	// Version1 sends a whole state message after every change.
	Version1 = 1
	// Version2 sends a whole state message on connecting (and when the
	// client asks for one, "resync"), then a "patch" message after every
	// change: its events and a patch of the state (PatchMessage).
	Version2 = 2
)

// Versions are the protocol versions this package speaks, oldest first.
var Versions = []int{Version1, Version2}

// TypePatch is version 2's message from the server of a change; the
// client's TypeResync (the lobby's type too) asks for a whole state.
const TypePatch = "patch"

// ErrUnsupportedVersion is the error of a protocol version list that names
// no version this package speaks.
var ErrUnsupportedVersion = errors.New("no protocol version this server speaks")

// NegotiateVersion returns the newest version this package speaks of
// list, the versions a client speaks, comma-separated ("1,2"); Version1
// for an empty list. An error (wrapping ErrUnsupportedVersion) names the
// versions spoken.
func NegotiateVersion(list string) (int, error) {
	if strings.TrimSpace(list) == "" {
		return Version1, nil
	}
	best := 0
	for _, s := range strings.Split(list, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err == nil && v > best && v >= Versions[0] && v <= Versions[len(Versions)-1] {
			best = v
		}
	}
	if best == 0 {
		spoken := make([]string, len(Versions))
		for i, v := range Versions {
			spoken[i] = strconv.Itoa(v)
		}
		return 0, fmt.Errorf("%w: protocol %q; this server speaks versions %s", ErrUnsupportedVersion, list, strings.Join(spoken, ", "))
	}
	return best, nil
}

// A PatchMessage is the server's "patch" message (version 2): a change of
// the state the connection received last. Base is the version of that
// state: a client whose state is another (a message went missing) asks
// for a whole state with a ResyncMessage instead of applying it. Events
// happened since the connection's previous message. Patch turns the
// state (the state message without its "type", "events" and "version")
// into the new one, Version, by Patch's rules.
type PatchMessage struct {
	Type string `json:"type"` // TypePatch
	// Base is absent from the message when it is Version-1.
	Base    int64           `json:"base"`
	Version int64           `json:"version"`
	Events  []Event         `json:"events"`
	Patch   json.RawMessage `json:"patch"`
}

// A ResyncMessage is the client's "resync": it asks for a whole state
// message, which replaces the state and the events it has.
type ResyncMessage struct {
	Type string `json:"type"` // TypeResync
}

// stateOnly removes the members of a state message that are not its
// state, as a patch.
var stateOnly = []byte(`{"events":null,"version":null}`)

// StateOf appends to dst the state of a whole state message (data, as
// received): what the next patch applies to.
func StateOf(dst, data []byte) ([]byte, error) {
	return AppendPatched(dst, data, stateOnly)
}

// A PatchEnvelope is a PatchMessage as read by ParsePatch: its events and
// patch left encoded.
type PatchEnvelope struct {
	Base, Version int64
	Events, Patch []byte
}

// ParsePatch reads a "patch" message (data, as received).
func ParsePatch(data []byte) (PatchEnvelope, error) {
	var p PatchEnvelope
	var typ string
	hasBase := false
	ok := members(bytes.TrimSpace(data), func(key, value []byte) bool {
		switch string(key) {
		case "type":
			return decodeValue(value, &typ)
		case "base":
			hasBase = true
			return json.Unmarshal(value, &p.Base) == nil
		case "version":
			return json.Unmarshal(value, &p.Version) == nil
		case "events":
			p.Events = value
		case "patch":
			p.Patch = value
		}
		return true
	})
	if !ok || typ != TypePatch || p.Patch == nil {
		return PatchEnvelope{}, errors.New("protocol: not a patch message")
	}
	if !hasBase {
		p.Base = p.Version - 1
	}
	return p, nil
}
