package e2e

import (
	"bytes"
	"compress/gzip"
	"net/http"
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
// cache, as a guest and as a signed-in person, and adds up what the
// table's first load transferred: each must stay under 150 KB with
// compression. When the server does not compress, the test gzips the same
// bodies to tell what compression would make of them, and reports both.
// (The WebSocket's first state is not a resource entry: it comes on top,
// a few kilobytes.)
func TestFirstLoad(t *testing.T) {
	srv := newServer(t)
	id := srv.create(t, "", "easy", "medium", "easy")
	srv.Join(id, "Ann")
	bea := register(t, srv, "Bea")
	for _, who := range []string{"a guest", "signed in"} {
		p := newPage(t, srv, who, desktop.w, desktop.h)
		if who == "signed in" {
			p.useSession(bea)
		}
		p.open("/g/" + id)
		waitFor[bool](p, "the table", `document.querySelector("#table").dataset.status === "playing" && !!document.querySelector("#seats")`, 10*time.Second)
		if who == "signed in" {
			waitFor[bool](p, "the session asked for", `performance.getEntriesByType("resource").some((e) => e.name.endsWith("/api/session"))`, 10*time.Second)
		}
		firstLoadUnder(t, srv, p, who, 150*1024)
		// What was left to load later must not leave a hole in the table.
		name := map[string]string{"a guest": "first-load-", "signed in": "first-load-signed-in-"}[who]
		p.screenshotViewport(name + desktop.String())
		p.resize(phone)
		p.screenshotViewport(name + phone.String())
	}
}

// firstLoadUnder adds up what the page's first load transferred and fails
// the test when it is more than budget bytes.
func firstLoadUnder(t *testing.T, srv *server, p *page, who string, budget float64) {
	t.Helper()
	loads := eval[[]firstLoad](p, firstLoadJS)
	var transfer, decoded, gzipped float64
	compressed := false
	for _, l := range loads {
		transfer += l.Transfer
		decoded += l.Decoded
		if l.Encoded < l.Decoded {
			compressed = true
		}
		// What the same body would be, gzipped, with the same headers; a
		// person's own answer (their account), fetched here without their
		// cookie, counts as it came.
		if status, body := srv.fetch(t, "GET", strings.TrimPrefix(l.Name, srv.URL), ""); status == http.StatusOK {
			gzipped += l.Transfer - l.Encoded + float64(gzipSize(t, body))
		} else {
			gzipped += l.Transfer
		}
		t.Logf("%s: %6.0f B transferred, %6.0f B used: %s", who, l.Transfer, l.Decoded, l.Name)
	}
	if len(loads) < 5 {
		t.Fatalf("%s: only %d responses: %v", who, len(loads), loads)
	}
	t.Logf("first load of the table, %s: %d responses, %.1f KB transferred (%.1f KB of bodies used); gzipped it would be %.1f KB; the server compresses: %v",
		who, len(loads), transfer/1024, decoded/1024, gzipped/1024, compressed)
	size := gzipped
	if compressed {
		size = transfer
	}
	if size > budget {
		t.Errorf("%s, the first load is %.1f KB compressed: more than %.0f KB", who, size/1024, budget/1024)
	}
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
