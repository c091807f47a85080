package push

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// swHarness runs sw.js in a fake ServiceWorkerGlobalScope, one scenario
// after another (read as JSON from stdin), and prints what each did.
const swHarness = `
const vm = require("node:vm");
const fs = require("node:fs");
const code = fs.readFileSync(process.argv[2], "utf8");
const scenarios = JSON.parse(fs.readFileSync(0, "utf8"));
(async () => {
  const results = [];
  for (const sc of scenarios) {
    const on = {};
    const rec = { shown: null, focused: "", opened: "", closed: false, skipped: false, claimed: false };
    const windows = (sc.windows || []).map((url) => ({ url, focus() { rec.focused = url; return Promise.resolve(this); } }));
    const self = {
      location: { origin: "https://razzia.example" },
      addEventListener: (type, f) => { on[type] = f; },
      skipWaiting: () => { rec.skipped = true; return Promise.resolve(); },
      registration: { showNotification: (title, options) => { rec.shown = { title, options }; return Promise.resolve(); } },
      clients: {
        claim: () => { rec.claimed = true; return Promise.resolve(); },
        matchAll: async () => windows,
        openWindow: async (url) => { rec.opened = url; return null; },
      },
    };
    vm.runInContext(code, vm.createContext({ self, URL }), { filename: "sw.js" });
    const pending = [];
    const event = (extra) => Object.assign({ waitUntil: (p) => pending.push(p) }, extra);
    on.install(event({}));
    on.activate(event({}));
    const data = sc.push === null ? null : { json: () => JSON.parse(sc.push), text: () => sc.push };
    on.push(event({ data }));
    await Promise.all(pending);
    if (sc.click) {
      const notification = { data: rec.shown && rec.shown.options.data, close() { rec.closed = true; } };
      on.notificationclick(event({ notification }));
    }
    await Promise.all(pending);
    results.push(rec);
  }
  process.stdout.write(JSON.stringify(results));
})().catch((e) => { console.error(e); process.exit(1); });
`

type swScenario struct {
	Push    *string  `json:"push"` // the payload; nil: a push without one
	Windows []string `json:"windows,omitempty"`
	Click   bool     `json:"click"`
}

type swResult struct {
	Shown *struct {
		Title   string `json:"title"`
		Options struct {
			Body     string `json:"body"`
			Tag      string `json:"tag"`
			Renotify bool   `json:"renotify"`
			Data     struct {
				URL string `json:"url"`
			} `json:"data"`
		} `json:"options"`
	} `json:"shown"`
	Focused, Opened          string
	Closed, Skipped, Claimed bool
}

func payload(n Notification) *string {
	b, _ := json.Marshal(n)
	s := string(b)
	return &s
}

func ptr(s string) *string { return &s }

// node returns the path of Node.js, or skips the test (fails it under
// CI=true, where it must run).
func node(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed, and CI=true: the service worker must be tested")
		}
		t.Skip("SKIPPED LOUDLY: node is not installed, so sw.js is not run (apt-get install nodejs)")
	}
	return path
}

func TestServiceWorker(t *testing.T) {
	const site = "https://razzia.example"
	turn := Notification{Title: "Your turn", Body: "It is your turn at table Friday.", URL: "/table/7", Tag: "razzia /table/7"}
	tests := []struct {
		name string
		sc   swScenario
		// what the notification shows: title, body, tag, url; "" title: none shown
		title, body, tag, url string
		focused, opened       string
	}{
		{"a push shows its title, body and tag", swScenario{Push: payload(turn)},
			"Your turn", turn.Body, turn.Tag, site + "/table/7", "", ""},
		{"a payload that is not JSON still shows a notification", swScenario{Push: ptr("garbage")},
			"Razzia", "", "", site + "/", "", ""},
		{"a push without payload still shows a notification", swScenario{Push: nil},
			"Razzia", "", "", site + "/", "", ""},
		{"markup in the payload stays text", swScenario{Push: payload(Notification{Title: "<b>x</b>", Body: "<img src=x onerror=alert(1)>", URL: "/"})},
			"<b>x</b>", "<img src=x onerror=alert(1)>", "", site + "/", "", ""},
		{"a click focuses the tab at the table", swScenario{Push: payload(turn), Click: true, Windows: []string{site + "/", site + "/table/7?lang=de"}},
			"Your turn", turn.Body, turn.Tag, site + "/table/7", site + "/table/7?lang=de", ""},
		{"a click opens the table when no tab shows it", swScenario{Push: payload(turn), Click: true, Windows: []string{site + "/table/8"}},
			"Your turn", turn.Body, turn.Tag, site + "/table/7", "", site + "/table/7"},
		{"a link to another site leads to the site's root", swScenario{Push: payload(Notification{Title: "x", URL: "https://evil.example/phish"}), Click: true},
			"x", "", "", site + "/", "", site + "/"},
	}
	scenarios := make([]swScenario, len(tests))
	for i, tt := range tests {
		scenarios[i] = tt.sc
	}
	in, _ := json.Marshal(scenarios)

	dir := t.TempDir()
	sw, harness := filepath.Join(dir, "sw.js"), filepath.Join(dir, "harness.cjs")
	os.WriteFile(sw, serviceWorker, 0o644)
	os.WriteFile(harness, []byte(swHarness), 0o644)
	cmd := exec.Command(node(t), harness, sw)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("node: %v\n%s", err, stderr)
	}
	var results []swResult
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(tests) {
		t.Fatalf("harness output %s: %v", out, err)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := results[i]
			if !r.Skipped || !r.Claimed {
				t.Error("a new worker does not take over at once (skipWaiting, clients.claim)")
			}
			if r.Shown == nil {
				t.Fatal("no notification shown")
			}
			o := r.Shown.Options
			if r.Shown.Title != tt.title || o.Body != tt.body || o.Tag != tt.tag || o.Data.URL != tt.url {
				t.Errorf("shown %q %q tag %q url %q; want %q %q tag %q url %q", r.Shown.Title, o.Body, o.Tag, o.Data.URL, tt.title, tt.body, tt.tag, tt.url)
			}
			if o.Renotify != (tt.tag != "") {
				t.Errorf("renotify %v with tag %q", o.Renotify, tt.tag)
			}
			if r.Focused != tt.focused || r.Opened != tt.opened || r.Closed != tt.sc.Click {
				t.Errorf("click: focused %q, opened %q, closed %v; want %q, %q, %v", r.Focused, r.Opened, r.Closed, tt.focused, tt.opened, tt.sc.Click)
			}
		})
	}
}

func TestServiceWorkerServed(t *testing.T) {
	w := httptest.NewRecorder()
	ServiceWorker().ServeHTTP(w, httptest.NewRequest("GET", "/sw.js", nil))
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("Content-Type %q: browsers register only JavaScript", ct)
	}
	if w.Body.String() != string(serviceWorker) || !strings.Contains(w.Body.String(), `addEventListener("push"`) {
		t.Error("the body is not sw.js")
	}
}
