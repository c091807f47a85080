package i18n

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
)

// TestErrorTexts checks the texts of the refusals against the protocol's
// catalogue of codes, in each language: every code has its error.<code>
// text in common.json, and every error.* key (but error.unknown, for a
// code of a newer server) is a code, so that no text outlives its code.
func TestErrorTexts(t *testing.T) {
	want := []string{"error.unknown"}
	for _, c := range protocol.Codes() {
		want = append(want, "error."+string(c.Code))
	}
	slices.Sort(want)
	for tag, doms := range readAll(t) {
		var got []string
		for domain, texts := range doms {
			for key := range maps.Keys(texts) {
				if !strings.HasPrefix(key, "error.") {
					continue
				}
				if domain != "common" {
					t.Errorf("%s/%s.json: %q belongs in common.json, beside the other codes", tag, domain, key)
				}
				got = append(got, key)
			}
		}
		slices.Sort(got)
		for _, key := range want {
			if _, ok := slices.BinarySearch(got, key); !ok {
				t.Errorf("%s: no text for %q", tag, key)
			}
		}
		for _, key := range got {
			if _, ok := slices.BinarySearch(want, key); !ok {
				t.Errorf("%s: %q is no code of the protocol", tag, key)
			}
		}
	}
}
