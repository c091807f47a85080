package loadgen

import (
	"context"
	"net/http"
	"runtime"
	"testing"
)

// TestEchoReusesMemory: a round trip of the echo allocates far less than
// its answer, on either side: the load shares the machine with the
// servers it measures, and its collector's work counts against them.
func TestEchoReusesMemory(t *testing.T) {
	const size, trips = 64 << 10, 50
	e, err := startEcho()
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	ctx := context.Background()
	c, err := dialEcho(ctx, e.url(), http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, err := c.roundTrip(ctx, size); err != nil { // the buffers grow once
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range trips {
		if _, err := c.roundTrip(ctx, size); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / trips; per > size/4 {
		t.Errorf("a round trip of %d bytes allocated %d bytes", size, per)
	}
}
