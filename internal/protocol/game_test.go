package protocol

import (
	"strings"
	"testing"
)

func TestValidID(t *testing.T) {
	for _, id := range []string{"k3x7q2m5ab", "aaaaaaaaaa", "2345672345"} {
		if !ValidID(id) {
			t.Errorf("ValidID(%q) = false", id)
		}
	}
	for _, id := range []string{"", "a", "k3x9q2m7ab", "K3X7Q2M5AB", "k3x7q2m5a", "k3x7q2m5abc", "a/b", "k3x7q2m5a.",
		"k3x7q2m5a ", strings.Repeat("z", 64), "k3x7q2m5aé"} {
		if ValidID(id) {
			t.Errorf("ValidID(%q) = true", id)
		}
	}
}
