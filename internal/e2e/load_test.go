package e2e

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
	"time"
)

// firstLoad is one response of a page's first load, as the browser's
// performance entries tell it.
type firstLoad struct {
	Name     string  `json:"name"`
	Transfer float64 `json:"transfer"` // bytes over the wire, headers included
	Encoded  float64 `json:"encoded"`  // the body as sent (compressed or not)
	Decoded  float64 `json:"decoded"`  // the body as used
}

const firstLoadJS = `(() => [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].map((e) =>
  ({ name: e.name, transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize })))()`

// TestFirstLoad opens a game being played in a browser with an empty
// cache and adds up what the table's first load transferred: it must stay
// under 150 KB with compression. When the server does not compress, the
// test gzips the same bodies to tell what compression would make of them,
// and reports both. (The WebSocket's first state is not a resource entry:
// it comes on top, a few kilobytes.)
func TestFirstLoad(t *testing.T) {
	srv := newServer(t)
	id := srv.create(t, "", "easy", "medium", "easy")
	srv.Join(id, "Ann")
	p := newPage(t, srv, "watcher", desktop.w, desktop.h)
	p.open("/g/" + id)
	waitFor[bool](p, "the table", `document.querySelector("#table").dataset.status === "playing" && !!document.querySelector("#seats")`, 10*time.Second)
	loads := eval[[]firstLoad](p, firstLoadJS)
	var transfer, decoded, gzipped float64
	compressed := false
	for _, l := range loads {
		transfer += l.Transfer
		decoded += l.Decoded
		if l.Encoded < l.Decoded {
			compressed = true
		}
		// What the same body would be, gzipped, with the same headers.
		_, body := srv.fetch(t, "GET", strings.TrimPrefix(l.Name, srv.URL), "")
		gzipped += l.Transfer - l.Encoded + float64(gzipSize(t, body))
		t.Logf("%6.0f B transferred, %6.0f B used: %s", l.Transfer, l.Decoded, l.Name)
	}
	if len(loads) < 5 {
		t.Fatalf("only %d responses: %v", len(loads), loads)
	}
	t.Logf("first load of the table: %d responses, %.1f KB transferred (%.1f KB of bodies used); gzipped it would be %.1f KB; the server compresses: %v",
		len(loads), transfer/1024, decoded/1024, gzipped/1024, compressed)
	size := gzipped
	if compressed {
		size = transfer
	}
	if size > 150*1024 {
		t.Errorf("the first load is %.1f KB compressed: more than 150 KB", size/1024)
	}
	// What was left to load later must not leave a hole in the table.
	p.screenshotViewport("first-load-" + desktop.String())
	p.resize(phone)
	p.screenshotViewport("first-load-" + phone.String())
}

func gzipSize(t *testing.T, b []byte) int {
	t.Helper()
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	w.Close()
	return z.Len()
}
