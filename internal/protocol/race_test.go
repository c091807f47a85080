//go:build race

package protocol

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs nothing under the race detector: neither this package nor
// the engine it links starts a goroutine, and its tests run one at a time
// (TestOneGoroutine checks the three without -race), so the detector has
// nothing to watch here. The code is watched where it runs concurrently,
// in the server's packages, under -race there.
func TestMain(m *testing.M) {
	fmt.Println("SKIPPED under -race: internal/protocol runs on one goroutine (see TestOneGoroutine)")
	os.Exit(0)
}
