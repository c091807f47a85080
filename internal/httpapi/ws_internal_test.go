package httpapi

import (
	"maps"
	"regexp"
	"slices"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
)

// TestHandlersNameTheTypes: the types a client is told of, when it sends
// one nobody knows, are exactly those with a handler.
func TestHandlersNameTheTypes(t *testing.T) {
	err := (&protocol.MoveMessage{Type: "dance"}).Check()
	if err == nil {
		t.Fatal("a message of type dance passed the check")
	}
	var told []string
	for _, m := range regexp.MustCompile(`"([a-z]+)"`).FindAllStringSubmatch(err.Error(), -1)[1:] { // the first is "dance"
		told = append(told, m[1])
	}
	slices.Sort(told)
	if handled := slices.Sorted(maps.Keys(wsHandlers)); !slices.Equal(told, handled) {
		t.Errorf("the client is told of the types %q; handled are %q", told, handled)
	}
}

// TestMessageType reads the type of any message, "" when there is none.
func TestMessageType(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"a move", `{"type":"move","move":"draw","seq":0}`, "move"},
		{"type last", `{"seat":1,"type":"mute"}`, "mute"},
		{"no type", `{"move":"draw"}`, ""},
		{"not a string", `{"type":7}`, ""},
		{"malformed", `{"type":"move",`, ""},
		{"not an object", `["move"]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := messageType([]byte(tt.data)); got != tt.want {
				t.Errorf("messageType(%s) = %q, want %q", tt.data, got, tt.want)
			}
		})
	}
}
